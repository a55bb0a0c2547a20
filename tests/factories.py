"""Building rounds for tests through the real models and services (no mocks)."""

import datetime
from decimal import Decimal

from championship.models import Round
from championship.services import add_deal, change_deal, create_round, set_seat_colours
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
        adjustments=[(player(name), code, points, note) for name, code, points, note in adjustments],
    )
    return round_


def round_totals(round_):
    return dict(round_.seats.values_list("player__name", "total"))


def fifth_deal(**changes):
    """The model values of a valid 5th deal of the example round (dealer David by rotation)."""
    return {
        "kind": "played",
        "dealer": player("David"),
        "taker": player("Bruno"),
        "contract": "garde",
        "called": "coeur",
        "partner": player("Émile"),
        "bouts": 2,
        "points": Decimal(49),
        **changes,
    }


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


def store_deal_form(form, user=None):
    """What the entry pages do with a valid DealForm: the service's write; returns the Deal."""
    if form.deal is None:
        return add_deal(
            form.round, form.deal_fields(), number=form.number, key=form.key, reason=form.reason, user=user
        )
    return change_deal(form.deal, form.deal_fields(), version=form.version, reason=form.reason, user=user)


def store_round_form(form, user=None):
    """What the new-round page does with a valid RoundCreateForm; returns the Round."""
    return create_round(**form.creation(), user=user)


def store_colours_form(form, user=None):
    return set_seat_colours(form.round, form.colours(), version=form.version, reason=form.reason, user=user)
