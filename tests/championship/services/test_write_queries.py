"""The writes stay cheap in queries: entering a deal, importing a sheet, recomputing a season
after a rule change (whose cost must not grow with the number of rounds), and the bulk writes
still record history for every changed row, with its reason and author, and only for those."""

import copy
import datetime
import json
import uuid
from decimal import Decimal
from pathlib import Path

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship.models import ChampionshipLine, Deal, Round, Seat
from championship.rounds import data as rounds_module
from championship.services import homologate_round, update_season_rulebook
from championship.sheets import checks as checks_module
from championship.sheets import import_sheets, read_sheet
from championship.sheets.store import _deal_spec
from federation.models import Player, Season
from tests.factories import EXAMPLE_PLAYERS, fifth_deal_data, make_round

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sheets"
HTMX = {"HTTP_HX_REQUEST": "true"}
REASON = "Garde à 3, vote du 12 mars"
PRISES = [
    dict(
        dealer="Alice",
        taker="Bruno",
        contract="prise",
        called="coeur",
        partner="David",
        bouts=2,
        points=Decimal(45),
    ),
    dict(
        dealer="Bruno",
        taker="Chloé",
        contract="prise",
        called="pique",
        partner="Alice",
        bouts=1,
        points=Decimal(40),
    ),
]


def garde_at_three(season):
    text = season.rulebook_text.replace("garde = 2", "garde = 3")
    assert text != season.rulebook_text
    return text


def played_season(season, president, count):
    """`count` homologated rounds of the example (gardes, a pot), played on the season's dates."""
    for number in range(1, count + 1):
        round_ = make_round(season, number=number, date=season.start_date + datetime.timedelta(days=number))
        homologate_round(round_, president.user)


# --- entering a deal --------------------------------------------------------------------------------


def enter_fifth_deal(client, round_, assert_queries, most):
    url = reverse("championship:round_edit", args=[round_.pk])
    data = fifth_deal_data(key=str(uuid.uuid4()))  # as the page sends it, with its one-time key
    with assert_queries(most):
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200 and "Donne 5 enregistrée." in response.content.decode()
    assert round_.deals.count() == 5


def test_it_enters_a_deal_with_htmx_in_at_most_15_queries(as_user, example, django_assert_max_num_queries):
    """47 to 49 queries at first, 37 once the round was read once under the lock; 15 since the
    view reads the round once for the form, the write and the page."""
    enter_fifth_deal(as_user("secretary"), example, django_assert_max_num_queries, 15)


def test_it_enters_a_deal_in_at_most_15_queries_in_a_homologated_round_too(
    as_user, example, president, django_assert_max_num_queries
):
    """A correction of a homologated round (by the board, with a motif) also shows its
    championship lines: those the write has just computed, not read again."""
    homologate_round(example, president.user)
    url = reverse("championship:round_edit", args=[example.pk])
    data = fifth_deal_data(key=str(uuid.uuid4()))
    data["motif"] = "donne oubliée"
    client = as_user("president")
    with django_assert_max_num_queries(18):  # + its adjustments read, its lines replaced
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200 and "Donne 5 enregistrée." in response.content.decode()
    assert example.deals.count() == 5


def counted_scorings(monkeypatch):
    """The calls to the scoring engine of a stored round (every path scores through
    `rounds.data.score_stored_round`, which calls `score_round`)."""
    calls = []
    original = rounds_module.score_round
    monkeypatch.setattr(rounds_module, "score_round", lambda *a, **k: calls.append(a) or original(*a, **k))
    return calls


