"""What a night proposes to the board, never applies by itself: the round(s) to enter with its
date, place and the players who said « je viens » (tables of 4 or 5 mixing the season's
pairings when more come), the `hote` bonus for the host, the `absence` malus for a member who
said « je viens » and sits at no table of the night."""

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from urllib.parse import urlencode

from django.urls import reverse

from championship.models import Adjustment, Seat
from gamenights.models import GameNight
from scoring.seating import propose_tables

HOST, ABSENCE = "hote", "absence"


def met_so_far(season):
    """`{frozenset({a, b}): rounds played together}` over the season's rounds (player pks)."""
    met = Counter()
    tables = {}
    for round_id, player_id in Seat.objects.filter(round__season=season).values_list("round_id", "player_id"):
        tables.setdefault(round_id, []).append(player_id)
    for seated in tables.values():
        met.update(frozenset(pair) for pair in combinations(sorted(seated), 2))
    return met


def stage_value(night):
    return f"{night.stage}:{night.table}" if night.stage == GameNight.PLAYOFF else night.stage


def entry_url(night, players):
    """The new-round page, filled from the night (`championship.forms.rounds.PREFILL`)."""
    query = {"date": night.date.isoformat(), "place": night.place, "stage": stage_value(night)}
    query.update({f"player_{row}": player.pk for row, player in enumerate(players, start=1)})
    return reverse("championship:round_create", args=[night.season.name]) + "?" + urlencode(query)


@dataclass
class Table:
    players: list
    entry_url: str
    cost: int


def tables(night, comers):
    """The tables proposed for `comers` (players who said « je viens », in the order they
    answered), and who sits out when they cannot all be seated."""
    met = met_so_far(night.season)
    by_pk = {player.pk: player for player in comers}
    seated, out = propose_tables([player.pk for player in comers], met)
    rows = []
    for table in seated:
        players = [by_pk[pk] for pk in table]
        cost = sum(met.get(frozenset(pair), 0) for pair in combinations(table, 2))
        rows.append(Table(players, entry_url(night, players), cost))
    return rows, [by_pk[pk] for pk in out]


@dataclass
class Proposal:
    round: object
    player: object
    code: str


def adjustments(night, answers):
    """The `hote` and `absence` proposals for the rounds of `night` still without them."""
    rounds = list(night.rounds().order_by("number"))
    if not rounds:
        return []
    seats = {
        seat.player_id: seat.round for seat in Seat.objects.filter(round__in=rounds).select_related("round")
    }
    given = set(
        Adjustment.objects.filter(round__in=rounds, code__in=(HOST, ABSENCE)).values_list("player_id", "code")
    )
    found = []
    if night.host_id and night.host_id in seats and (night.host_id, HOST) not in given:
        found.append(Proposal(seats[night.host_id], night.host, HOST))
    for rsvp in answers.yes:
        if rsvp.player_id not in seats and (rsvp.player_id, ABSENCE) not in given:
            found.append(Proposal(rounds[0], rsvp.player, ABSENCE))
    return found


def comers(answers):
    return [rsvp.player for rsvp in answers.yes]
