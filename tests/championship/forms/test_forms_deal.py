"""The deal form: each validation error lands on its field, in French, naming the deal and the field."""

from decimal import Decimal

import pytest

from championship.forms import DealForm, parse_points
from championship.models import Deal
from championship.services import RoundError
from tests.factories import make_round, player, store_deal_form

FOUR = ["Alice", "Bruno", "Chloé", "David"]


def ids(*names):
    return [player(name).pk for name in names]


def played(**changes):
    """A valid 5th deal of the example round (dealer David, expected by rotation)."""
    data = {
        "kind": "played",
        "dealer": player("David").pk,
        "taker": player("Bruno").pk,
        "contract": "garde",
        "called": "coeur",
        "partner": player("Émile").pk,
        "bouts": "2",
        "points": "49",
        "petit_au_bout": "",
        "chelem_made_by": "",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def errors_of(round_, data, deal=None):
    form = DealForm(round_, data, deal=deal)
    assert not form.is_valid()
    return form.errors


@pytest.fixture
def round_(season):
    return make_round(season)


@pytest.fixture
def four(season):
    return make_round(season, names=FOUR, deals=[])


def test_it_accepts_a_valid_deal_and_points_with_a_comma(round_):
    form = DealForm(round_, played(points="44,5", bouts="2"))
    assert form.is_valid(), form.errors
    deal = store_deal_form(form)
    assert deal.number == 5
    assert deal.points == Decimal("44.5")
    assert deal.shares and sum(deal.shares.values()) == 0


def test_it_proposes_the_next_dealer_by_rotation(round_, season):
    form = DealForm(round_)
    assert form["dealer"].value() == player("David").pk
    misdeal_last = make_round(
        season, deals=[{"dealer": "Alice", "kind": "passed"}, {"dealer": "Bruno", "kind": "misdeal"}]
    )
    assert DealForm(misdeal_last)["dealer"].value() == player("Bruno").pk
    assert DealForm(make_round(season, deals=[]))["dealer"].value() == player("Alice").pk


def test_it_refuses_a_dealer_who_is_not_seated(round_):
    errors = errors_of(round_, played(dealer=player("Zoé").pk))
    assert errors["dealer"] == ["Donne 5, donneur : Zoé n'est pas à cette table"]


def test_it_refuses_an_unknown_dealer_id(round_):
    errors = errors_of(round_, played(dealer="999999"))
    assert errors["dealer"] == ["Donne 5, donneur : joueur inconnu"]


def test_it_requires_the_dealer(round_):
    assert errors_of(round_, played(dealer=""))["dealer"] == ["Donne 5, donneur : le donneur est obligatoire"]


def test_it_requires_the_taker_of_a_played_deal(round_):
    errors = errors_of(round_, played(taker="", partner=""))
    assert errors["taker"] == ["Donne 5, preneur : le preneur est obligatoire pour une donne jouée"]


def test_it_refuses_a_taker_who_is_not_seated(round_):
    errors = errors_of(round_, played(taker=player("Zoé").pk))
    assert errors["taker"] == ["Donne 5, preneur : Zoé n'est pas à cette table"]


def test_it_requires_the_contract(round_):
    errors = errors_of(round_, played(contract=""))
    assert errors["contract"] == ["Donne 5, contrat : le contrat est obligatoire pour une donne jouée"]


def test_it_refuses_an_unknown_contract(round_):
    errors = errors_of(round_, played(contract="petite_garde"))
    assert errors["contract"][0].startswith("Donne 5, contrat : contrat inconnu « petite_garde »")


def test_it_refuses_an_unknown_called_suit(round_):
    errors = errors_of(round_, played(called="etoile"))
    assert errors["called"][0].startswith("Donne 5, roi appelé : couleur inconnu « etoile »")


def test_it_asks_for_the_partner_or_solo_at_five(round_):
    errors = errors_of(round_, played(partner=""))
    assert errors["partner"] == ["Donne 5, appelé : choisissez l'appelé, ou « seul » si le preneur joue seul"]


def test_it_accepts_a_taker_playing_alone(round_):
    form = DealForm(round_, played(partner="seul"))
    assert form.is_valid(), form.errors
    assert store_deal_form(form).partner is None


def test_it_refuses_the_taker_as_his_own_partner(round_):
    errors = errors_of(round_, played(partner=player("Bruno").pk))
    assert errors["partner"] == [
        "Donne 5, appelé : le preneur ne peut pas être son propre appelé : « seul » s'il joue seul"
    ]


def test_it_refuses_a_partner_at_four_players(four):
    data = played(dealer=player("Alice").pk, called="", partner=player("Chloé").pk)
    errors = errors_of(four, data)
    assert errors["partner"] == ["Donne 1, appelé : pas d'appelé à 4 joueurs"]


def test_it_refuses_a_called_king_at_four_players(four):
    data = played(dealer=player("Alice").pk, partner="", called="coeur")
    assert errors_of(four, data)["called"] == ["Donne 1, roi appelé : pas de roi appelé à 4 joueurs"]


def test_it_hides_partner_and_called_king_at_four_players(four):
    form = DealForm(four)
    assert form["partner"].is_hidden and form["called"].is_hidden
    assert not DealForm(four, played(dealer=player("Alice").pk, called="", partner="")).errors


@pytest.mark.parametrize("bouts", ["4", "-1"])
def test_it_refuses_bouts_out_of_range(round_, bouts):
    errors = errors_of(round_, played(bouts=bouts))
    assert errors["bouts"] == ["Donne 5, bouts : le nombre de bouts doit être un entier de 0 à 3"]


def test_it_refuses_bouts_that_are_not_a_number(round_):
    assert errors_of(round_, played(bouts="deux"))["bouts"] == [
        "Donne 5, bouts : un nombre entier de 0 à 3 est attendu"
    ]


def test_it_requires_the_points(round_):
    errors = errors_of(round_, played(points=""))
    assert errors["points"] == [
        "Donne 5, points : les points du preneur sont obligatoires (un nombre, demis permis)"
    ]


@pytest.mark.parametrize("points", ["92", "-1", "44,3"])
def test_it_refuses_points_out_of_range_or_not_a_half(round_, points):
    errors = errors_of(round_, played(points=points, bouts="1"))
    assert errors["points"] == ["Donne 5, points : les points doivent être un multiple de 0,5 entre 0 et 91"]


def test_it_refuses_points_inconsistent_with_the_bouts(round_):
    errors = errors_of(round_, played(points="90", bouts="0"))
    assert errors["points"] == ["Donne 5, points : avec 0 bout(s), le preneur a entre 0 et 77,5 points"]
    errors = errors_of(round_, played(points="10", bouts="3"))
    assert errors["points"] == ["Donne 5, points : avec 3 bout(s), le preneur a entre 13,5 et 91 points"]


def test_it_refuses_points_that_are_not_a_number(round_):
    errors = errors_of(round_, played(points="beaucoup"))
    assert errors["points"] == ["Donne 5, points : un nombre est attendu, par exemple 44,5"]


def test_it_refuses_a_poignee_size_that_does_not_exist(round_):
    chloe = 2  # seat position of Chloé
    errors = errors_of(round_, played(**{f"poignee_{chloe}": "quadruple"}))
    assert errors[f"poignee_{chloe}"] == [
        "Donne 5, poignées : taille de poignée inconnu « quadruple » (possibles : simple, double, triple)"
    ]


def test_it_records_poignees_per_player(round_):
    form = DealForm(round_, played(poignee_1="simple", poignee_3="double"))
    assert form.is_valid(), form.errors
    deal = store_deal_form(form)
    assert deal.poignees == [
        {"player": player("Bruno").pk, "size": "simple"},
        {"player": player("David").pk, "size": "double"},
    ]


def test_it_refuses_the_same_misere_twice(round_):
    chloe = player("Chloé").pk
    errors = errors_of(round_, played(miseres=[chloe, chloe]))
    assert errors["miseres"] == ["Donne 5, misères : Chloé ne peut annoncer qu'une misère"]


def test_it_refuses_a_misere_of_a_player_not_seated(round_):
    errors = errors_of(round_, played(miseres=[player("Zoé").pk]))
    assert errors["miseres"] == ["Donne 5, misères : Zoé n'est pas à cette table"]


def test_it_refuses_an_unknown_petit_au_bout_side(round_):
    errors = errors_of(round_, played(petit_au_bout="arbitre"))
    assert errors["petit_au_bout"][0].startswith("Donne 5, petit au bout : camp inconnu « arbitre »")


def test_it_refuses_an_attack_chelem_with_low_points(round_):
    errors = errors_of(round_, played(chelem_made_by="attack", points="50"))
    assert errors["chelem_made_by"] == [
        "Donne 5, chelem réalisé : un chelem de l'attaque demande au moins 86,5 points"
    ]


def test_it_refuses_a_defence_chelem_with_high_points(round_):
    errors = errors_of(round_, played(chelem_made_by="defence", points="50"))
    assert errors["chelem_made_by"] == [
        "Donne 5, chelem réalisé : un chelem de la défense laisse au plus 4,5 points au preneur"
    ]


@pytest.mark.parametrize(
    ("kind", "phrase"),
    [("passed", "une donne passée"), ("petit_sec", "un petit sec"), ("misdeal", "une fausse donne")],
)
def test_it_refuses_played_fields_on_a_deal_that_was_not_played(round_, kind, phrase):
    errors = errors_of(round_, {"kind": kind, "dealer": player("David").pk, "taker": player("Bruno").pk})
    assert errors["taker"] == [f"Donne 5, preneur : sans objet pour {phrase}"]
    errors = errors_of(round_, {"kind": kind, "dealer": player("David").pk, "bouts": "2"})
    assert errors["bouts"] == [f"Donne 5, bouts : sans objet pour {phrase}"]


def test_it_names_every_played_field_filled_on_a_passed_deal(round_):
    data = played(kind="passed", poignee_1="simple", partner="seul")
    errors = errors_of(round_, data)
    assert set(errors) == {"taker", "contract", "called", "bouts", "points", "poignee_1"}
    assert errors["poignee_1"] == ["Donne 5, poignées : sans objet pour une donne passée"]
    assert errors["points"] == ["Donne 5, points : sans objet pour une donne passée"]


@pytest.mark.parametrize("kind", ["passed", "petit_sec", "misdeal"])
def test_it_needs_only_the_dealer_for_a_deal_that_was_not_played(round_, kind):
    form = DealForm(round_, {"kind": kind, "dealer": player("David").pk, "partner": ""})
    assert form.is_valid(), form.errors
    deal = store_deal_form(form)
    assert (deal.kind, deal.taker, deal.contract) == (kind, None, "")


def test_a_new_deal_has_prise_lit_and_a_correction_its_own_contract(round_):
    assert DealForm(round_)["contract"].value() == "prise"  # the contract most often taken
    assert DealForm(round_, deal=round_.deals.get(number=1))["contract"].value() == "garde"


@pytest.mark.parametrize("kind", ["passed", "petit_sec", "misdeal"])
def test_the_default_prise_posted_with_a_deal_not_played_is_neither_refused_nor_stored(round_, kind):
    """The page without JavaScript posts the contract lit by default with « Passe »."""
    form = DealForm(round_, {"kind": kind, "dealer": player("David").pk, "partner": "", "contract": "prise"})
    assert form.is_valid(), form.errors
    deal = store_deal_form(form)
    assert (deal.kind, deal.contract) == (kind, "")
    errors = errors_of(round_, {"kind": kind, "dealer": player("David").pk, "contract": "garde"})
    assert list(errors) == ["contract"]  # a contract chosen by the secretary is still refused


def test_it_refuses_an_unknown_kind(round_):
    errors = errors_of(round_, played(kind="annulée"))
    assert errors["kind"][0].startswith("Donne 5, type : type de donne inconnu « annulée »")


def test_it_names_the_corrected_deal_number(round_):
    deal = round_.deals.get(number=1)
    errors = errors_of(round_, played(dealer=player("Alice").pk, bouts="4"), deal=deal)
    assert errors["bouts"] == ["Donne 1, bouts : le nombre de bouts doit être un entier de 0 à 3"]


def test_it_fills_a_correction_with_the_stored_deal(round_):
    deal = round_.deals.get(number=1)
    form = DealForm(round_, deal=deal)
    assert form["taker"].value() == player("Bruno").pk
    assert form["points"].value() == "49"
    assert form["poignee_1"].value() == "simple"
    assert form["miseres"].value() == [str(player("Chloé").pk)]
    assert DealForm(round_, deal=round_.deals.get(number=4))["partner"].value() == "seul"


def test_it_corrects_a_deal_in_place_and_rescores_the_round(round_):
    deal = round_.deals.get(number=4)
    data = played(
        dealer=player("Chloé").pk,
        taker=player("Alice").pk,
        contract="garde_sans",
        called="pique",
        partner="seul",
    )
    data.update(bouts="1", points="52")
    form = DealForm(round_, data, deal=deal)
    assert form.is_valid(), form.errors
    store_deal_form(form)
    deal.refresh_from_db()
    assert deal.number == 4 and deal.made is True
    assert round_.deals.count() == 4
    totals = dict(round_.seats.values_list("player__name", "total"))
    assert totals["Alice"] > 0 and sum(totals.values()) == 0


def test_it_asks_for_a_motif_on_a_homologated_round(season):
    round_ = make_round(season, status="homologated")
    form = DealForm(round_, played())
    assert not form.is_valid()
    assert form.errors["motif"] == ["Motif : obligatoire pour modifier une manche homologuée."]
    assert DealForm(round_, played(motif="oubli de la donne 5")).is_valid()


def test_it_parses_card_points_as_typed_on_a_phone():
    assert parse_points(" 44,5 ") == Decimal("44.5")
    assert parse_points("49") == Decimal("49")
    assert parse_points("") is None
    with pytest.raises(ValueError):
        parse_points("NaN")


def test_it_keeps_the_deal_kinds_of_the_model():
    assert [code for code, _label in Deal.KINDS] == ["played", "passed", "petit_sec", "misdeal"]


def test_it_explains_a_deal_number_taken_meanwhile_and_stores_nothing(round_):
    form = DealForm(round_, played())
    assert form.is_valid(), form.errors
    # Another phone saves deal 5 between this form's validation and its save.
    other = DealForm(round_, played(points="30"))
    assert other.is_valid(), other.errors
    store_deal_form(other)
    totals = list(round_.seats.order_by("position").values_list("total", flat=True))
    with pytest.raises(RoundError) as error:
        store_deal_form(form)
    assert error.value.code == "deal_number"
    assert "Une autre donne n°5 vient d'être enregistrée" in error.value.message
    assert round_.deals.count() == 5
    assert round_.deals.get(number=5).points == Decimal("30")
    assert list(round_.seats.order_by("position").values_list("total", flat=True)) == totals


# --- one tap, one key: seat buttons, the poignées' buttons ------------------------------------------


def test_it_gives_a_simple_poignee_in_one_tap(round_):
    form = DealForm(round_, played(poignee_1="simple"))
    assert form.is_valid(), form.errors
    assert store_deal_form(form).poignees == [{"player": player("Bruno").pk, "size": "simple"}]


def test_it_gives_a_double_poignee_in_one_tap_too(round_):
    form = DealForm(round_, played(poignee_1="double", poignee_4="simple"))
    assert form.is_valid(), form.errors
    assert store_deal_form(form).poignees == [
        {"player": player("Bruno").pk, "size": "double"},
        {"player": player("Émile").pk, "size": "simple"},
    ]


def test_it_draws_each_seats_poignee_as_buttons_with_the_seats_colour_and_keys(round_):
    form = DealForm(round_)
    bruno = form["poignee_1"]
    assert [(o.data["label"], o.data["key"]) for o in bruno] == [
        ("—", "0"),
        ("simple", "s"),
        ("double", "d"),
        ("triple", "t"),
    ]
    assert bruno.label == "Poignée de Bruno" and form["poignee_4"].label == "Poignée d'Émile"
    assert bruno.field.seat == {"name": "Bruno", "colour": "jaune", "key": "b 2"}
    assert 'type="radio"' in str(bruno) and "<select" not in str(bruno)
    assert form.poignee_rule() == "Atouts montrés : simple : 8, double : 10, triple : 13."


def test_it_draws_the_players_as_buttons_in_their_chip_colours_with_their_keys(round_):
    form = DealForm(round_)
    options = [widget.data for widget in form["taker"]]
    assert [(o["label"], o["colour"], o["key"]) for o in options] == [
        ("—", "", "-"),
        ("Alice", "blanc", "a 1"),
        ("Bruno", "jaune", "b 2"),
        ("Chloé", "rouge", "c 3"),
        ("David", "bleu", "d 4"),
        ("Émile", "vert", "é 5"),
    ]
    partner = [(o.data["label"], o.data["key"]) for o in form["partner"]][:2]
    assert partner == [("—", "-"), ("seul", "0")]
    html = str(form["taker"])
    assert 'data-key="b 2"' in html and 'type="radio"' in html


def test_it_gives_the_seat_number_alone_to_players_of_the_same_initial(season):
    round_ = make_round(season, names=["Alice", "Arthur", "Bruno", "Chloé", "David"], deals=[])
    keys = {o.data["label"]: o.data["key"] for o in DealForm(round_)["dealer"]}
    assert keys == {"Alice": "1", "Arthur": "2", "Bruno": "b 3", "Chloé": "c 4", "David": "d 5"}


def test_it_says_the_called_king_is_optional(round_):
    form = DealForm(round_)
    assert "facultatif" in form["called"].label
    assert [o.data["label"] for o in form["called"]] == ["—", "♠ pique", "♥ cœur", "♦ carreau", "♣ trèfle"]
    assert form.is_valid() is False  # unbound
    assert DealForm(round_, played(called="")).is_valid()


def test_it_gives_consistent_partner_messages(round_):
    """Both partner errors say « seul » (one said « laisser vide »)."""
    missing = errors_of(round_, played(partner=""))["partner"][0]
    himself = errors_of(round_, played(partner=player("Bruno").pk))["partner"][0]
    assert "« seul »" in missing and "« seul »" in himself
    assert "laisser vide" not in missing + himself


def test_it_hides_the_partner_and_poignee_keys_of_a_partner_at_four(four):
    form = DealForm(four)
    assert form["partner"].is_hidden
    assert "Appelé" not in dict(form.key_hints())
    assert dict(DealForm(four)["kind"].field.widget.extra)["misdeal"] == {"key": "f"}
