"""The write services: each validates, writes with its history (author, reason), raises its codes."""

import datetime
import uuid
from decimal import Decimal

import pytest

from championship import services
from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat, SubmissionKey
from championship.rounds import data as round_data
from championship.services import RoundError
from federation.models import Player
from tests.factories import (
    EXAMPLE_DEALS,
    EXAMPLE_PLAYERS,
    EXAMPLE_TOTALS,
    fifth_deal,
    make_round,
    player,
    round_totals,
)

DATE = datetime.date(2010, 11, 19)


def code_of(call, *args, **kwargs):
    with pytest.raises(RoundError) as error:
        call(*args, **kwargs)
    return error.value.code


@pytest.fixture
def seated(db):
    return [player(name) for name in EXAMPLE_PLAYERS]


# --- create_round ----------------------------------------------------------------------------------


def test_create_round_records_the_creation_of_the_round_its_seats_and_deals(season, seated, president):
    round_ = services.create_round(
        season, seated, EXAMPLE_DEALS, number=1, date=DATE, user=president.user, reason="création"
    )
    assert round_totals(round_) == EXAMPLE_TOTALS
    for records in (
        round_.history.filter(history_type="+"),
        Seat.history.filter(round_id=round_.pk, history_type="+"),
        Deal.history.filter(round_id=round_.pk, history_type="+"),
    ):
        assert records.exists()
        assert {(r.history_user, r.history_change_reason) for r in records} == {(president.user, "création")}
    assert Seat.history.filter(round_id=round_.pk, history_type="+").count() == 5
    assert Deal.history.filter(round_id=round_.pk, history_type="+").count() == len(EXAMPLE_DEALS)


def test_create_round_takes_everything_a_sheet_holds(season, seated, president):
    colours = ["vert", "", "bleu", "jaune", "blanc"]
    round_ = services.create_round(
        season,
        seated,
        EXAMPLE_DEALS,
        colours=colours,
        date=DATE,
        place="Chez Steph",
        adjustments=[("Émile", "retard", None, "arrivé à 21h30"), (player("Fanny"), "absence", -2, "")],
        report={"author": "Alice", "text": "Belle soirée.", "filed_on": DATE},
        status=Round.HOMOLOGATED,
        status_reason="importée et homologuée",
        user=president.user,
        reason="import de manche-01.json",
    )
    assert round_.number == 1 and round_.status == Round.HOMOLOGATED
    assert round_.homologated_by == president.user
    assert list(round_.seats.order_by("position").values_list("colour", flat=True)) == colours
    assert sorted(round_.adjustments.values_list("code", "points")) == [("absence", -2), ("retard", -1)]
    assert Report.objects.get(round=round_).author.name == "Alice"
    assert ChampionshipLine.objects.filter(round=round_, code="retard").exists()
    latest = round_.history.order_by("-history_id").first()
    assert (latest.history_change_reason, latest.history_user) == ("importée et homologuée", president.user)


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"players": "three"}, "players"),
        ({"colours": ["vert", "vert", "", "", ""]}, "colours"),
        ({"colours": ["violet", "", "", "", ""]}, "colours"),
        ({"totals": {**EXAMPLE_TOTALS, "Alice": -600}}, "totals"),
        ({"totals": {**EXAMPLE_TOTALS, "Alice": 10**7, "Bruno": -(10**7) - 650 + 380}}, "totals"),
        ({"date": datetime.date(2012, 1, 1)}, "date"),
        ({"place": "=SOMME(A1)"}, "place"),
        ({"number": 1000}, "number"),
        ({"stage": Round.PLAYOFF}, "stage"),
        ({"deals": [{**EXAMPLE_DEALS[0], "taker": "Zoé"}]}, "deals"),
        ({"deals": EXAMPLE_DEALS[1:2] * 201}, "deals"),
        ({"adjustments": [("Alice", "inconnu", None, "")]}, "catalogue"),
        ({"adjustments": [("Alice", "hote", 101, "")]}, "points"),
        ({"report": {"author": "Alice", "text": "x" * 10_001}}, "text"),
        (
            {"deals": [{**EXAMPLE_DEALS[0], "bouts": 2, "points": Decimal(91), "chelem_made_by": "defence"}]},
            "invalid",
        ),
    ],
)
def test_create_round_refuses_with_a_code_and_stores_nothing(season, seated, changes, code):
    arguments = {"players": seated, "deals": EXAMPLE_DEALS, "date": DATE}
    arguments.update(changes)
    if arguments["players"] == "three":
        arguments["players"] = seated[:3]
    if "totals" in changes:
        arguments["deals"] = ()
    assert code_of(services.create_round, season, **arguments) == code
    assert not Round.objects.exists() and not Seat.objects.exists() and not Deal.objects.exists()


