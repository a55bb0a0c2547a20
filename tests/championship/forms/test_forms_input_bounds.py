"""The entry forms refuse what the sheet import refuses, with the same French messages, never a 500:
a date outside the season, numbers beyond their bounds, control and bidi characters, formula names.
"""

import pytest
from django.urls import reverse

from championship.forms import AdjustmentForm, DealForm, RoundCreateForm, SeatTotalsForm
from championship.models import Adjustment, Deal, Round
from championship.services import homologate_round
from tests.factories import make_round, player, round_totals, store_round_form

NAMES = ["Alice", "Bruno", "Chloé", "David", "Émile"]
COLOURS = ["blanc", "jaune", "rouge", "bleu", "vert"]
TOTALS = {"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}


def rows(totals=None, **extra):
    data = {"date": "2010-11-19", "place": "Chez Steph", "stage": "regular", "number": ""}
    for row, name in enumerate(NAMES, start=1):
        data[f"player_{row}"] = player(name).pk
        data[f"colour_{row}"] = COLOURS[row - 1]
        if totals is not None:
            data[f"total_{row}"] = totals[row - 1]
    data.update(extra)
    return data


def refused(season, data):
    form = RoundCreateForm(season, data)
    assert not form.is_valid()
    assert not Round.objects.exists()
    return form.errors


# --- a new round ---------------------------------------------------------------------------------


@pytest.mark.parametrize("day", ["2020-11-19", "2000-11-19", "2010-08-31", "2011-07-01"])
def test_it_refuses_a_round_date_outside_its_season(season, day):
    errors = refused(season, rows(date=day))
    year, month, date = day.split("-")
    assert errors["date"] == [
        f"Date : le {date}/{month}/{year} n'est pas dans la saison 2010-2011 (du 01/09/2010 au 30/06/2011)."
    ]


@pytest.mark.parametrize("day", ["2010-09-01", "2011-06-30"])
def test_it_accepts_the_first_and_last_days_of_the_season(season, day):
    form = RoundCreateForm(season, rows(date=day))
    assert form.is_valid(), form.errors


@pytest.mark.parametrize(("number", "message"), [("1000000", "1000000"), ("1000", "1000"), ("0", "0")])
def test_it_refuses_a_round_number_out_of_bounds(season, number, message):
    assert refused(season, rows(number=number))["number"] == [f"Numéro : {message} n'est pas entre 1 et 999."]


def test_it_accepts_the_largest_round_number(season):
    form = RoundCreateForm(season, rows(number="999"))
    assert form.is_valid(), form.errors
    assert store_round_form(form).number == 999


@pytest.mark.parametrize("total", [10**30, 3 * 10**9, 1_000_001])
def test_it_refuses_a_total_out_of_bounds(season, total):
    errors = refused(season, rows(totals=[total, -total, 0, 0, 0], totals_only="on"))
    assert errors["total_1"] == [f"Total 1 : {total} n'est pas entre -1000000 et 1000000."]
    assert errors["total_2"] == [f"Total 2 : {-total} n'est pas entre -1000000 et 1000000."]


def test_it_accepts_totals_at_the_bound(season):
    form = RoundCreateForm(season, rows(totals=[1_000_000, -1_000_000, 0, 0, 0], totals_only="on"))
    assert form.is_valid(), form.errors


@pytest.mark.parametrize(
    ("place", "message"),
    [
        ("Chez\x00Steph", "caractère de contrôle U+0000 interdit"),
        ("Chez\x07Steph", "caractère de contrôle U+0007 interdit"),
        ("Chez\nSteph", "caractère de contrôle U+000A interdit"),
        ("Chez\x85Steph", "caractère de contrôle U+0085 interdit"),
        ("Chez \u202eStephanie", "caractère de direction du texte U+202E interdit"),
        ("Chez \u2066Steph", "caractère de direction du texte U+2066 interdit"),
        ("Chez \u200fSteph", "caractère de direction du texte U+200F interdit"),
        ('=HYPERLINK("http://x","Steph")', "ne doit pas commencer par « = » (formule de tableur)"),
        ("+33 rue", "ne doit pas commencer par « + » (formule de tableur)"),
        ("-Steph", "ne doit pas commencer par « - » (formule de tableur)"),
        ("@Steph", "ne doit pas commencer par « @ » (formule de tableur)"),
        ("Chez\tSteph", "caractère de contrôle U+0009 interdit"),
    ],
)
def test_it_refuses_a_place_with_control_bidi_or_formula_characters(season, place, message):
    assert refused(season, rows(place=place))["place"] == [f"Lieu : {message}."]


def test_it_accepts_an_ordinary_place_with_accents_and_inner_signs(season):
    form = RoundCreateForm(season, rows(place="Chez Stéph — 12 rue de l'Église, 2e étage = 3+1 @ bière"))
    assert form.is_valid(), form.errors


# --- the entry page through the client: French errors, never a 500 --------------------------------


def test_the_creation_page_shows_the_errors_instead_of_a_500(client, season, secretary):
    client.force_login(secretary.user)
    url = reverse("championship:round_create", args=[season.name])
    data = rows(number="1000000", date="2020-11-19", place="Chez\x00Steph", totals_only="on")
    data.update({f"total_{row}": total for row, total in enumerate([3 * 10**9, -(3 * 10**9), 0, 0, 0], 1)})
    response = client.post(url, data)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Numéro : 1000000 n&#x27;est pas entre 1 et 999." in page
    assert "Date : le 19/11/2020 n&#x27;est pas dans la saison 2010-2011" in page
    assert "Total 1 : 3000000000 n&#x27;est pas entre -1000000 et 1000000." in page
    assert "Lieu :" in page
    assert not Round.objects.exists()


# --- totals of a totals-only round -----------------------------------------------------------------


@pytest.fixture
def totals_round(season, president, secretary):
    return make_round(season, totals=TOTALS)


def totals_data(totals, **extra):
    data = {f"total_{position}": total for position, total in enumerate(totals)}
    data.update(extra)
    return data


@pytest.mark.parametrize("total", [10**30, 3 * 10**9])
def test_it_refuses_corrected_totals_out_of_bounds(totals_round, total):
    form = SeatTotalsForm(totals_round, totals_data([total, -total, 0, 0, 0]))
    assert not form.is_valid()
    assert form.errors["total_0"] == [f"Total d'Alice : {total} n'est pas entre -1000000 et 1000000."]
    assert round_totals(totals_round) == TOTALS


def test_the_totals_page_refuses_a_huge_total_without_a_500(client, totals_round, secretary):
    client.force_login(secretary.user)
    data = {f"totals-total_{position}": total for position, total in enumerate([10**30, -(10**30), 0, 0, 0])}
    response = client.post(reverse("championship:seat_totals", args=[totals_round.pk]), data)
    assert response.status_code == 200
    assert "n&#x27;est pas entre -1000000 et 1000000" in response.content.decode()
    assert round_totals(totals_round) == TOTALS


# --- bonuses and maluses ---------------------------------------------------------------------------


@pytest.mark.parametrize("points", [10**20, 3 * 10**9, 101, -101])
def test_it_refuses_board_points_out_of_bounds(season, points):
    round_ = make_round(season)
    form = AdjustmentForm(
        round_, {"player": player("Alice").pk, "code": "hote", "points": str(points)}, board=True
    )
    assert not form.is_valid()
    assert form.errors["points"] == [f"Points : {points} n'est pas entre -100 et 100."]


@pytest.mark.parametrize("points", [100, -100])
def test_it_accepts_board_points_at_the_bound(season, points):
    round_ = make_round(season)
    form = AdjustmentForm(
        round_, {"player": player("Alice").pk, "code": "hote", "points": str(points)}, board=True
    )
    assert form.is_valid(), form.errors


@pytest.mark.parametrize(
    ("note", "message"),
    [
        ("arrivé\x00tard", "caractère de contrôle U+0000 interdit"),
        ("arrivé\x1btard", "caractère de contrôle U+001B interdit"),
        ("arrivé \u202etard", "caractère de direction du texte U+202E interdit"),
    ],
)
def test_it_refuses_control_characters_in_a_bonus_note(season, note, message):
    round_ = make_round(season)
    form = AdjustmentForm(round_, {"player": player("Alice").pk, "code": "hote", "note": note})
    assert not form.is_valid()
    assert form.errors["note"] == [f"Raison : {message}."]


def test_a_note_may_start_with_a_minus_sign(season):
    round_ = make_round(season)
    form = AdjustmentForm(round_, {"player": player("Alice").pk, "code": "hote", "note": "-1 pour le retard"})
    assert form.is_valid(), form.errors


def test_the_bonus_page_refuses_huge_points_without_a_500(client, season, president):
    round_ = make_round(season)
    client.force_login(president.user)
    data = {"adj-player": player("Alice").pk, "adj-code": "hote", "adj-points": str(10**20)}
    response = client.post(reverse("championship:adjustment_add", args=[round_.pk]), data)
    assert response.status_code == 200
    assert f"Points : {10**20} n&#x27;est pas entre -100 et 100." in response.content.decode()
    assert not Adjustment.objects.exists()


def test_it_refuses_control_characters_in_a_motif(season, president):
    round_ = make_round(season)
    homologate_round(round_, president.user)
    form = AdjustmentForm(
        round_, {"player": player("Alice").pk, "code": "hote", "motif": "feuille\x01relue"}, board=True
    )
    assert not form.is_valid()
    assert form.errors["motif"] == ["Motif : caractère de contrôle U+0001 interdit."]


# --- deals -----------------------------------------------------------------------------------------


def test_it_refuses_a_deal_beyond_the_last_deal_number(season):
    round_ = make_round(season, deals=[])
    dealer = player("Alice")
    Deal.objects.bulk_create(
        Deal(round=round_, number=number, dealer=dealer, kind=Deal.PASSED) for number in range(1, 201)
    )
    form = DealForm(round_, {"kind": "passed", "dealer": dealer.pk})
    assert form.number == 201
    assert not form.is_valid()
    assert form.non_field_errors() == ["Donne 201 : une manche compte au plus 200 donnes."]
    assert round_.deals.count() == 200
