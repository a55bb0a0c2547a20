"""The display data of a round: plain data for the round page, the entry page and the report PDF."""

import dataclasses

from django.db.models import Model

from championship.forms import DealForm
from championship.rounds.display import round_display
from championship.rounds.history import round_history
from championship.services import homologate_round
from tests.factories import EXAMPLE_TOTALS, make_round, player, store_deal_form


def plain(value):
    """True when `value` holds no model instance, at any depth."""
    if isinstance(value, Model):
        return False
    if dataclasses.is_dataclass(value):
        return all(plain(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, list | tuple):
        return all(plain(item) for item in value)
    if isinstance(value, dict):
        return all(plain(k) and plain(v) for k, v in value.items())
    return True


def test_it_builds_the_example_round_as_plain_data(season):
    display = round_display(make_round(season), history=True)
    assert plain(display)
    assert [seat.name for seat in display.seats] == list(EXAMPLE_TOTALS)
    assert dict(zip([seat.name for seat in display.seats], display.totals, strict=True)) == EXAMPLE_TOTALS
    assert [deal.pot_after for deal in display.deals] == [0, 50, 70, 80]
    assert display.pot_left == 80
    assert display.pot_refund == (10, 10, 40, 10, 10)
    assert [seat.chips_label for seat in display.seats][:2] == ["jetons blancs", "jetons jaunes"]


def test_it_explains_each_deal_with_the_terms_of_the_engine(season):
    first, passed, misdeal, fourth = round_display(make_round(season)).deals
    labels = {term.label: term.value for term in first.terms}
    assert labels["Objectif (2 bouts)"] == 41
    assert labels["Base (25 + 8) × 2"] == 66
    assert labels["Petit au bout (attaque)"] == 20
    assert labels["Poignée simple (Bruno)"] == 20
    assert labels["Arrondi à 10"] == 110
    assert labels["Misère de Chloé (10 × 4)"] == 40
    assert labels["Pot vide : chacun mise 10"] == 50
    assert labels["Pot gagné par Bruno"] == 50
    assert first.summary == "Garde de Bruno avec David, faite de 8"
    assert first.announces == ("Poignée simple de Bruno", "Misère de Chloé", "Petit au bout (attaque)")
    assert first.called_label == "Roi de cœur"
    assert fourth.partner_label == "sans partenaire"  # no gendered « seul »
    assert fourth.points_label == "44,5"
    assert fourth.result_label == "chutée de 7"
    assert passed.summary == "Passe (donneur Bruno)"
    assert {term.label for term in misdeal.terms} >= {
        "Mise du donneur Chloé",
        "Pénalité de fausse donne (Chloé)",
    }


def test_it_keeps_running_totals_that_end_on_the_round_totals(season):
    display = round_display(make_round(season))
    last = display.deals[-1]
    finals = tuple(run + refund for run, refund in zip(last.running, display.pot_refund, strict=True))
    assert finals == display.totals
    assert display.deals[0].shares == (-120, 210, -70, 100, -120)
    assert display.deals[0].running == (-130, 250, -80, 90, -130)


def test_it_gives_championship_points_once_homologated(season, president):
    round_ = make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])
    assert not round_display(round_).has_championship_points
    homologate_round(round_, president.user)
    display = round_display(round_)
    points = {row.name: row.championship_points for row in display.ranking}
    assert points == {"Bruno": 11, "David": 8, "Chloé": 6, "Émile": 3, "Alice": 1}
    emile = next(row for row in display.seats if row.name == "Émile")
    assert ("Retard — arrivé à 21h30", -1) in emile.championship_lines
    assert display.adjustments[0].label == "Retard" and display.adjustments[0].note == "arrivé à 21h30"


def test_it_shows_a_totals_only_round(season):
    totals = {"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
    display = round_display(make_round(season, totals=totals))
    assert display.totals_only and display.deals == ()
    assert [row.name for row in display.ranking] == list(totals)


def test_it_tells_the_history_most_recent_first_with_who_and_why(season, president):
    round_ = make_round(season)
    homologate_round(round_, president.user)
    data = {
        "kind": "played",
        "dealer": player("Chloé").pk,
        "taker": player("Alice").pk,
        "contract": "garde_sans",
        "called": "pique",
        "partner": "seul",
        "bouts": "1",
        "points": "52",
        "motif": "erreur de recopie",
    }
    form = DealForm(round_, data, deal=round_.deals.get(number=4))
    assert form.is_valid(), form.errors
    store_deal_form(form)
    latest, homologation, *older = round_history(round_)
    assert latest.why == "erreur de recopie"
    assert latest.changes[0] == "Donne 4 : points du preneur 44,5 → 52"
    assert latest.changes[-2].startswith("Totaux : Alice −650 → ")
    # the round counted already: each player's place and championship points, before → after
    assert latest.changes[-1] == (
        "Championnat (place dans la manche, points) : Alice 5e place → 1re place, 1 → 11 pts ; "
        "Bruno 1re place → 2e place, 11 → 7 pts ; Chloé 3e place → 4e place, 6 → 3 pts ; "
        "David 2e place → 3e place, 8 → 5 pts ; Émile 4e place → 5e place, 4 → 2 pts"
    )
    assert homologation.why == "homologation"
    assert homologation.changes == ("Manche : statut brouillon → homologuée",)
    assert older[-1].changes[0] == "Manche créée"
