"""« Moi » (issue 31, « Nothing on the site is about me »): for an identified member the home
page starts with him — his place and its gaps, his next night with a one-tap answer, the sheets
waiting for his signature, the report he owes, links to his pages — each item only when it
exists. A visitor and an account without a player see the home page as before."""

import datetime
import html as html_lib
import re
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from championship import services
from championship.models import Round
from championship.standings.season import season_standings
from championship.views.me import Line, Neighbour, place_of, qualifying_line
from federation.models import Season
from gamenights import services as night_services
from gamenights.models import Rsvp
from scoring.french import num
from tests.championship.cup.cup_helpers import ranked_season
from tests.conftest import make_player
from tests.factories import make_round

MOI = re.compile(r'<section class="card moi".*?</section>', re.S)


def moi_of(client, player=None):
    """The « Moi » block of the home page read by `player` (as plain text, spaces folded), or
    None when the page has none."""
    if player is not None:
        client.force_login(player.user)
    response = client.get(reverse("federation:home"))
    assert response.status_code == 200
    found = MOI.search(response.content.decode())
    return None if found is None else text_of(found.group(0))


def text_of(markup):
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", markup))
    return re.sub(r"\s+", " ", text.replace("\u202f", " ").replace("\xa0", " ")).strip()


def points(value):
    return text_of(num(value))


# --- his place and its gaps ------------------------------------------------------------------------


@pytest.fixture
def twelve(season):
    """Twelve players S01…S12 ranked in that order (apart by 100 points and more), three of
    them members with an account."""
    members = {name: make_player(name) for name in ("S01", "S03", "S10", "S11", "S12")}
    ranked_season(season, 12)
    return members


@pytest.mark.parametrize("name", ["S01", "S03", "S10", "S11", "S12"])
def test_it_gives_his_place_and_the_gaps_the_ranking_shows(client, season, twelve, name):
    """Checked against the standings themselves: his row, the row above, the 10th (the last
    place of the play-offs, regles.md §6.2) or, when he holds it, the 11th."""
    ranked = season_standings(season).ranked
    assert len(ranked) == 12 and season.rulebook.cup.playoff_players == 10
    index = next(i for i, row in enumerate(ranked) if row.player.name == name)
    me = ranked[index]
    text = moi_of(client, twelve[name])
    assert f"{me.rank}{'er' if me.rank == 1 else 'e'} du classement, {points(me.points)} points" in text
    if index == 0:
        assert "En tête du classement." in text
    else:
        above = ranked[index - 1]
        assert (
            f"{points(above.points - me.points)} points de retard sur {above.player.name}, "
            "classé juste devant vous" in text
        )
    line = "la dernière qualificative pour les play-offs"
    if index < 9:
        tenth = ranked[9]
        assert (
            f"{points(me.points - tenth.points)} points d'avance sur la 10e place, "
            f"{line} ({tenth.player.name})" in text
        )
    elif index == 9:
        eleventh = ranked[10]
        assert f"Vous tenez la 10e place, {line}." in text
        assert (
            f"{points(me.points - eleventh.points)} points d'avance sur {eleventh.player.name}, "
            "premier non qualifié" in text
        )
    else:
        tenth = ranked[9]
        assert (
            f"{points(tenth.points - me.points)} points de retard sur la 10e place, "
            f"{line} ({tenth.player.name})" in text
        )


def test_with_fewer_ranked_than_the_play_offs_the_line_is_the_finals(client, season):
    """Six ranked: no play-offs (regles.md §6.2), the first five play the final."""
    member = make_player("S06")
    ranked_season(season, 6)
    ranked = season_standings(season).ranked
    fifth = ranked[4]
    text = moi_of(client, member)
    assert (
        f"{points(fifth.points - ranked[5].points)} points de retard sur la 5e place, "
        "la dernière qualificative pour la finale (pas de play-offs à moins de 10 classés) "
        f"({fifth.player.name})"
    ) in text


