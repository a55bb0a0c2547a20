"""No page writes a negative zero: a figure rounded to the tenth that rounds to 0 is 0, in the
JSON as on the page (`scoring.french.rounded`, the one rounding of a decimal figure)."""

import datetime
import json
import math
from decimal import Decimal
from fractions import Fraction

from championship.models import Round
from championship.stats import rating as rating_pieces
from federation.models import Player
from scoring.stats.rating import Rating
from tests.factories import EXAMPLE_PLAYERS, make_round

MINUS = "\N{MINUS SIGN}"


def alice_takes(points, dealer):
    """A Prise of Alice called Bruno with 2 bouts (contract 41): `points` card points."""
    return dict(
        dealer=dealer,
        taker="Alice",
        contract="prise",
        called="coeur",
        partner="Bruno",
        bouts=2,
        points=points,
    )


def test_an_average_margin_of_minus_one_in_34_is_zero(client, season):
    """34 takes of Alice: 33 at exactly her contract (41 with 2 bouts, a margin of 0), one a
    point short (40: −1). Her average margin is −1/34 ≈ −0.03: 0 to the tenth, without a sign."""
    margins = [0] * 33 + [-1]
    deals = [alice_takes(Decimal(41 + margin), EXAMPLE_PLAYERS[n % 5]) for n, margin in enumerate(margins)]
    for number, half in enumerate((deals[:17], deals[17:]), start=1):
        make_round(
            season, deals=half, number=number, date=datetime.date(2010, 10, number), status=Round.HOMOLOGATED
        )
    average = Fraction(sum(margins), len(margins))
    assert average == Fraction(-1, 34) and round(float(average), 1) == 0
    alice = Player.objects.get(name="Alice").pk
    response = client.get(f"/joueurs/{alice}/statistiques/?format=json")
    data = response.json()
    assert data["taker"]["takes"]["value"] == 34
    margin = data["taker"]["average_margin"]
    assert margin == 0 and math.copysign(1, margin) == 1
    assert "-0.0" not in response.content.decode()
    page = client.get(f"/joueurs/{alice}/statistiques/").content.decode()
    assert "0 points de cartes" in page and f"{MINUS}0 points" not in page


def test_a_rating_that_rounds_to_zero_is_zero(client, season, monkeypatch):
    """μ 0.12, σ 0.05: μ − 3σ = −0.03, 0 to the tenth; μ − 0.15 as well."""
    make_round(season, status=Round.HOMOLOGATED)
    alice = Player.objects.get(name="Alice").pk
    monkeypatch.setattr(rating_pieces, "ratings", lambda games: {alice: Rating(alice, 0.12, 0.05, 4, 2)})
    text = client.get(f"/saisons/{season.name}/cote/?format=json").content.decode()
    (row,) = json.loads(text)["players"]
    assert row["rating"] == row["low"] == 0 and math.copysign(1, row["rating"]) == 1
    assert math.copysign(1, row["low"]) == 1
    assert "-0.0" not in text
