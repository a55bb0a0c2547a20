"""A synthetic federation of any size, for measuring: players, seasons with their board, regular
rounds of random but valid deals, bonuses and maluses from the catalogue, reports (some late,
some missing), then each season's Coupe du Monde played to its champion.

Everything is written through `championship.services`, with its history, as a real federation
would be; the deals come from `championship.demo.cup.random_deal_specs` and every round is scored
by the engine when stored (a deal it refused would stop the generation, nothing stored).

The same `seed` gives the same federation (same names, seats, deals, dates), so the same
standings and cup: every date is fixed (the last season ends in `LAST_YEAR`), nothing reads the
clock, and one `random.Random(seed)` draws everything in a fixed order.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass

from django.db import transaction

from championship.demo.cup import play_demo_cup, random_deal_specs
from championship.models import Round
from championship.services import (
    appoint_official,
    close_season,
    create_account,
    create_round,
    create_season,
    register_player,
    save_report,
)
from championship.standings.lateness import report_author
from federation.history import recorded_as
from federation.models import Official

LAST_YEAR = 2024  # the last generated season ends on 30 June of this year
REASON = "fédération générée"
FIRST_NAMES = [
    "Alice", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaston", "Hélène", "Igor", "Julie",
    "Karim", "Léa", "Marcel", "Nadia", "Octave", "Paule", "Quentin", "Rose", "Simon", "Thérèse",
]  # fmt: skip
PLACES = ["Chez Steph", "Le Bar du Coin", "Au Fût et à Mesure", "Chez Bruno", "La Cave à Hélène"]
BOARD = [Official.PRESIDENT, Official.VICE_PRESIDENT, Official.SECRETARY]
# Share of homologated regular rounds whose report is filed late, and never filed.
LATE_REPORTS, MISSING_REPORTS = 0.10, 0.05
ADJUSTMENT_RATE = 0.15  # rounds with a bonus or malus from the catalogue
FIVE_PLAYER_TABLES = 0.8  # the rest are played at 4


@dataclass(frozen=True)
class Size:
    players: int
    seasons: int
    rounds: int
    deals: int


def player_names(count):
    """`count` distinct valid names: « Alice », … then « Alice 2 », …"""
    names = []
    for index in range(count):
        turn, first = divmod(index, len(FIRST_NAMES))
        names.append(FIRST_NAMES[first] + (f" {turn + 1}" if turn else ""))
    return names


def login(name):
    table = str.maketrans("éèëêÉ", "eeeeE")
    return name.translate(table).lower().replace(" ", "")


def season_names(count):
    """(name, start, end) of `count` consecutive seasons, the last ending in `LAST_YEAR`."""
    first = LAST_YEAR - count
    return [
        (f"{year}-{year + 1}", datetime.date(year, 9, 1), datetime.date(year + 1, 6, 30))
        for year in range(first, first + count)
    ]


def round_dates(start, end, count):
    """`count` dates spread evenly over the season, leaving three weeks for the cup."""
    days = (end - start).days - 28
    return [start + datetime.timedelta(days=index * days // max(count, 1)) for index in range(count)]


def generate(size: Size, seed: int, *, progress=None):
    """Build the federation (in one transaction) and return its seasons, oldest first."""
    rng = random.Random(seed)
    with transaction.atomic():
        players = [register_player(name, reason=REASON) for name in player_names(size.players)]
        board = players[: len(BOARD)]
        for player in board:
            create_account(player, login(player.name), reason=REASON)
        president = board[0].user
        seasons = []
        with recorded_as(president):
            for name, start, end in season_names(size.seasons):
                season = create_season(name, start, end, reason=REASON, user=president)
                for player, role in zip(board, BOARD, strict=False):
                    appoint_official(season, player, role, reason=REASON, user=president)
                play_season(season, players, size, rng, president)
                close_season(season, reason="saison terminée", user=president)
                seasons.append(season)
                if progress is not None:
                    progress(season)
    return seasons


def play_season(season, players, size, rng, president):
    rulebook = season.rulebook
    catalogue = [entry for entry in rulebook.championship.catalogue if not entry.board_only]
    deadline = rulebook.reports.deadline_days
    for number, date in enumerate(round_dates(season.start_date, season.end_date, size.rounds), 1):
        table_size = 5 if rng.random() < FIVE_PLAYER_TABLES or len(players) < 5 else 4
        seated = rng.sample(players, min(table_size, len(players)))
        names = [player.name for player in seated]
        specs = random_deal_specs(names, rng, size.deals, miseres=rulebook.deal.misere > 0)
        adjustments = []
        if catalogue and rng.random() < ADJUSTMENT_RATE:
            adjustments.append((rng.choice(names), rng.choice(catalogue).code, None, ""))
        round_ = create_round(
            season,
            seated,
            specs,
            number=number,
            date=date,
            place=rng.choice(PLACES),
            adjustments=adjustments,
            status=Round.HOMOLOGATED,
            user=president,
            reason=REASON,
        )
        draw = rng.random()
        if draw < MISSING_REPORTS:
            continue
        delay = (
            rng.randint(deadline + 1, deadline + 20)
            if draw < MISSING_REPORTS + LATE_REPORTS
            else rng.randint(0, deadline)
        )
        save_report(
            round_,
            f"# {round_.place}\n\nManche {number} : {len(specs)} donnes, la bière était fraîche.",
            author=report_author(round_),
            filed_on=date + datetime.timedelta(days=delay),
            reason=REASON,
            user=president,
        )
    play_demo_cup(season, rng, user=president, deals=(size.deals, size.deals))