def test_a_member_below_the_minimum_of_rounds_is_told_how_far_he_is(client, season):
    member = make_player("Alice")
    make_round(season, status=Round.HOMOLOGATED)
    text = moi_of(client, member)
    assert "Pas encore classé : 1 manche jouée sur les 3 qui classent" in text
    assert "du classement," not in text


# --- a member with nothing, then with each item ----------------------------------------------------


@pytest.fixture
def open_season(db):
    today = timezone.localdate()
    start = today - datetime.timedelta(days=60)
    return Season.objects.create(
        name=f"{start.year}-{start.year + 1}", start_date=start, end_date=today + datetime.timedelta(days=200)
    )


def test_a_member_with_nothing_pending_is_told_so_truly(client, open_season):
    member = make_player("Alice")
    text = moi_of(client, member)
    assert "Vous n'avez pas encore de manche homologuée cette saison." in text
    assert (
        "Rien ne vous attend : aucune soirée à venir, aucune feuille à signer, aucun compte-rendu à rendre."
        in text
    )
    for item in ("Prochaine soirée", "signature", "Votre compte-rendu"):
        assert item not in text
    assert "Mes statistiques" in text and "Mes face-à-face" in text


def test_a_visitor_and_an_account_without_player_see_no_moi(client, open_season, django_user_model):
    make_player("Alice")
    assert moi_of(client) is None
    client.force_login(django_user_model.objects.create_user(username="gerant", password="secret-pass-1"))
    assert moi_of(client) is None


def in_days(days):
    return timezone.localdate() + datetime.timedelta(days=days)


@pytest.fixture
def night(open_season):
    return night_services.schedule_night(
        open_season, date=in_days(3), time=datetime.time(20, 30), place="Chez Steph"
    )


def test_his_next_night_with_his_answer(client, open_season, night):
    member = make_player("Alice")
    night_services.schedule_night(
        open_season, date=in_days(10), time=datetime.time(20, 30), place="Plus tard"
    )
    night_services.schedule_night(open_season, date=in_days(1), place="Annulée")
    night_services.cancel_night(open_season.nights.get(place="Annulée"), reason="pluie")
    text = moi_of(client, member)
    assert "Prochaine soirée" in text and "Chez Steph" in text
    assert "Plus tard" not in text and "Annulée" not in text
    assert "Vous n'avez pas encore répondu." in text
    assert "Rien ne vous attend" not in text
    night_services.answer(night, member, Rsvp.NO)
    assert "Votre réponse : « je ne viens pas »." in moi_of(client)


def test_one_tap_answers_the_night_and_comes_back_home(client, open_season, night):
    member = make_player("Alice")
    client.force_login(member.user)
    page = client.get(reverse("federation:home")).content.decode()
    form = re.search(r'<form method="post" action="([^"]+)" class="answer-buttons">(.*?)</form>', page, re.S)
    assert form and form.group(1) == reverse("gamenights:night_answer", args=[night.pk])
    assert 'name="answer" value="yes"' in form.group(2) and 'name="answer" value="no"' in form.group(2)
    next_url = re.search(r'name="next" value="([^"]+)"', form.group(2)).group(1)
    response = client.post(form.group(1), {"answer": "yes", "next": next_url})
    assert response.status_code == 302 and response["Location"] == reverse("federation:home")
    assert Rsvp.objects.get(night=night, player=member).answer == Rsvp.YES
    home = client.get(response["Location"]).content.decode()
    assert "Votre réponse : « je viens »." in text_of(home)
    assert 'value="yes" aria-pressed="true"' in home


def test_the_answer_goes_back_to_no_other_site(client, open_season, night):
    """`next` is the visitor's input: only an address of this site is followed."""
    member = make_player("Alice")
    client.force_login(member.user)
    url = reverse("gamenights:night_answer", args=[night.pk])
    for elsewhere in ("https://evil.example/", "//evil.example/", "javascript:alert(1)"):
        response = client.post(url, {"answer": "yes", "next": elsewhere})
        assert response.status_code == 302 and response["Location"] == night.get_absolute_url()


