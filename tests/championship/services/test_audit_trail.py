"""Who changed the published record, and why: a rulebook change needs a reason that reaches the
season's and every recomputed round's history; homologations from the command line and the demo
name their official, who is also the author of every history record they write."""

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat
from championship.services import (
    RoundError,
    homologate_round,
    rescore_season,
    store_championship_lines,
    update_season_rulebook,
)
from federation.models import Official, Player, Season
from tests.factories import EXAMPLE_PLAYERS, make_round

EXAMPLE = str(Path(__file__).resolve().parents[2] / "fixtures" / "sheets" / "example.json")
REASON = "Garde à 3 points, vote du 12 mars"


def garde_at_three(season):
    text = season.rulebook_text.replace("garde = 2", "garde = 3")
    assert text != season.rulebook_text
    return text


def state(season):
    """The season's rulebook and the size of every history, to see that nothing moved."""
    return (
        Season.objects.get(pk=season.pk).rulebook_text,
        [model.history.count() for model in (Season, Round, Seat, Deal)],
        list(Deal.objects.order_by("pk").values_list("unit", "shares")),
    )


@pytest.fixture
def played(season, president):
    """Two homologated rounds and a draft, all with a garde that a rulebook change rescores."""
    rounds = [make_round(season, number=number) for number in (1, 2, 3)]
    for round_ in rounds[:2]:
        homologate_round(round_, president.user)
    return rounds


def rulebook_url(season):
    return reverse("championship:season_rulebook", args=[season.name])


# --- the rulebook's reason -----------------------------------------------------------------------------


@pytest.mark.parametrize("reason", ["", "   "])
def test_it_refuses_a_rulebook_change_without_a_reason_on_the_page(client, season, president, played, reason):
    before = state(season)
    client.force_login(president.user)
    response = client.post(rulebook_url(season), {"rulebook_text": garde_at_three(season), "reason": reason})
    assert response.status_code == 200
    assert "Motif de la modification : obligatoire" in response.content.decode()
    assert state(season) == before


def test_it_shows_a_bad_rulebook_and_a_missing_reason_together(client, season, president):
    client.force_login(president.user)
    bad = season.rulebook_text.replace("5 = [10, 7, 5, 3, 1]", "5 = [10, 7, 5, 3]")
    html = client.post(rulebook_url(season), {"rulebook_text": bad, "reason": ""}).content.decode()
    assert "championship.rank_points.5 : doit donner 5 valeurs" in html
    assert "Motif de la modification : obligatoire" in html


def test_it_refuses_a_rulebook_change_without_a_reason_in_the_services(season, president, played):
    before = state(season)
    with pytest.raises(RoundError) as error:
        update_season_rulebook(season, garde_at_three(season), president.user, " ")
    assert error.value.code == "reason" and "motif" in error.value.message.lower()
    with pytest.raises(RoundError):
        rescore_season(Season.objects.get(pk=season.pk), "")
    assert state(season) == before


def test_it_writes_the_reason_in_the_season_and_every_recomputed_round(client, season, president, played):
    client.force_login(president.user)
    response = client.post(rulebook_url(season), {"rulebook_text": garde_at_three(season), "reason": REASON})
    assert response.status_code == 302
    latest = season.history.order_by("-history_id").first()
    assert (latest.history_change_reason, latest.history_user) == (REASON, president.user)
    assert "garde = 3" in latest.rulebook_text
    for round_ in played:
        record = round_.history.order_by("-history_id").first()
        assert (record.history_change_reason, record.history_user) == (REASON, president.user), round_
        deal = round_.deals.get(number=1).history.order_by("-history_id").first()
        assert (deal.history_change_reason, deal.history_user) == (REASON, president.user)
        seats = Seat.history.filter(round_id=round_.pk, history_change_reason=REASON)
        assert seats.exists() and set(seats.values_list("history_user", flat=True)) == {president.user.pk}


# --- import_round --homologate --by ----------------------------------------------------------------------


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name) for name in EXAMPLE_PLAYERS}


def history_of(round_):
    """Every history record written for a round, its seats, deals, adjustments and report."""
    records = list(round_.history.all())
    for model in (Seat, Deal, Adjustment, Report):
        records += list(model.history.filter(round_id=round_.pk))
    return records


def test_it_requires_the_homologating_official_on_the_command_line(season, players):
    with pytest.raises(CommandError, match="--homologate exige --by IDENTIFIANT"):
        call_command("import_round", EXAMPLE, "--homologate", stdout=io.StringIO())
    assert not Round.objects.exists()


def test_it_refuses_an_unknown_account_or_one_off_the_season_board(season, players, secretary):
    with pytest.raises(CommandError, match="--by : aucun compte « personne »"):
        call_command("import_round", EXAMPLE, "--homologate", "--by", "personne", stdout=io.StringIO())
    with pytest.raises(CommandError) as error:
        call_command(
            "import_round", EXAMPLE, "--homologate", "--by", secretary.user.username, stdout=io.StringIO()
        )
    assert "seule la Direction de la saison 2010-2011 peut homologuer une manche" in str(error.value)
    assert not Round.objects.exists()


