"""The table's pages (championship.views.table): the live view, its cheap poll (204/304 while
nothing changed), the QR code on the entry page, the sign-off, and what the board sees of it."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from championship import services
from championship.models import Round, Signoff
from championship.rounds.display import round_display
from championship.rounds.live import live_stamp
from championship.rounds.table_link import table_token
from federation.models import Player
from scoring.french import num
from tests.factories import fifth_deal


def seated(client, name):
    """`client` logged in as `name`, a player of the example round (given an account)."""
    player = Player.objects.get(name=name)
    player.user = get_user_model().objects.create_user(username=name.lower(), password="secret-pass-1")
    player.save()
    client.force_login(player.user)
    return client


def live_url(round_):
    return reverse("championship:round_live", args=[round_.pk])


def poll_url(round_):
    return reverse("championship:round_live_poll", args=[round_.pk])


def sign_url(round_):
    return reverse("championship:round_signoff", args=[round_.pk])


def test_the_live_view_asks_to_log_in(client, example):
    response = client.get(live_url(example))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_poll_after_the_session_ended_sends_the_whole_page_to_the_login(client, example):
    response = client.get(poll_url(example), headers={"hx-request": "true"})
    assert response.status_code == 204  # nothing swapped into the live view
    assert response["HX-Redirect"] == f"{reverse('login')}?next={live_url(example)}"


def scoreboard(html):
    """(name, figure) of each card of a page's scoreboard, the pot's included."""
    board = html[html.index('class="scoreboard"') :]
    board = board[: board.index("</section>")]
    return re.findall(r'seat-name">([^<]+)</span>\s*<strong class="seat-total[^"]*">([^<]+)</strong>', board)


def test_the_live_view_shows_the_running_totals_of_the_entry_page_with_a_pot_in_play(
    client, example, secretary
):
    """One definition of a running total (docs/utiliser.md): the table's phones show the figures
    of the secretary's cards, not the totals with the pot paid back."""
    assert example.pot_left != 0  # otherwise the two definitions agree and nothing is checked
    client.force_login(secretary.user)
    entry_page = client.get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    entry_cards = scoreboard(entry_page)
    live_cards = scoreboard(seated(Client(), "Alice").get(live_url(example)).content.decode())
    assert live_cards == entry_cards
    totals = {seat.player.name: num(seat.total) for seat in example.seats.select_related("player")}
    assert any(totals[name] != figure for name, figure in live_cards if name in totals)


def test_a_seated_player_sees_the_totals_the_next_dealer_and_the_sign_off_form(client, example):
    html = seated(client, "Alice").get(live_url(example)).content.decode()
    cards = scoreboard(html)
    running = round_display(example).board  # a draft: the running totals, the pot still in play
    assert cards == [(seat.name, num(total)) for seat, total in running] + [("Pot", num(example.pot_left))]
    assert "Donne 5 : <strong>David</strong> donne." in html
    assert "Je confirme la feuille" in html
    assert f'hx-get="{poll_url(example)}?v={live_stamp(example.pk)}"' in html


def test_a_member_not_seated_does_not_read_a_drafts_live_view(as_user, example, member):
    """A draft is not published: its live view is the table's (the players seated at it), the
    secretary's and the board's; any member follows it once homologated."""
    client = as_user("member")
    for url in (live_url(example), poll_url(example)):
        response = client.get(url)
        assert response.status_code == 403
        assert "Donne 5" not in response.content.decode()
    assert "réservée aux joueurs assis à sa table" in client.get(live_url(example)).content.decode()
    stamp = live_stamp(example.pk)
    assert client.get(poll_url(example), {"v": stamp}).status_code == 403  # not even « unchanged »
    services.homologate_round(example)
    html = client.get(live_url(example)).content.decode()
    assert 'class="scoreboard"' in html and "Je confirme la feuille" not in html


@pytest.mark.parametrize("who", ["secretary", "president", "superuser"])
def test_the_secretary_and_the_board_read_a_drafts_live_view_but_do_not_sign(client, example, who):
    if who == "superuser":
        client.force_login(
            get_user_model().objects.create_superuser(username="root", password="secret-pass-1")
        )
    else:
        client.force_login(
            Player.objects.get(name={"secretary": "Secrétaire", "president": "Président"}[who]).user
        )
    html = client.get(live_url(example)).content.decode()
    assert "Donne 5 : <strong>David</strong> donne." in html
    assert "Je confirme la feuille" not in html
    assert client.get(poll_url(example), {"v": live_stamp(example.pk)}).status_code == 204


