"""The table's link (championship.views.table): the QR code of the entry page opens the round's
live view without an account, for that round only, until it is homologated; from there a seated
player signs for himself, by his own account or by the code the secretary's screen shows him
(docs/utiliser.md, « Suivre la manche en direct »; docs/exploitation.md, « Comptes et sécurité »)."""

import datetime
import re

import pytest
import segno
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from championship import services
from championship.models import Signoff
from championship.rounds.live import live_stamp
from championship.rounds.table_link import signing_codes, table_token
from championship.views.table import CODE_GUESSES
from federation.models import Player
from tests.factories import fifth_deal, make_round


def table_url(round_, token=None):
    return reverse("championship:round_table", args=[round_.pk, token or table_token(round_)])


def live_url(round_):
    return reverse("championship:round_live", args=[round_.pk])


def poll_url(round_):
    return reverse("championship:round_live_poll", args=[round_.pk])


def code_url(round_):
    return reverse("championship:round_signoff_code", args=[round_.pk])


def codes(round_):
    return signing_codes(round_.pk, round_.seats.values_list("player_id", flat=True))


def pk_of(name):
    return Player.objects.get(name=name).pk


def at_the_table(round_):
    """A phone without any account that scanned the QR code of `round_`."""
    client = Client()
    response = client.get(table_url(round_))
    assert response.status_code == 302
    assert response["Location"] == live_url(round_)
    return client


def with_account(name):
    player = Player.objects.get(name=name)
    if player.user is None:
        player.user = get_user_model().objects.create_user(username=name.lower(), password="secret-pass-1")
        player.save()
    client = Client()
    client.force_login(player.user)
    return client


def sign_by_code(client, round_, name, code, verdict="confirmed", **extra):
    data = {"player": pk_of(name), "code": code, "verdict": verdict, "version": round_.version, **extra}
    return client.post(code_url(round_), data, follow=True)


# --- the link ------------------------------------------------------------------------------------


def test_the_table_link_opens_the_live_view_without_an_account(example):
    client = at_the_table(example)
    response = client.get(live_url(example))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="scoreboard"' in html
    assert "Donne 5 : <strong>David</strong> donne." in html
    assert "no-store" in response["Cache-Control"]  # a bearer's page: kept by no cache
    assert reverse("championship:round_edit", args=[example.pk]) not in html  # read-only


def test_a_wrong_token_is_not_found(example, client):
    assert client.get(table_url(example, "A" * 16)).status_code == 404
    assert client.get(table_url(example, table_token(example)[:-2])).status_code == 404
    assert client.get(live_url(example)).status_code == 302  # no grant: the login page


def test_another_rounds_token_opens_nothing(example, season, client):
    other = make_round(season, date=datetime.date(2010, 11, 26))
    wrong = reverse("championship:round_table", args=[example.pk, table_token(other)])
    assert client.get(wrong).status_code == 404
    client = at_the_table(other)
    response = client.get(live_url(example))  # the grant is for the other round only
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert client.get(poll_url(example), {"v": live_stamp(example.pk)}).status_code == 302


def test_an_anonymous_poll_works_with_the_sessions_grant(example, secretary, django_assert_max_num_queries):
    client = at_the_table(example)
    stamp = live_stamp(example.pk)
    with django_assert_max_num_queries(2):  # the session, the stamp
        unchanged = client.get(poll_url(example), {"v": stamp}, headers={"hx-request": "true"})
    assert unchanged.status_code == 204
    services.add_deal(example, fifth_deal(), number=5, user=secretary.user)
    response = client.get(poll_url(example), {"v": stamp}, headers={"hx-request": "true"})
    assert response.status_code == 200
    assert "<strong>5.</strong>" in response.content.decode()


def test_the_link_dies_at_homologation_the_page_and_the_poll(example):
    client, polling = at_the_table(example), at_the_table(example)
    services.homologate_round(example)
    published = reverse("championship:round", args=[example.pk])

    poll = polling.get(poll_url(example), headers={"hx-request": "true"})
    assert poll.status_code == 204 and poll["HX-Redirect"] == published
    assert "Donne" not in poll.content.decode()
    assert polling.get(poll_url(example), headers={"hx-request": "true"})["HX-Redirect"].startswith(
        reverse("login")
    )
    page = client.get(live_url(example))
    assert page.status_code == 302 and page["Location"] == published
    # the grant is gone: the live view is the members' now
    assert client.get(live_url(example))["Location"].startswith(reverse("login"))

    answer = client.get(table_url(example))
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Cette manche est homologuée" in html
    assert f'href="{published}"' in html
    assert client.get(live_url(example))["Location"].startswith(reverse("login"))
    assert client.get(published).status_code == 200  # what the link points to, anyone reads


def test_a_logged_in_member_not_seated_follows_by_the_link_and_sees_no_sign_form(example, member):
    client = Client()
    client.force_login(member.user)
    assert client.get(live_url(example)).status_code == 403
    client.get(table_url(example))
    html = client.get(live_url(example)).content.decode()
    assert 'class="scoreboard"' in html
    assert "Je confirme la feuille" not in html
    assert "Signer pour moi" not in html
    response = sign_by_code(client, example, "Alice", codes(example)[pk_of("Alice")])
    assert response.status_code == 403
    assert not Signoff.objects.exists()


def test_the_qr_code_of_the_entry_page_encodes_the_table_link(as_user, example):
    html = as_user("secretary").get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    block = html[html.index('id="direct"') :]
    block = block[: block.index("</details>")]
    url = f"http://testserver{table_url(example)}"
    title = f"QR code de la page en direct : {url}"
    drawn = segno.make(url, error="m").svg_inline(scale=6, border=3, svgclass="qr", title=title)
    assert drawn in block
    assert f'href="{table_url(example)}"' in block
    assert f">{url}</a>" in block


