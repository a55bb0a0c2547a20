"""Creating a round: 4 or 5 players in seating order with their colours, or totals only."""

import datetime

import pytest

from championship.forms import AdjustmentForm, RoundCreateForm, SeatColoursForm
from championship.models import Round, Seat
from federation.models import Player
from tests.factories import make_round, player, store_colours_form, store_round_form

NAMES = ["Alice", "Bruno", "Chloé", "David", "Émile"]
COLOURS = ["blanc", "jaune", "rouge", "bleu", "vert"]


def rows(names=NAMES, colours=COLOURS, totals=None, **extra):
    data = {"date": "2010-11-19", "place": "Chez Steph", "stage": "regular", "number": ""}
    for row, name in enumerate(names, start=1):
        data[f"player_{row}"] = player(name).pk if name else ""
        data[f"colour_{row}"] = colours[row - 1] if row <= len(colours) else ""
        if totals is not None:
            data[f"total_{row}"] = totals[row - 1]
    data.update(extra)
    return data


def test_it_creates_a_round_with_its_seats_in_order(season):
    form = RoundCreateForm(season, rows())
    assert form.is_valid(), form.errors
    round_ = store_round_form(form)
    assert (round_.number, round_.stage, round_.table, round_.status) == (1, "regular", "", "draft")
    assert round_.date == datetime.date(2010, 11, 19)
    seats = list(round_.seats.order_by("position").values_list("player__name", "colour", "total"))
    assert seats == [(name, colour, 0) for name, colour in zip(NAMES, COLOURS, strict=True)]


def test_it_numbers_a_new_round_after_the_last_of_its_stage(season):
    make_round(season, number=7)
    assert RoundCreateForm(season).fields["number"].widget.attrs["placeholder"] == "8"
    form = RoundCreateForm(season, rows())
    assert form.is_valid(), form.errors
    assert store_round_form(form).number == 8
    form = RoundCreateForm(season, rows(stage="playoff:B"))
    assert form.is_valid(), form.errors
    playoff = store_round_form(form)
    assert (playoff.stage, playoff.table, playoff.number) == ("playoff", "B", 1)


def test_it_seats_four_players(season):
    form = RoundCreateForm(season, rows(NAMES[:4]))
    assert form.is_valid(), form.errors
    assert store_round_form(form).seats.count() == 4


def test_it_refuses_fewer_than_four_players(season):
    form = RoundCreateForm(season, rows(NAMES[:3]))
    assert not form.is_valid()
    assert form.errors["player_4"] == ["Joueurs : une manche se joue à 4 ou 5 joueurs (3 choisis)."]
    assert not Round.objects.exists()


def test_it_refuses_a_player_seated_twice(season):
    form = RoundCreateForm(season, rows(["Alice", "Bruno", "Chloé", "Alice", "Émile"]))
    assert not form.is_valid()
    assert form.errors["player_4"] == ["Joueur 4 : Alice occupe déjà la place 1."]


def test_it_refuses_a_colour_taken_twice(season):
    form = RoundCreateForm(season, rows(colours=["blanc", "jaune", "rouge", "jaune", "vert"]))
    assert not form.is_valid()
    assert form.errors["colour_4"] == ["Couleur 4 : les jetons jaunes sont déjà à la place 2."]


def test_it_allows_seats_without_colour(season):
    form = RoundCreateForm(season, rows(colours=["", "", "rouge", "", ""]))
    assert form.is_valid(), form.errors
    assert list(store_round_form(form).seats.values_list("colour", flat=True)) == ["", "", "rouge", "", ""]


def test_it_refuses_a_number_already_used(season):
    make_round(season, number=2)
    form = RoundCreateForm(season, rows(number="2"))
    assert not form.is_valid()
    assert form.errors["number"] == ["Numéro : la manche 2 existe déjà dans cette phase."]


def test_it_requires_a_valid_date(season):
    form = RoundCreateForm(season, rows(date="19/13/2010"))
    assert form.errors["date"] == ["Date : date invalide."]


def test_it_creates_a_totals_only_round_with_ranks(season):
    form = RoundCreateForm(season, rows(totals=[300, 50, -20, -100, -230], totals_only="on"))
    assert form.is_valid(), form.errors
    round_ = store_round_form(form)
    assert round_.totals_only
    seats = list(Seat.objects.filter(round=round_).values_list("player__name", "total", "rank"))
    assert seats == [
        ("Alice", 300, 1),
        ("Bruno", 50, 2),
        ("Chloé", -20, 3),
        ("David", -100, 4),
        ("Émile", -230, 5),
    ]


def test_it_refuses_totals_that_do_not_sum_to_zero(season):
    form = RoundCreateForm(season, rows(totals=[300, 50, -20, -100, -200], totals_only="on"))
    assert not form.is_valid()
    assert form.non_field_errors() == ["Totaux : ils doivent s'annuler, or leur somme fait 30 (et non 0)."]
    assert not Round.objects.exists()