def test_an_inactive_member_is_shown_his_night_without_buttons(client, open_season, night):
    member = make_player("Alice")
    member.active = False
    member.save()
    text = moi_of(client, member)
    assert "Prochaine soirée" in text and "vous ne répondez pas aux soirées" in text
    assert "Je viens" not in text


def test_the_sheets_waiting_for_his_signature(client, open_season):
    alice = make_player("Alice")
    date = in_days(-7)
    unsigned = make_round(open_season, date=date, status=Round.SUBMITTED)
    signed = make_round(open_season, date=date, status=Round.SUBMITTED)
    services.sign_sheet(signed, alice.user, "confirmed", version=signed.version)
    changed = make_round(open_season, date=date, status=Round.DRAFT)
    services.sign_sheet(changed, alice.user, "confirmed", version=changed.version)
    services.delete_deal(changed.deals.order_by("-number").first())  # a change: his word is of before
    changed.refresh_from_db()
    assert changed.signoffs.get().version < changed.version
    homologated = make_round(open_season, date=date, status=Round.HOMOLOGATED)
    others = ["Bruno", "Chloé", "David", "Émile", "Zoé"]
    elsewhere = make_round(
        open_season, names=others, totals=dict(zip(others, [100, 50, 0, -50, -100], strict=True)), date=date
    )
    text = moi_of(client, alice)
    page = client.get(reverse("federation:home")).content.decode()
    assert "Feuilles qui attendent votre signature" in text
    for round_ in (unsigned, changed):
        assert reverse("championship:round_live", args=[round_.pk]) in page
    for round_ in (signed, homologated, elsewhere):
        assert reverse("championship:round_live", args=[round_.pk]) not in page


# --- what it costs ------------------------------------------------------------------------------


def home_queries(client):
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("federation:home")).status_code == 200
    return len(captured)


def test_moi_costs_two_queries_whatever_he_has_to_do(client, open_season, django_user_model):
    """The member's home page reads his block in two queries more than the page of an account
    without a player (his next night with his answer, his sheets to sign; his place comes with
    the cached ranking the leaders read), whatever the number of his rounds, nights and sheets."""
    alice = make_player("Alice")
    make_round(open_season, date=in_days(-20), status=Round.HOMOLOGATED)
    client.force_login(django_user_model.objects.create_user(username="gerant", password="secret-pass-1"))
    cache.clear()
    no_player = home_queries(client)
    client.force_login(alice.user)
    cache.clear()
    few = home_queries(client)
    for days in (-10, -9, -8):
        make_round(open_season, date=in_days(days), status=Round.HOMOLOGATED)
    for days in (-3, -2):
        make_round(open_season, date=in_days(days), status=Round.SUBMITTED)
    for days in (2, 4, 6):
        night_services.schedule_night(open_season, date=in_days(days))
    cache.clear()
    many = home_queries(client)
    assert many == few
    assert few - no_player == 2, (no_player, few)


def cup_rules(playoff_players=10, final_players=5, minimum_players=4):
    cup = SimpleNamespace(
        playoff_players=playoff_players, final_players=final_players, minimum_players=minimum_players
    )
    return SimpleNamespace(cup=cup)


def test_a_perfect_tie_has_no_place_above_it_and_the_next_one_is_behind_both():
    ranked = [Line(1, True, 1, "A", 30, 3), Line(1, True, 2, "B", 30, 3), Line(3, False, 3, "C", 21, 3)]
    tied = place_of(2, ranked, [], cup_rules())
    assert tied.above is None and tied.me.tied
    third = place_of(3, ranked, [], cup_rules())
    assert third.above == Neighbour(2, "B", 9)
    assert third.line is None  # three ranked: no Coupe yet (cup.minimum_players)
    assert place_of(9, ranked, [], cup_rules()) is None


def test_the_line_follows_the_coupes_seeding():
    assert qualifying_line(12, cup_rules().cup) == (10, True)
    assert qualifying_line(10, cup_rules().cup) == (10, True)
    assert qualifying_line(9, cup_rules().cup) == (5, False)
    assert qualifying_line(4, cup_rules().cup) == (4, False)
    assert qualifying_line(3, cup_rules().cup) == (None, False)