def test_create_round_refuses_a_number_taken(season, seated):
    services.create_round(season, seated, EXAMPLE_DEALS, number=3, date=DATE)
    assert code_of(services.create_round, season, seated, EXAMPLE_DEALS, number=3, date=DATE) == "number"
    assert services.create_round(season, seated, EXAMPLE_DEALS, date=DATE).number == 4


def test_create_round_stores_once_a_form_sent_twice(season, seated):
    key = uuid.uuid4()
    services.create_round(season, seated, EXAMPLE_DEALS, date=DATE, key=key)
    assert code_of(services.create_round, season, seated, EXAMPLE_DEALS, date=DATE, key=key) == "duplicate"
    assert Round.objects.count() == 1 and SubmissionKey.objects.get().key == key


# --- deals -----------------------------------------------------------------------------------------


def test_add_deal_stores_the_next_deal_raises_the_version_and_records_its_author(season, secretary):
    round_ = make_round(season)
    version = round_.version
    deal = services.add_deal(round_, fifth_deal(), number=5, user=secretary.user)
    assert deal.number == 5 and deal.unit and sum(deal.shares.values()) == 0
    assert Round.objects.get(pk=round_.pk).version == version + 1 == round_.version
    assert deal.history.get(history_type="+").history_user == secretary.user


def test_add_deal_codes(season, president):
    round_ = make_round(season)
    key = uuid.uuid4()
    services.add_deal(round_, fifth_deal(), number=5, key=key)
    assert code_of(services.add_deal, round_, fifth_deal(), number=6, key=key) == "duplicate"
    assert code_of(services.add_deal, round_, fifth_deal(), number=5) == "deal_number"
    wrong = {**fifth_deal(), "dealer": player("Alice"), "partner": player("Bruno")}
    assert code_of(services.add_deal, round_, wrong, number=6) == "invalid"
    assert round_.deals.count() == 5
    services.submit_round(round_)
    # submitted: no deal added until the round is back in draft (the page offers no form either)
    sixth = {**fifth_deal(), "dealer": player("Émile")}
    assert code_of(services.add_deal, round_, sixth, number=6) == "status"
    assert round_.deals.count() == 5
    services.homologate_round(round_, president.user)
    # Entered while the round was a draft, sent once it is homologated: refused without a motif.
    assert (
        code_of(services.add_deal, round_, {**fifth_deal(), "dealer": player("Émile")}, number=6) == "reason"
    )
    totals = make_round(season, totals=EXAMPLE_TOTALS)
    assert code_of(services.add_deal, totals, fifth_deal()) == "deals"


def test_change_deal_refuses_a_stale_form_and_names_the_other_change(season, secretary):
    round_ = make_round(season)
    deal = round_.deals.get(number=4)
    read_at = round_.version
    fields = {name: getattr(deal, name) for name in round_data.DEAL_FIELDS}
    services.change_deal(deal, {**fields, "points": Decimal(52)}, version=read_at, user=secretary.user)
    with pytest.raises(RoundError) as error:
        services.change_deal(deal, {**fields, "points": Decimal(60)}, version=read_at)
    assert error.value.code == "stale"
    assert "donne 4 modifiée par Secrétaire le" in error.value.message
    assert round_.deals.get(number=4).points == Decimal(52)


def test_delete_deal_renumbers_the_following_ones(season):
    round_ = make_round(season)
    services.delete_deal(round_.deals.get(number=2))
    assert list(round_.deals.values_list("number", "kind")) == [(1, "played"), (2, "misdeal"), (3, "played")]
    assert code_of(services.delete_deal, Deal(pk=10**6, round=round_, number=9)) == "missing"


# --- adjustments, seats ------------------------------------------------------------------------------


