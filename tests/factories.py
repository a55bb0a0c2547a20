"""Building rounds for tests through the real models and services (no mocks)."""

import datetime
from decimal import Decimal

from championship.models import Adjustment, Deal, Round, Seat
from championship.services import rescore_round
from federation.models import Player

COLOURS = ["blanc", "jaune", "rouge", "bleu", "vert"]

# The example sheet of SHEET_FORMAT.md, as model field values (player names resolved later).
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
    round_ = Round.objects.create(
        season=season,
        stage=stage,
        table=table,
        number=number,
        date=date,
        place=place,
        status=status,
        totals_only=totals is not None,
    )
    players = {name: player(name) for name in names}
    for position, name in enumerate(names):
        Seat.objects.create(
            round=round_,
            player=players[name],
            position=position,
            colour=COLOURS[position],
            total=totals[name] if totals is not None else None,
        )
    for number_, spec in enumerate(deals if totals is None else [], start=1):
        spec = dict(spec)
        fields = {
            "round": round_,
            "number": number_,
            "dealer": players[spec.pop("dealer")],
            "kind": spec.pop("kind", "played"),
        }
        for role in ("taker", "partner"):
            name = spec.pop(role, None)
            fields[role] = players[name] if name else None
        fields["poignees"] = [{"player": players[n].pk, "size": s} for n, s in spec.pop("poignees", [])]
        fields["miseres"] = [players[n].pk for n in spec.pop("miseres", [])]
        fields.update(spec)
        Deal.objects.create(**fields)
    for name, code, points, note in adjustments:
        Adjustment.objects.create(round=round_, player=player(name), code=code, points=points, note=note)
    rescore_round(round_)
    return round_