def test_the_live_view_reads_in_english(client, example):
    client = seated(client, "Alice")
    html = client.get(live_url(example), headers={"accept-language": "en"}).content.decode()
    assert "I confirm the sheet" in html
    assert "<strong>Alice</strong>: not signed yet" in html
    assert "Deal 5: <strong>David</strong> deals." in html


def test_a_poll_with_the_current_stamp_is_answered_204_empty(client, example, django_assert_max_num_queries):
    client = seated(client, "Alice")
    stamp = live_stamp(example.pk)
    with django_assert_max_num_queries(3):  # the session, the user, the stamp
        response = client.get(poll_url(example), {"v": stamp})
    assert response.status_code == 204
    assert response.content == b""
    assert response["ETag"] == f'"{stamp}"'


def test_a_poll_sending_the_etag_back_is_answered_304(client, example):
    client = seated(client, "Alice")
    first = client.get(poll_url(example))
    assert first.status_code == 200
    again = client.get(poll_url(example), headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304
    assert again.content == b""


def test_an_old_etag_after_a_save_gets_the_new_fragment(client, example, secretary):
    client = seated(client, "Alice")
    first = client.get(poll_url(example))
    services.add_deal(example, fifth_deal(), number=5, user=secretary.user)
    again = client.get(poll_url(example), headers={"if-none-match": first["ETag"]})
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert "<strong>5.</strong>" in again.content.decode()


def test_after_a_save_the_poll_answers_the_new_fragment_with_its_new_stamp(client, example, secretary):
    client = seated(client, "Alice")
    old = live_stamp(example.pk)
    services.add_deal(example, fifth_deal(), number=5, user=secretary.user)
    response = client.get(poll_url(example), {"v": old})
    assert response.status_code == 200
    html = response.content.decode()
    new = live_stamp(example.pk)
    assert new != old
    assert f"?v={new}" in html
    assert "<strong>5.</strong>" in html  # the new deal, first of the last deals
    example.refresh_from_db()
    # the sign-off form follows the version shown (swapped out of band)
    assert f'value="{example.version}" id="signoff-version" hx-swap-oob="true"' in html


def test_a_homologated_round_is_shown_without_polling(as_user, example, member):
    services.homologate_round(example)
    html = as_user("member").get(live_url(example)).content.decode()
    assert "hx-trigger" not in html


def test_the_entry_page_shows_the_qr_code_of_the_tables_link(as_user, example):
    """The QR code and the address under it are the table's link, which opens the live view
    without an account (tests/championship/views/test_table_link.py)."""
    html = as_user("secretary").get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    link = html[html.index('id="direct"') :]
    link = link[: link.index("</details>")]
    assert re.search(
        r'<svg width="\d+" height="\d+" class="qr"><title>QR code de la page en direct\u00a0: http', link
    )
    assert f'href="{reverse("championship:round_table", args=[example.pk, table_token(example)])}"' in link


def test_a_seated_player_confirms_the_sheet(client, example):
    client = seated(client, "Alice")
    response = client.post(
        sign_url(example), {"verdict": "confirmed", "version": example.version}, follow=True
    )
    assert "Feuille confirmée." in response.content.decode()
    signoff = Signoff.objects.get()
    assert (signoff.player.name, signoff.verdict, signoff.version) == ("Alice", "confirmed", example.version)


def test_a_dispute_without_comment_is_refused_naming_the_field(client, example):
    client = seated(client, "Bruno")
    data = {"verdict": "disputed", "comment": " ", "version": example.version}
    response = client.post(sign_url(example), data, follow=True)
    assert "Commentaire : obligatoire pour contester la feuille." in response.content.decode()
    assert not Signoff.objects.exists()


def test_a_sign_off_posted_without_its_version_is_refused(client, example):
    """Posted without the version the page showed (a form of an older page, a hand-made POST),
    a sign-off would confirm the round as it is now, a version the player never saw."""
    client = seated(client, "Alice")
    response = client.post(sign_url(example), {"verdict": "confirmed"}, follow=True)
    assert "Version : la version de la feuille que vous avez lue manque" in response.content.decode()
    assert not Signoff.objects.exists()


def test_a_sign_off_at_an_older_version_is_refused_and_says_what_changed(client, example, secretary):
    client = seated(client, "Alice")
    seen = example.version
    services.add_deal(example, fifth_deal(), number=5, user=secretary.user)
    response = client.post(sign_url(example), {"verdict": "confirmed", "version": seen}, follow=True)
    assert "donne 5" in response.content.decode().lower()
    assert not Signoff.objects.exists()


def test_only_seated_players_sign(as_user, example, member):
    response = as_user("member").post(sign_url(example), {"verdict": "confirmed"})
    assert response.status_code == 403
    assert not Signoff.objects.exists()


@pytest.fixture
def disputed(example):
    bruno = Player.objects.get(name="Bruno")
    bruno.user = get_user_model().objects.create_user(username="bruno", password="secret-pass-1")
    bruno.save()
    services.sign_sheet(
        example, bruno.user, Signoff.DISPUTED, version=example.version, comment="La donne 3 était chutée"
    )
    return example


def homologate_url(round_):
    return reverse("championship:round_homologate", args=[round_.pk])


def test_the_board_sees_the_dispute_on_the_homologation_page(as_user, disputed):
    html = as_user("president").get(homologate_url(disputed)).content.decode()
    block = html[html.index('id="signatures"') :]
    assert "1 joueur conteste la feuille." in block
    assert "La donne 3 était chutée" in block
    assert "Réponse à la contestation" in html


def test_homologating_a_disputed_round_asks_for_the_boards_answer(as_user, disputed):
    client = as_user("president")
    response = client.post(homologate_url(disputed), {"version": disputed.version})
    assert response.status_code == 200
    assert (
        "Motif : obligatoire pour homologuer une manche dont la feuille est contestée."
        in response.content.decode()
    )
    disputed.refresh_from_db()
    assert disputed.status == Round.DRAFT
    client.post(homologate_url(disputed), {"version": disputed.version, "motif": "Vérifiée avec Bruno"})
    disputed.refresh_from_db()
    assert disputed.status == Round.HOMOLOGATED
    assert disputed.history.first().history_change_reason == "Vérifiée avec Bruno"


def test_the_round_page_shows_the_sign_off_to_the_officials_only(as_user, disputed, member):
    """The secretary sees who confirmed and who disputes, the board the dispute's comment too."""
    url = reverse("championship:round", args=[disputed.pk])
    html = as_user("secretary").get(url).content.decode()
    assert 'id="signatures"' in html and "<strong>Bruno</strong> : contestée" in html
    assert "La donne 3 était chutée" not in html
    assert "La donne 3 était chutée" in as_user("president").get(url).content.decode()
    services.homologate_round(disputed, reason="vérifiée")
    assert 'id="signatures"' not in as_user("member").get(url).content.decode()
    assert 'id="signatures"' in as_user("president").get(url).content.decode()


def test_a_disputes_comment_is_read_by_the_board_and_its_author_only(client, disputed, president, secretary):
    """On the live view, the table sees that Bruno disputes the sheet; what he wrote, only he and
    the board read (docs/utiliser.md)."""
    comment = "La donne 3 était chutée"
    bruno = Player.objects.get(name="Bruno").user
    readers = {"Bruno": bruno, "Président": president.user}
    others = {"Alice": seated(Client(), "Alice"), "Secrétaire": secretary.user}
    for name, user in readers.items():
        client.force_login(user)
        html = client.get(live_url(disputed)).content.decode()
        assert comment in html, name
        assert comment in client.get(poll_url(disputed)).content.decode(), name
    for name, who in others.items():
        if isinstance(who, Client):
            other = who
        else:
            other = Client()
            other.force_login(who)
        html = other.get(live_url(disputed)).content.decode()
        assert "<strong>Bruno</strong> : contestée" in html, name
        assert comment not in html, name
        assert comment not in other.get(poll_url(disputed)).content.decode(), name


def test_the_entry_form_still_proposes_the_next_dealer_by_rotation(as_user, example):
    html = as_user("secretary").get(reverse("championship:round_edit", args=[example.pk])).content.decode()
    david = Player.objects.get(name="David").pk
    assert re.search(rf'name="dealer" value="{david}"[^>]*checked', html)