def test_it_records_the_homologating_official_as_author(season, players, president):
    out = io.StringIO()
    call_command("import_round", EXAMPLE, "--homologate", "--by", president.user.username, stdout=out)
    round_ = Round.objects.get()
    assert round_.status == Round.HOMOLOGATED and round_.homologated_by == president.user
    records = history_of(round_)
    assert len(records) > 10 and {record.history_user for record in records} == {president.user}
    assert round_.history.order_by("-history_id").first().history_change_reason == "importée et homologuée"


def test_it_lets_a_superuser_homologate_into_a_new_season(db, players):
    root = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    call_command("import_round", EXAMPLE, "--homologate", "--by", "root", stdout=io.StringIO())
    round_ = Round.objects.get()
    assert round_.homologated_by == root
    assert round_.season.history.get().history_user == root


def test_it_records_who_imported_a_draft_when_named(season, players, secretary):
    call_command("import_round", EXAMPLE, "--by", secretary.user.username, stdout=io.StringIO())
    round_ = Round.objects.get()
    assert round_.status == Round.DRAFT and round_.homologated_by is None
    assert {record.history_user for record in history_of(round_)} == {secretary.user}


# --- the demo ----------------------------------------------------------------------------------------------


def test_it_records_the_demo_as_the_work_of_its_president(db):
    call_command("demo", stdout=io.StringIO())
    bruno = get_user_model().objects.get(username="bruno")
    homologated = Round.objects.filter(status=Round.HOMOLOGATED)
    assert homologated.count() > 20
    assert set(homologated.values_list("homologated_by", flat=True)) == {bruno.pk}
    for model in (Player, Season, Official, Round, Seat, Deal, Adjustment, Report):
        authors = set(model.history.values_list("history_user", flat=True))
        assert authors == {bruno.pk}, model.__name__


def test_it_refuses_a_reason_longer_than_the_history_keeps(client, season, president, played):
    before = state(season)
    client.force_login(president.user)
    response = client.post(
        rulebook_url(season), {"rulebook_text": garde_at_three(season), "reason": "x" * 101}
    )
    assert response.status_code == 200
    assert "Motif de la modification : 100 caractères au plus." in response.content.decode()
    assert state(season) == before


def test_it_refuses_a_deeply_nested_rulebook_on_the_page(client, season, president, played):
    before = state(season)
    client.force_login(president.user)
    nested = "a = " + "[" * 5000 + "]" * 5000
    response = client.post(rulebook_url(season), {"rulebook_text": nested, "reason": "essai"})
    assert response.status_code == 200
    assert "trop d&#x27;imbrication" in response.content.decode()
    assert state(season) == before


# --- what a season's recomputation writes ----------------------------------------------------------------


def tracked_values(record, model):
    return {field.attname: getattr(record, field.attname) for field in model.history.model.tracked_fields}


def test_its_history_records_copy_every_figure_of_the_recomputed_rows(season, president, played):
    update_season_rulebook(season, garde_at_three(season), president.user, REASON)
    recomputed = 0
    for model, rows in (
        (Deal, Deal.objects.filter(round__season=season)),
        (Seat, Seat.objects.filter(round__season=season)),
        (Round, Round.objects.filter(season=season)),
    ):
        for row in rows:
            latest = model.history.filter(id=row.pk).order_by("-history_id").first()
            if latest.history_change_reason != REASON:
                continue
            recomputed += 1
            assert latest.history_type == "~"
            assert tracked_values(latest, model) == tracked_values(row, model), row
    assert recomputed > len(played)


def test_it_rewrites_only_the_championship_lines_that_moved(season, president, played):
    def lines():
        fields = ("round_id", "player_id", "code", "points", "label", "deal_number", "order")
        rows = ChampionshipLine.objects.filter(season=season).values_list("pk", *fields)
        return {pk: figures for pk, *figures in rows}

    before = lines()
    # recomputed under the same rulebook: no line moves, none is rewritten (same primary keys)
    rescore_season(Season.objects.get(pk=season.pk), "relecture")
    assert lines() == before
    update_season_rulebook(season, garde_at_three(season), president.user, REASON)
    after = lines()
    fresh = {}
    for round_ in played[:2]:
        fresh[round_.pk] = sorted(
            (line.player_id, line.code, line.points, line.label, line.deal_number, line.order)
            for line in store_championship_lines(Round.objects.get(pk=round_.pk))
        )
    assert {
        round_id: sorted(tuple(figures[1:]) for figures in after.values() if figures[0] == round_id)
        for round_id in fresh
    } == fresh
