"""Random but valid rounds for the demo, and a whole Coupe du Monde played from its seeds.

`random_deal_specs` draws deals a real table could have played (dealer rotation, takers,
contracts, bouts and card points consistent with the engine's validation, now and then a
poignée, a misère, a petit au bout or a chelem), as dicts of player names shaped like
`tests.factories.EXAMPLE_DEALS`. `create_round_from_specs` stores such a round and scores it
through `championship.services`; `play_demo_cup` uses both to play the play-offs and the final
of a season whose regular rounds are homologated.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import transaction

from championship.cup.state import cup_state
from championship.models import Round
from championship.rounds.data import next_round_number
from championship.services import create_round, homologate_round
from scoring.vocabulary import ATTACK, DEFENCE, MAX_PLAYERS, SUITS, TABLE_SIZES

TARGETS = {0: 56, 1: 51, 2: 41, 3: 36}
KIND_WEIGHTS = [("played", 88), ("passed", 7), ("misdeal", 3), ("petit_sec", 2)]
CONTRACT_WEIGHTS = [("prise", 36), ("garde", 44), ("garde_sans", 13), ("garde_contre", 7)]
BOUT_WEIGHTS = [(0, 14), (1, 36), (2, 36), (3, 14)]
POIGNEE_WEIGHTS = [("simple", 80), ("double", 17), ("triple", 3)]


def _pick(rng, weighted):
    values, weights = zip(*weighted, strict=True)
    return rng.choices(values, weights=weights)[0]


def _name(player):
    return player if isinstance(player, str) else player.name


def _card_points(rng, bouts):
    """The taker's card points: around the target, in halves, within what the bouts allow."""
    low, high = Decimal("4.5") * bouts, Decimal(91) - Decimal("4.5") * (3 - bouts)
    drawn = Decimal(round(rng.gauss(TARGETS[bouts] + 1, 9) * 2)) / 2
    return min(max(drawn, low), high)


def random_played_deal(names, dealer, rng, *, miseres=True):
    """One played deal at this table (4 or 5 names) as a spec dict."""
    taker = rng.choice(names)
    spec = {"dealer": dealer, "taker": taker, "contract": _pick(rng, CONTRACT_WEIGHTS)}
    if len(names) == MAX_PLAYERS:
        spec["called"] = rng.choice(SUITS)
        others = [name for name in names if name != taker]
        spec["partner"] = rng.choice(others) if rng.random() < 0.85 else None
    if rng.random() < 0.01:  # a chelem made by the attack, announced or not
        spec.update(bouts=3, points=Decimal(91), chelem_made_by=ATTACK)
        spec["chelem_announced"] = rng.random() < 0.5
    else:
        bouts = _pick(rng, BOUT_WEIGHTS)
        spec.update(bouts=bouts, points=_card_points(rng, bouts))
    if rng.random() < 0.08:
        spec["poignees"] = [(rng.choice(names), _pick(rng, POIGNEE_WEIGHTS))]
    if miseres and rng.random() < 0.03:
        spec["miseres"] = [rng.choice(names)]
    if rng.random() < 0.08:
        spec["petit_au_bout"] = ATTACK if rng.random() < 0.6 else DEFENCE
    return spec


def random_deal_specs(players, rng, count, *, miseres=True):
    """`count` deal specs for a table seated in this order (Players or names), valid for the
    scoring engine: the first dealer is drawn, then each next player deals, except after a
    misdeal (the same dealer deals again)."""
    names = [_name(player) for player in players]
    if len(names) not in TABLE_SIZES or len(set(names)) != len(names):
        raise ValueError(f"Une table compte {' ou '.join(map(str, TABLE_SIZES))} joueurs distincts.")
    dealer = rng.randrange(len(names))
    specs = []
    for _ in range(count):
        kind = _pick(rng, KIND_WEIGHTS)
        if kind == "played":
            specs.append(random_played_deal(names, names[dealer], rng, miseres=miseres))
        else:
            specs.append({"dealer": names[dealer], "kind": kind})
        if kind != "misdeal":
            dealer = (dealer + 1) % len(names)
    return specs


@transaction.atomic
def _cup_dates(season):
    last = season.rounds.filter(stage=Round.REGULAR).order_by("-date").values_list("date", flat=True).first()
    start = (last or season.end_date - datetime.timedelta(days=21)) + datetime.timedelta(days=7)
    return start, start + datetime.timedelta(days=7)


@transaction.atomic
def play_demo_cup(season, rng, *, user=None, deals=(16, 24)):
    """Play the cup of a season whose regular rounds are homologated: one homologated round per
    play-off table (seats drawn at random among the table's seeds), then the final among the
    qualified, then return the `cup_state`. Stages already recorded are left as they are, so
    running it again changes nothing."""
    state = cup_state(season)
    if not state.seeds:
        return state
    playoff_date, final_date = _cup_dates(season)
    for table in state.tables:
        if table.rounds:
            continue
        seating = list(table.players)
        rng.shuffle(seating)
        round_ = create_round(
            season,
            seating,
            random_deal_specs(seating, rng, rng.randint(*deals), miseres=season.rulebook.deal.misere > 0),
            number=next_round_number(season, Round.PLAYOFF, table.name),
            stage=Round.PLAYOFF,
            table=table.name,
            date=playoff_date,
            place=f"Chez {table.players[0].name}",
        )
        homologate_round(round_, user)
    state = cup_state(season)
    if state.finalists and not state.final_rounds:
        seating = list(state.finalists)
        rng.shuffle(seating)
        round_ = create_round(
            season,
            seating,
            random_deal_specs(seating, rng, rng.randint(*deals), miseres=season.rulebook.deal.misere > 0),
            number=next_round_number(season, Round.FINAL),
            stage=Round.FINAL,
            date=final_date,
            place=f"Chez {state.finalists[0].name}",
        )
        homologate_round(round_, user)
        state = cup_state(season)
    return state