def test_adjustment_codes_and_history(season, secretary):
    round_ = make_round(season)
    key = uuid.uuid4()
    adjustment = services.add_adjustment(
        round_, player("Émile"), "retard", note="21h30", entered_by=secretary.user, key=key
    )
    assert adjustment.points == -1 and adjustment.history.get().history_user == secretary.user
    assert code_of(services.add_adjustment, round_, player("Émile"), "retard", key=key) == "duplicate"
    assert code_of(services.add_adjustment, round_, player("Émile"), "pourboire") == "catalogue"
    assert code_of(services.add_adjustment, round_, player("Émile"), "hote", -101) == "points"
    assert code_of(services.add_adjustment, round_, player("Émile"), "hote", note="a\x00") == "note"
    services.delete_adjustment(adjustment)
    assert code_of(services.delete_adjustment, adjustment) == "missing"
    assert not Adjustment.objects.exists()


def test_seat_totals_and_colours_codes(season):
    round_ = make_round(season, totals=EXAMPLE_TOTALS)
    ids = {seat.player.name: seat.player_id for seat in round_.seats.select_related("player")}
    totals = {ids[name]: total for name, total in EXAMPLE_TOTALS.items()}
    read_at = round_.version
    assert code_of(services.set_seat_totals, round_, {**totals, ids["Alice"]: 0}) == "totals"
    services.set_seat_totals(round_, {**totals, ids["Alice"]: -600, ids["Bruno"]: 330}, version=read_at)
    assert round_totals(round_)["Alice"] == -600
    assert code_of(services.set_seat_totals, round_, totals, version=read_at) == "stale"
    colours = {ids["Alice"]: "jaune", ids["Bruno"]: "blanc"}
    assert (
        code_of(services.set_seat_colours, round_, {ids["Alice"]: "bleu", ids["Bruno"]: "bleu"}) == "colours"
    )
    services.set_seat_colours(round_, colours)
    assert dict(round_.seats.values_list("player__name", "colour")) == {
        "Alice": "jaune",
        "Bruno": "blanc",
        "Chloé": "",
        "David": "",
        "Émile": "",
    }
    assert code_of(services.set_seat_colours, round_, colours, version=read_at) == "stale"
    assert code_of(services.set_seat_totals, make_round(season), totals) == "totals"


# --- lifecycle ---------------------------------------------------------------------------------------


def test_lifecycle_codes(season, president):
    round_ = make_round(season)
    assert code_of(services.reopen_round, round_) == "status"
    assert code_of(services.homologate_round, round_, president.user, version=round_.version - 1) == "stale"
    services.submit_round(round_)
    assert code_of(services.submit_round, round_) == "status"
    assert code_of(services.delete_draft_round, round_, president.user, "erreur") == "status"
    assert code_of(services.delete_draft_round, round_, president.user, "x" * 101) == "reason"
    services.homologate_round(round_, president.user)
    assert code_of(services.homologate_round, round_, president.user) == "status"
    empty = make_round(season, deals=[])
    assert code_of(services.submit_round, empty) == "deals"
    Round.objects.filter(pk=empty.pk).delete()
    assert code_of(services.submit_round, empty) == "missing"


# --- reports, rulebook -------------------------------------------------------------------------------


def test_save_report_refuses_a_stale_text_and_names_who_changed_it(season, president):
    round_ = make_round(season, status=Round.HOMOLOGATED)
    alice = Player.objects.get(name="Alice")
    report = services.save_report(round_, "Premier jet.", author=alice, version=0, user=president.user)
    assert report.version == 1
    assert code_of(services.save_report, round_, "Autre premier jet.", version=0) == "stale"
    services.save_report(round_, "Corrigé par la Direction.", version=1, user=president.user)
    with pytest.raises(RoundError) as error:
        services.save_report(round_, "Corrigé par l'auteur.", version=1)
    assert error.value.code == "stale" and "par Président le" in error.value.message
    assert Report.objects.get().text == "Corrigé par la Direction."
    assert code_of(services.save_report, make_round(season), "Sans auteur.") == "author"


def test_update_season_rulebook_requires_a_reason(season):
    make_round(season)
    assert code_of(services.update_season_rulebook, season, season.rulebook_text, None, " ") == "reason"