def test_a_deal_post_scores_its_round_once_with_htmx(as_user, example, monkeypatch):
    """The form's check scores the round with the new deal; the write uses that result (the
    same inputs) and the page the write's: once, where the form, the service and the page each
    scored it before (3 times; 18 queries before as after)."""
    client = as_user("secretary")
    calls = counted_scorings(monkeypatch)
    url = reverse("championship:round_edit", args=[example.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, fifth_deal_data(key=str(uuid.uuid4())), **HTMX)
    assert "Donne 5 enregistrée." in response.content.decode()
    assert len(calls) == 1
    assert len(queries) <= 18


def test_a_deal_post_scores_its_round_once_without_js(as_user, example, monkeypatch):
    """Without JS the answer is a redirect: the form scores, the write reuses it (twice before)."""
    client = as_user("secretary")
    calls = counted_scorings(monkeypatch)
    url = reverse("championship:round_edit", args=[example.pk])
    response = client.post(url, fifth_deal_data(key=str(uuid.uuid4())))
    assert response.status_code == 302 and example.deals.count() == 5
    assert len(calls) == 1


def test_the_write_scores_afresh_a_result_of_other_inputs(example, monkeypatch):
    """A result handed to `add_deal` for other inputs than its own is not used: scored again."""
    from championship.rounds.data import read_round_data, score_stored_round
    from championship.services import add_deal
    from tests.factories import fifth_deal

    data = read_round_data(example, adjustments=False)
    stale = score_stored_round(example, data.deals, seats=data.seats)  # without the new deal
    calls = counted_scorings(monkeypatch)
    deal = add_deal(example, fifth_deal(), data=data, scored=stale)
    assert deal.number == 5 and len(calls) == 1
    assert data.scored is not stale and len(data.scored.inputs) == 5


# --- importing a sheet ------------------------------------------------------------------------------


def twenty_deal_sheet():
    """The example sheet with its four deals played five times (20 deals), its expected totals
    those the engine gives."""
    sheet = json.loads((FIXTURES / "example.json").read_text("utf-8"))
    sheet["deals"] = [copy.deepcopy(deal) for _ in range(5) for deal in sheet["deals"]]
    del sheet["expected_totals"]
    checked = read_sheet("vingt.json", json.dumps(sheet, ensure_ascii=False))
    sheet["expected_totals"] = dict(checked.result.totals)
    return json.dumps(sheet, ensure_ascii=False)


def test_it_imports_a_20_deal_sheet_in_at_most_30_queries(season, django_assert_max_num_queries):
    for name in EXAMPLE_PLAYERS:
        Player.objects.create(name=name)
    text = twenty_deal_sheet()
    with django_assert_max_num_queries(30):
        [imported] = import_sheets([("vingt.json", text)], homologate=True)
    round_ = imported.round
    assert round_.deals.count() == 20 and round_.status == Round.HOMOLOGATED
    assert set(Deal.history.filter(round_id=round_.pk).values_list("history_change_reason", flat=True)) == {
        "importée depuis la feuille vingt.json"
    }
    assert ChampionshipLine.objects.filter(round=round_).exists()


def test_it_scores_an_imported_sheet_once(season, monkeypatch, django_assert_max_num_queries):
    """The check scores the sheet (to report every error); the round is stored with that result,
    its stored inputs being the very ones scored, and not scored again."""
    for name in EXAMPLE_PLAYERS:
        Player.objects.create(name=name)
    text = twenty_deal_sheet()
    calls = []

    def counted(original):
        def wrapper(*args, **kwargs):
            calls.append(args)
            return original(*args, **kwargs)

        return wrapper

    for module in (rounds_module, checks_module):
        monkeypatch.setattr(module, "score_round", counted(module.score_round))
    with django_assert_max_num_queries(30):
        [imported] = import_sheets([("vingt.json", text)], homologate=True)
    assert len(calls) == 1
    assert imported.round.deals.count() == 20
    assert (
        dict(imported.round.seats.values_list("player__name", "total")) == json.loads(text)["expected_totals"]
    )


def test_it_scores_the_round_afresh_when_the_inputs_are_not_those_scored(season, monkeypatch):
    """`create_round` does not take a result for other inputs than its own: scored afresh."""
    from championship.services import create_round
    from scoring.round import score_round

    players = [Player.objects.create(name=name) for name in EXAMPLE_PLAYERS]
    names = [player.name for player in players]
    sheet = json.loads((FIXTURES / "example.json").read_text("utf-8"))
    checked = read_sheet("exemple.json", json.dumps(sheet, ensure_ascii=False))
    other = checked.deals[:-1]  # a result for three deals, the round given four
    wrong = score_round(names, other, season.rulebook)
    calls = []
    original = rounds_module.score_round
    monkeypatch.setattr(rounds_module, "score_round", lambda *a, **k: calls.append(a) or original(*a, **k))
    specs = [_deal_spec(deal) for deal in checked.deals]
    round_ = create_round(
        season, players, specs, date=checked.date, scored=(names, other, season.rulebook, wrong)
    )
    assert len(calls) == 1
    assert dict(round_.seats.values_list("player__name", "total")) == dict(checked.result.totals)


# --- recomputing a season ---------------------------------------------------------------------------


def recompute_queries(season, president):
    season = Season.objects.get(pk=season.pk)
    with CaptureQueriesContext(connection) as captured:
        update_season_rulebook(season, garde_at_three(season), president.user, REASON)
    return len(captured)


def test_it_recomputes_a_season_in_queries_that_do_not_grow_with_its_rounds(season, president):
    played_season(season, president, 3)
    later = Season.objects.create(
        name="2011-2012", start_date=datetime.date(2011, 9, 1), end_date=datetime.date(2012, 6, 30)
    )
    played_season(later, president, 12)
    three, twelve = recompute_queries(season, president), recompute_queries(later, president)
    assert twelve <= three, (three, twelve)
    assert Deal.history.filter(round__season=later, history_change_reason=REASON).count() == 12


def test_it_records_history_for_every_changed_row_and_only_for_them(season, president):
    played_season(season, president, 2)
    quiet = make_round(season, number=3, deals=PRISES)  # no garde: nothing of it changes
    homologate_round(quiet, president.user)
    deal_fields = ("unit", "made", "shares", "pot_after")
    seat_fields = ("total", "rank", "tied")
    before = {
        Deal: {
            row["id"]: row for row in Deal.objects.filter(round__season=season).values("id", *deal_fields)
        },
        Seat: {
            row["id"]: row for row in Seat.objects.filter(round__season=season).values("id", *seat_fields)
        },
    }
    records = {model: model.history.count() for model in (Deal, Seat, Round)}
    update_season_rulebook(Season.objects.get(pk=season.pk), garde_at_three(season), president.user, REASON)
    for model, fields in ((Deal, deal_fields), (Seat, seat_fields)):
        after = {row["id"]: row for row in model.objects.filter(round__season=season).values("id", *fields)}
        changed = {pk for pk in after if after[pk] != before[model][pk]}
        assert changed and changed != set(after), model  # some rows move, others do not
        new = list(model.history.order_by("history_id"))[records[model] :]
        assert sorted(record.id for record in new) == sorted(changed), model
        for record in new:
            assert (record.history_type, record.history_change_reason, record.history_user) == (
                "~",
                REASON,
                president.user,
            )
            assert {name: getattr(record, name) for name in fields} == {
                name: after[record.id][name] for name in fields
            }
    # Every round of the season gets a record of the recomputation, moved or not.
    rounds = list(Round.history.order_by("history_id"))[records[Round] :]
    assert sorted(record.id for record in rounds) == sorted(season.rounds.values_list("pk", flat=True))
    assert {(r.history_change_reason, r.history_user) for r in rounds} == {(REASON, president.user)}
    assert Seat.objects.filter(round=quiet).values_list("total", flat=True).count() == 5


def test_it_still_replaces_the_championship_lines_after_a_rule_change(season, president):
    played_season(season, president, 2)
    text = season.rulebook_text
    assert "5 = [10, 7, 5, 3, 1]" in text
    before = set(
        ChampionshipLine.objects.filter(season=season).values_list("round", "player", "code", "points")
    )
    update_season_rulebook(
        Season.objects.get(pk=season.pk),
        text.replace("5 = [10, 7, 5, 3, 1]", "5 = [20, 7, 5, 3, 1]"),
        president.user,
        REASON,
    )
    after = set(
        ChampionshipLine.objects.filter(season=season).values_list("round", "player", "code", "points")
    )
    assert after != before and max(points for *_rest, points in after) >= 20


def test_it_recomputes_the_figures_a_round_scored_afresh_gives(season, president):
    played_season(season, president, 2)
    update_season_rulebook(Season.objects.get(pk=season.pk), garde_at_three(season), president.user, REASON)
    season = Season.objects.get(pk=season.pk)
    fresh = make_round(season, number=3)  # the same round, scored under the new rulebook

    def figures(round_):
        return (
            list(round_.deals.order_by("number").values_list("unit", "made", "shares", "pot_after")),
            list(round_.seats.order_by("position").values_list("total", "rank", "tied")),
        )

    for round_ in season.rounds.exclude(pk=fresh.pk):
        assert figures(round_) == figures(fresh)


def import_queries(client, sheet):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("vingt.json", sheet.encode(), content_type="application/json")
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("championship:round_import"), {"sheet": upload})
    assert response.status_code == 302, response.content.decode()[:500]
    return len(captured)


def test_it_imports_a_sheet_through_the_site_in_queries_that_do_not_grow_with_the_seasons(as_user, season):
    """The import page finds the seasons the user enters rounds in with one query, not one per
    season (27 queries with one season, 36 with ten, before)."""
    for name in EXAMPLE_PLAYERS:
        Player.objects.create(name=name)
    client = as_user("secretary")
    sheet = json.loads(twenty_deal_sheet())
    one = import_queries(client, json.dumps(sheet, ensure_ascii=False))
    for year in range(2011, 2020):
        Season.objects.create(
            name=f"{year}-{year + 1}",
            start_date=datetime.date(year, 9, 1),
            end_date=datetime.date(year + 1, 6, 30),
        )
    sheet["number"] += 1
    ten = import_queries(client, json.dumps(sheet, ensure_ascii=False))
    assert ten <= one <= 30, (one, ten)