def test_it_requires_every_total_of_a_totals_only_round(season):
    form = RoundCreateForm(season, rows(totals=[300, 50, -20, -330, ""], totals_only="on"))
    assert form.errors["total_5"] == ["Total 5 : le total d'Émile est obligatoire."]


def test_it_refuses_totals_on_a_round_with_deals(season):
    form = RoundCreateForm(season, rows(totals=[300, 50, -20, -330, 0]))
    assert form.errors["total_1"] == [
        "Total 1 : à remplir seulement pour une manche « totaux seuls » (cochez la case)."
    ]


def test_it_refuses_a_total_without_a_player(season):
    data = rows(NAMES[:4], totals=[10, -10, 0, 0], totals_only="on")
    data["total_5"] = "0"
    assert RoundCreateForm(season, data).errors["player_5"] == [
        "Joueur 5 : choisissez le joueur de ce total."
    ]


@pytest.mark.parametrize(("board", "codes"), [(False, 6), (True, 7)])
def test_it_offers_board_only_bonuses_to_the_board_only(season, board, codes):
    round_ = make_round(season)
    form = AdjustmentForm(round_, board=board)
    offered = [code for code, _label in form.fields["code"].widget.choices if code]
    assert len(offered) == codes
    assert ("ethique" in offered) is board
    assert ("points" in form.fields) is board


def test_it_refuses_a_board_only_malus_from_a_secretary(season):
    round_ = make_round(season)
    form = AdjustmentForm(round_, {"player": player("Alice").pk, "code": "ethique"})
    assert form.errors["code"] == ["Bonus ou malus : « Manquement à l'éthique » est réservé à la Direction."]


def test_it_refuses_a_code_outside_the_catalogue(season):
    round_ = make_round(season)
    form = AdjustmentForm(round_, {"player": player("Alice").pk, "code": "pourboire"}, board=True)
    assert form.errors["code"] == ["Bonus ou malus : « pourboire » n'est pas dans le catalogue de la saison."]


def test_it_refuses_custom_points_from_a_secretary(season):
    round_ = make_round(season)
    form = AdjustmentForm(round_, {"player": player("Alice").pk, "code": "retard", "points": "-5"})
    assert form.non_field_errors() == [
        "Points : seule la Direction peut fixer d'autres points que ceux du catalogue."
    ]


def test_it_refuses_a_player_who_is_not_seated(season):
    round_ = make_round(season)
    form = AdjustmentForm(round_, {"player": player("Zoé").pk, "code": "retard"})
    assert form.errors["player"] == ["Joueur : ce joueur n'est pas à cette table."]


def test_it_refuses_the_same_colour_for_two_seats(season):
    round_ = make_round(season)
    data = {f"colour_{position}": colour for position, colour in enumerate(COLOURS)}
    data["colour_1"] = "blanc"
    form = SeatColoursForm(round_, data)
    assert form.errors["colour_1"] == ["Couleur de Bruno : les jetons blancs sont déjà à Alice."]


def test_it_lets_two_players_swap_their_colours(season):
    round_ = make_round(season)
    data = {f"colour_{position}": colour for position, colour in enumerate(COLOURS)}
    data.update(colour_0="jaune", colour_1="blanc")
    form = SeatColoursForm(round_, data)
    assert form.is_valid(), form.errors
    store_colours_form(form)
    assert list(round_.seats.order_by("position").values_list("colour", flat=True))[:2] == ["jaune", "blanc"]


def test_it_lists_the_players_to_choose_in_french_alphabetical_order(season):
    """« Émile » before « Léa » and « Œdipe » after « Odile » (they sorted after « Z » before);
    the active players first."""
    for name in ("Léa", "Zoé", "Œdipe", "Odile", "Çécile", "Carole", *NAMES):
        player(name)
    Player.objects.create(name="Aaron", active=False)
    labels = [label for _value, label in RoundCreateForm(season).fields["player_1"].choices][1:]
    assert labels == [
        "Alice",
        "Bruno",
        "Carole",
        "Çécile",
        "Chloé",
        "David",
        "Émile",
        "Léa",
        "Odile",
        "Œdipe",
        "Zoé",
        "Aaron",
    ]


def test_it_lists_the_report_authors_in_french_alphabetical_order(season):
    from championship.forms import BoardReportForm

    round_ = make_round(
        season, ["Zoé", "Léa", "Émile", "Bruno"], totals={"Zoé": 30, "Léa": 20, "Émile": -10, "Bruno": -40}
    )
    labels = [label for _value, label in BoardReportForm(round_=round_).fields["author"].choices][1:]
    assert labels == ["Bruno", "Émile", "Léa", "Zoé"]