# --- signing ---------------------------------------------------------------------------------------


def test_a_seated_member_with_his_account_sees_the_sign_off_form_from_the_link(example):
    client = with_account("Alice")
    client.get(table_url(example))
    html = client.get(live_url(example)).content.decode()
    assert "Je confirme la feuille" in html
    assert "Signer pour moi" not in html
    client.post(
        reverse("championship:round_signoff", args=[example.pk]),
        {"verdict": "confirmed", "version": example.version},
    )
    assert Signoff.objects.get().player.name == "Alice"


def test_a_visitor_at_the_table_signs_for_himself_with_his_code(example):
    client = at_the_table(example)
    html = client.get(live_url(example)).content.decode()
    assert "Signer pour moi" in html
    for code in codes(example).values():
        assert code not in html  # the codes are on the secretary's screen only
    response = sign_by_code(client, example, "Alice", codes(example)[pk_of("Alice")])
    assert "Feuille confirmée." in response.content.decode()
    signoff = Signoff.objects.get()
    assert (signoff.player.name, signoff.verdict) == ("Alice", "confirmed")
    assert signoff.history.get().history_change_reason.endswith("par son code de table")
    # Alice is no longer offered: her word is given
    html = client.get(live_url(example)).content.decode()
    form = html[html.index('id="signer-pour-moi"') :]
    assert f'value="{pk_of("Alice")}"' not in form
    assert f'value="{pk_of("Bruno")}"' in form


def test_a_wrong_code_is_refused_naming_the_field(example):
    client = at_the_table(example)
    response = sign_by_code(
        client, example, "Alice", "000000" if codes(example)[pk_of("Alice")] != "000000" else "111111"
    )
    assert "Code : " in response.content.decode()
    assert not Signoff.objects.exists()


def test_another_players_code_does_not_sign_for_him(example):
    client = at_the_table(example)
    response = sign_by_code(client, example, "Alice", codes(example)[pk_of("Bruno")])
    assert "Code : " in response.content.decode()
    assert not Signoff.objects.exists()


def test_guesses_are_throttled_per_round_and_player(example):
    client = at_the_table(example)
    alice = codes(example)[pk_of("Alice")]
    wrong = "000000" if alice != "000000" else "111111"
    for _ in range(CODE_GUESSES):
        sign_by_code(client, example, "Alice", wrong)
    # from another phone too: the counter is the round's and the player's
    response = sign_by_code(at_the_table(example), example, "Alice", alice)
    assert "Code : trop d&#x27;essais pour ce joueur" in response.content.decode()
    assert not Signoff.objects.exists()
    # another player is not held back
    sign_by_code(client, example, "Bruno", codes(example)[pk_of("Bruno")])
    assert Signoff.objects.get().player.name == "Bruno"


def test_a_player_who_signed_is_refused_by_code(example):
    client = at_the_table(example)
    alice = codes(example)[pk_of("Alice")]
    sign_by_code(client, example, "Alice", alice)
    response = sign_by_code(client, example, "Alice", alice, verdict="disputed", comment="non")
    assert response.status_code == 200
    assert Signoff.objects.get().verdict == "confirmed"


def test_signing_by_code_needs_the_tables_grant(example, client):
    assert sign_by_code(client, example, "Alice", codes(example)[pk_of("Alice")]).status_code == 403
    assert not Signoff.objects.exists()


def test_no_code_signing_after_homologation(example):
    client = at_the_table(example)
    services.homologate_round(example)
    assert sign_by_code(client, example, "Alice", codes(example)[pk_of("Alice")]).status_code == 403
    assert not Signoff.objects.exists()


def test_another_member_cannot_sign_for_him(example):
    """Bruno, logged in on his phone, signs as Bruno only: neither the sign-off form nor the code
    form signs for Alice."""
    bruno = with_account("Bruno")
    bruno.get(table_url(example))
    sign = reverse("championship:round_signoff", args=[example.pk])
    bruno.post(sign, {"verdict": "confirmed", "version": example.version, "player": pk_of("Alice")})
    assert list(Signoff.objects.values_list("player__name", flat=True)) == ["Bruno"]
    response = sign_by_code(bruno, example, "Alice", codes(example)[pk_of("Alice")])
    assert response.status_code == 403
    assert list(Signoff.objects.values_list("player__name", flat=True)) == ["Bruno"]


# --- the secretary's codes ---------------------------------------------------------------------


@pytest.mark.parametrize("page", ["round_edit", "round_live"])
def test_the_secretary_sees_each_players_code_behind_his_name(as_user, example, page):
    html = as_user("secretary").get(reverse(f"championship:{page}", args=[example.pk])).content.decode()
    section = html[html.index('id="codes"') :]
    section = section[: section.index("</section>")]
    assert "Codes de signature" in section
    for seat in example.seats.select_related("player"):
        code = codes(example)[seat.player_id]
        shown = f"{code[:3]} {code[3:]}"
        match = re.search(
            rf"<details[^>]*>\s*<summary[^>]*>{seat.player.name}</summary>\s*"
            rf"<p class=\"signing-code\"[^>]*>{shown}</p>",
            section,
        )
        assert match, seat.player.name


def test_the_players_see_no_codes(example):
    html = with_account("Alice").get(live_url(example)).content.decode()
    assert 'id="codes"' not in html
    for code in codes(example).values():
        assert code not in html
