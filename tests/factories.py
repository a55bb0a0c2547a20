"""Building rounds for tests through the real models and services (no mocks)."""

import datetime
from decimal import Decimal

from championship.models import Adjustment, Round
from championship.services import create_round, rescore_round
from federation.models import Player

COLOURS = ["blanc", "jaune", "rouge", "bleu", "vert"]

# The example sheet of docs/feuille.md, as model field values (player names resolved later).
EXAMPLE_PLAYERS = ["Alice", "Bruno", "Chloé", "David", "Émile"]
EXAMPLE_DEALS = [
    dict(
        dealer="Alice",
        taker="Bruno",
        contract="garde",
        called="coeur",
        partner="David",
        bouts=2,
        points=Decimal("49"),
        poignees=[("Bruno", "simple")],
        miseres=["Chloé"],
        petit_au_bout="attack",
    ),
    dict(dealer="Bruno", kind="passed"),
    dict(dealer="Chloé", kind="misdeal"),
    dict(
        dealer="Chloé",
        taker="Alice",
        contract="garde_sans",
        called="pique",
        partner=None,
        bouts=1,
        points=Decimal("44.5"),
    ),
]
EXAMPLE_TOTALS = {"Alice": -650, "Bruno": 380, "Chloé": 50, "David": 220, "Émile": 0}


def player(name):
    return Player.objects.get_or_create(name=name)[0]


def make_round(
    season,
    names=EXAMPLE_PLAYERS,
    deals=EXAMPLE_DEALS,
    *,
    number=None,
    stage=Round.REGULAR,
    table="",
    status=Round.DRAFT,
    totals=None,
    date=datetime.date(2010, 11, 19),
    place="Chez Steph",
    adjustments=(),
):
    """A scored round; `deals` as dicts of names (see EXAMPLE_DEALS), or `totals` for a totals-only round."""
    if number is None:
        number = Round.objects.filter(season=season, stage=stage, table=table).count() + 1
    round_ = create_round(
        season,
        [player(name) for name in names],
        deals if totals is None else (),
        totals=totals,
        number=number,
        stage=stage,
        table=table,
        date=date,
        place=place,
        status=status,
    )
    if adjustments:
        for name, code, points, note in adjustments:
            Adjustment.objects.create(round=round_, player=player(name), code=code, points=points, note=note)
        rescore_round(round_)
    return round_


def round_totals(round_):
    return dict(round_.seats.values_list("player__name", "total"))


def fifth_deal_data(**changes):
    """Form data of a valid 5th deal of the example round (dealer David, expected by rotation)."""
    data = {
        "kind": "played",
        "dealer": player("David").pk,
        "taker": player("Bruno").pk,
        "contract": "garde",
        "called": "coeur",
        "partner": player("Émile").pk,
        "bouts": "2",
        "points": "49",
    }
    data.update(changes)
    return data
