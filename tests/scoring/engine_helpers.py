"""Shared by the engine tests: an editable default rulebook, strategies for valid deals."""

import tomllib
from decimal import Decimal

from hypothesis import strategies as st

from scoring.deal import CONTRACTS, POIGNEE_SIZES, DealInput, Poignee
from scoring.rulebook import default_rulebook_text, load_rulebook_data

FIVE = ("Alice", "Bruno", "Chloé", "David", "Émile")
FOUR = FIVE[:4]

tables = st.sampled_from([FIVE, FOUR])


def rulebook_data() -> dict:
    """The default rulebook as a plain dict, for a test to alter."""
    return tomllib.loads(default_rulebook_text())


def rulebook_with(**changes):
    """The default rulebook with ``section__setting=value`` changes, e.g. deal__chip_unit=1."""
    data = rulebook_data()
    for path, value in changes.items():
        *sections, setting = path.split("__")
        target = data
        for section in sections:
            target = target[section]
        target[setting] = value
    return load_rulebook_data(data)


@st.composite
def played_deals(draw, seats, dealer=None):
    taker = draw(st.sampled_from(seats))
    partner = None
    if len(seats) == 5:
        partner = draw(st.none() | st.sampled_from([name for name in seats if name != taker]))
    bouts = draw(st.integers(0, 3))
    halves = draw(st.integers(9 * bouts, 182 - 9 * (3 - bouts)))
    points = Decimal(halves) / 2
    chelem_sides = [None]
    if points >= Decimal("86.5"):
        chelem_sides.append("attack")
    if points <= Decimal("4.5"):
        chelem_sides.append("defence")
    showing = draw(st.lists(st.sampled_from(seats), unique=True, max_size=3))
    return DealInput(
        dealer=dealer or draw(st.sampled_from(seats)),
        taker=taker,
        contract=draw(st.sampled_from(CONTRACTS)),
        called=draw(st.sampled_from(["pique", "coeur", "carreau", "trefle"])) if len(seats) == 5 else None,
        partner=partner,
        bouts=bouts,
        points=points,
        poignees=tuple(Poignee(name, draw(st.sampled_from(POIGNEE_SIZES))) for name in showing),
        miseres=tuple(draw(st.lists(st.sampled_from(seats), unique=True, max_size=2))),
        petit_au_bout=draw(st.sampled_from([None, "attack", "defence"])),
        chelem_announced=draw(st.booleans()),
        chelem_made_by=draw(st.sampled_from(chelem_sides)),
    )


@st.composite
def any_deals(draw, seats, dealer=None):
    kind = draw(st.sampled_from(["played", "played", "played", "passed", "petit_sec", "misdeal"]))
    if kind == "played":
        return draw(played_deals(seats, dealer))
    return DealInput(dealer=dealer or draw(st.sampled_from(seats)), kind=kind)


@st.composite
def rounds(draw):
    """A table and its deals, dealt in the right order (a misdeal's dealer deals again)."""
    seats = draw(tables)
    dealer_index = draw(st.integers(0, len(seats) - 1))
    deals = []
    for _ in range(draw(st.integers(0, 12))):
        deal = draw(any_deals(seats, seats[dealer_index]))
        deals.append(deal)
        if deal.kind != "misdeal":
            dealer_index = (dealer_index + 1) % len(seats)
    return seats, deals
