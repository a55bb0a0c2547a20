"""Each season's statistics, read once and cached under the season's token.

Two kinds of piece, each computed for a whole season at once (one pass over its deals and
seats) and cached by `championship.lib.summaries.cached_many`:

- ``stats:game``: every homologated round's deals (regular, play-offs and final, as the player
  page counts them): each player's figures (`scoring.stats.game`), who called whom
  (`partnerships`), who took how many points from whom (`FlowTable`), and the rounds each two
  players sat at together. Kept as ``{"season": SeasonGame, player id: PlayerGame}``, each
  pickled apart: a player's page unpickles his own piece of each season only.
- ``stats:records``: the counted rounds (homologated, regular) of every player as
  `scoring.stats.records.Result`, the record totals of the season and, once the season is closed,
  its podium and champion. Kept as ``{"season": SeasonRecords, player id: PlayerRecords}``, each
  pickled apart: a player's career unpickles his own piece of each season only.

Nothing here depends on a date: the pieces are cached under ``as_of = None``.

The pages' figures are cached too (`cached_page`): those of one season under its token, those of
several (a career, the palmarès, two players head to head) under all their tokens at once, so
that a write to any of them makes them fresh; and so are their rendered bodies (`cached_body`).
A player's page is also kept under the digest of his own pieces (`player_cached`): a write at a
table he did not sit at leaves it as it was computed.
"""

from __future__ import annotations

import hashlib
import pickle
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.core.cache import cache
from django.utils.translation import get_language

from championship.cup.outlook import cup_champion
from championship.cup.state import cup_rounds_of
from championship.lib.figure_tokens import read_tokens
from championship.lib.summaries import PREFIX, TIMEOUT, cached, cached_many
from championship.models import Deal, Round, Seat
from championship.standings.season import COUNTING, seasons_standings
from scoring.stats.flow import FlowTable, Together, partnerships
from scoring.stats.game import DEAL_FIELDS, add_deals
from scoring.stats.records import round_results

DEAL_VALUES = ("round_id", "round__season_id", "number", "shares", "points", "bouts", *DEAL_FIELDS)


def _no_date(_season):
    return None


@dataclass
class SeasonGame:
    """A season's deals, summed: what its pages show of everyone."""

    names: dict  # player id -> name
    counts: dict  # player id -> Counter of figures (`scoring.stats.game`)
    pairs: dict  # (taker, partner) -> Partnership
    taken: dict  # (loser, winner) -> Fraction
    rounds: int  # homologated rounds
    deals: int  # played deals


@dataclass
class PlayerGame:
    """One player's share of a `SeasonGame`, with his rounds together with each other player."""

    counts: Counter
    pairs: dict  # (taker, partner) -> Partnership, those he is in
    taken: dict  # (loser, winner) -> Fraction, those he is in
    together: dict = field(default_factory=dict)  # other id -> [Together]
    names: dict = field(default_factory=dict)  # id -> name of those he met


EMPTY = PlayerGame(Counter(), {}, {})


def _game_of_seasons(seasons):
    homologated = {"round__season__in": seasons, "round__status": Round.HOMOLOGATED}
    seated = defaultdict(list)
    names = defaultdict(dict)
    season_of = {}
    for round_id, season_id, player_id, name, total, rank in Seat.objects.filter(**homologated).values_list(
        "round_id", "round__season_id", "player_id", "player__name", "total", "rank"
    ):
        seated[round_id].append((player_id, total, rank))
        names[season_id][player_id] = name
        season_of[round_id] = season_id
    deals = defaultdict(lambda: defaultdict(list))  # season -> round -> deals
    for deal in Deal.objects.filter(**homologated).values(*DEAL_VALUES).order_by("round_id", "number"):
        deals[deal["round__season_id"]][deal["round_id"]].append(deal)
    result = []
    for season in seasons:
        targets = season.rulebook.deal.targets
        counts = defaultdict(Counter)
        flows = FlowTable()
        played = []
        together = defaultdict(lambda: defaultdict(list))
        season_rounds = [r for r, s in season_of.items() if s == season.pk]
        for round_id in season_rounds:
            round_deals = deals[season.pk].get(round_id, [])
            seats = seated[round_id]
            for player_id, _total, _rank in seats:
                add_deals(counts[player_id], round_deals, player_id, targets)
            for deal in round_deals:
                if deal["kind"] == Deal.PLAYED:
                    played.append(deal)
                flows.add({int(pk): share for pk, share in deal["shares"].items()})
            for me, my_total, my_rank in seats:
                for other, his_total, his_rank in seats:
                    if other != me:
                        together[me][other].append(
                            Together(round_id, (my_total, his_total), (my_rank, his_rank))
                        )
        game = SeasonGame(
            names=names[season.pk],
            counts=dict(counts),
            pairs=partnerships(played),
            taken=flows.taken(),
            rounds=len(season_rounds),
            deals=len(played),
        )
        result.append(_pack(game, together))
    return result


def _pack(game, together):
    mine = defaultdict(dict)
    for pair, partnership in game.pairs.items():
        for member in pair:
            mine[member][pair] = partnership
    flows = defaultdict(dict)
    for pair, points in game.taken.items():
        for member in pair:
            flows[member][pair] = points
    packed = {"season": pickle.dumps(game)}
    for player_id in game.names:
        met = together.get(player_id, {})
        piece = PlayerGame(
            counts=game.counts.get(player_id, Counter()),
            pairs=mine.get(player_id, {}),
            taken=flows.get(player_id, {}),
            together=dict(met),
            names={other: game.names[other] for other in met},
        )
        packed[player_id] = pickle.dumps(piece)
    return packed


def packed_games(seasons):
    """`{season pk: {"season": pickled SeasonGame, player id: pickled PlayerGame}}`, cached."""
    return cached_many("stats:game", list(seasons), _no_date, _game_of_seasons)


def season_game(season):
    """The `SeasonGame` of one season."""
    return pickle.loads(packed_games([season])[season.pk]["season"])


def season_players(season):
    """The pks of the players of `season`'s homologated rounds."""
    return [pk for pk in packed_games([season])[season.pk] if pk != "season"]


def player_games(player, seasons):
    """`{season pk: PlayerGame}` of one player in `seasons` (`EMPTY` where he did not play)."""
    packed = packed_games(seasons)
    return {
        pk: pickle.loads(every[player.pk]) if player.pk in every else EMPTY for pk, every in packed.items()
    }


# --- records -------------------------------------------------------------------------------------


@dataclass
class SeasonRecords:
    results: dict  # player id -> [Result], counted rounds in the order played
    names: dict  # player id -> name
    podium: list  # (rank, player id, points) of a closed season's final ranking, top 3
    champion: int | None  # player id, a closed season's Champion du Monde
    points: dict  # player id -> season points of a closed season, ranked players (best season)


def _records_of_seasons(seasons):
    counted = {f"round__{key}": value for key, value in COUNTING.items()}
    by_round = defaultdict(list)
    names = defaultdict(dict)
    season_of = {}
    for row in (
        Seat.objects.filter(round__season__in=seasons, **counted)
        .values_list(
            "player_id", "round_id", "round__date", "round__number", "round__season__name", "rank", "total",
            "round__season_id", "player__name",
        )
        .order_by("round__date", "round__number")
    ):  # fmt: skip
        by_round[row[1]].append(row[:7])
        names[row[7]][row[0]] = row[8]
        season_of[row[1]] = row[7]
    results = defaultdict(lambda: defaultdict(list))
    for round_id, seats in by_round.items():
        for player_id, result in round_results(seats):
            results[season_of[round_id]][player_id].append(result)
    closed = [season for season in seasons if not season.is_open]
    standings = seasons_standings(closed) if closed else {}
    cup_rounds = cup_rounds_of(closed) if closed else {}
    pieces = []
    for season in seasons:
        podium, champion, points = [], None, {}
        if season in closed:
            ranked = standings[season.pk].ranked
            podium = [(row.rank, row.player.pk, row.points) for row in ranked if row.rank <= 3]
            points = {row.player.pk: row.points for row in ranked}
            winner = cup_champion(season, standings[season.pk], cup_rounds[season.pk])
            champion = winner.pk if winner else None
            names[season.pk].update({row.player.pk: row.player.name for row in ranked})
            if winner:
                names[season.pk][winner.pk] = winner.name
        pieces.append(
            SeasonRecords(
                results={pk: list(items) for pk, items in results[season.pk].items()},
                names=names[season.pk],
                podium=podium,
                champion=champion,
                points=points,
            )
        )
    return pieces


@dataclass
class PlayerRecords:
    """One player's share of a `SeasonRecords`."""

    results: list  # [Result], his counted rounds in the order played
    podium: tuple | None  # (rank, points) when on the podium of a closed season
    champion: bool
    points: int | None  # his season points of a closed season, when ranked


NO_RECORDS = PlayerRecords([], None, False, None)


def _pack_records(records):
    podium = {pk: (rank, value) for rank, pk, value in records.podium}
    packed = {"season": pickle.dumps(records)}
    for pk in records.names:
        piece = PlayerRecords(
            records.results.get(pk, []), podium.get(pk), records.champion == pk, records.points.get(pk)
        )
        packed[pk] = pickle.dumps(piece)
    return packed


def packed_records(seasons):
    """`{season pk: {"season": pickled SeasonRecords, player id: pickled PlayerRecords}}`, cached."""
    return cached_many(
        "stats:records",
        list(seasons),
        _no_date,
        lambda missing: map(_pack_records, _records_of_seasons(missing)),
    )


def season_records(seasons):
    """`{season pk: SeasonRecords}`."""
    return {pk: pickle.loads(packed["season"]) for pk, packed in packed_records(seasons).items()}


def player_records(player, seasons):
    """`{season pk: PlayerRecords}` of one player in `seasons` (`NO_RECORDS` where he has none)."""
    return {
        pk: pickle.loads(every[player.pk]) if player.pk in every else NO_RECORDS
        for pk, every in packed_records(seasons).items()
    }


# --- the pages' figures --------------------------------------------------------------------------


def cached_page(kind, seasons, compute):
    """`compute()`, a page's figures read from `seasons`, cached under their tokens: those of one
    season as its other figures (`championship.lib.summaries.cached`); those of several under a key
    of every token, kept with the figures of the latest season (whose state changes most often:
    a file cache drops them with its state). Computed, not stored, when a season has no token
    yet or the running transaction wrote to one of them. One token read, whatever the number of
    seasons (the latest season's token is not read again to store the figures beside it)."""
    seasons = list(seasons)
    if len(seasons) == 1:
        return cached(kind, seasons[0], None, compute)
    if not seasons:
        return compute()
    tokens = read_tokens([season.pk for season in seasons])
    if len(tokens) < len(seasons) or any(here for _token, here in tokens.values()):
        return compute()
    every = "|".join(f"{pk}:{token}" for pk, (token, _here) in sorted(tokens.items()))
    digest = hashlib.blake2b(every.encode(), digest_size=12).hexdigest()
    latest = max(seasons, key=lambda season: (season.start_date, season.pk))
    found = cached_many(
        f"{kind}:{digest}", [latest], _no_date, lambda _latest: [compute()], {latest.pk: tokens[latest.pk]}
    )
    return found[latest.pk]


def cached_body(kind, seasons, render, *, player=None):
    """`render()`, the body of a page read from `seasons` (HTML in the active language), cached as
    its figures are (`cached_page`, or `player_cached` for a page read from one `player`'s
    pieces): rendered once per state of those seasons (or of his pieces) and language."""
    kind = body_kind(kind)
    if player is not None:
        return player_cached(kind, player, seasons, render)
    return cached_page(kind, seasons, render)


def body_kind(kind):
    """The name in the cache of the body of the page `kind` in the active language."""
    return f"html:{kind}:{get_language()}"


# --- a player's page, kept under his own pieces --------------------------------------------------


def fingerprints(players, seasons):
    """`{player pk: digest}` of all that a player's page over `seasons` reads: his name, each
    season's pk, name and whether it is open, and his own piece of each season's game and records
    (their pickled bytes, as cached). Two equal digests, two equal pages."""
    games, records = packed_games(seasons), packed_records(seasons)
    found = {}
    for player in players:
        digest = hashlib.blake2b(f"{player.pk}:{player.name}".encode(), digest_size=16)
        for season in seasons:
            digest.update(f"|{season.pk}:{season.name}:{season.is_open}|".encode())
            digest.update(games[season.pk].get(player.pk, b""))
            digest.update(b"|")
            digest.update(records[season.pk].get(player.pk, b""))
        found[player.pk] = digest.hexdigest()
    return found


def _digest_key(kind, digest):
    return f"{PREFIX}:{kind}#{digest}"


def seen_key(kind):
    """Where the digest of the last computation of a player's page `kind` is noted."""
    return f"{PREFIX}:seen/{kind}"


def player_cached(kind, player, seasons, compute):
    """`compute()`, figures or body of `player`'s page read from his own pieces of `seasons`
    (`player_games`, `player_records`): cached under the seasons' tokens (`cached_page`: a warm
    read is one cache read), and behind them under the digest of his pieces (`fingerprints`). A
    write to a season gives it a new token, so every player's page of it is looked up again; a
    player who did not sit at the written table has the same pieces, hence the same page, read
    again under its digest rather than computed. Each look notes the digest (`seen_key`), so the
    warming after a write computes again the pages that were read and that the write changed
    (`stale_player_pages`)."""

    def by_digest():
        digest = fingerprints([player], seasons)[player.pk]
        found = _by_digest(kind, digest, compute)
        cache.set(seen_key(kind), digest, TIMEOUT)
        return found

    return cached_page(kind, seasons, by_digest)


def _by_digest(kind, digest, compute):
    key = _digest_key(kind, digest)
    found = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, TIMEOUT)
    return found


def rendered_once(kind, data, render):
    """`render()`, the body of a page that shows `data` and nothing else (with the words of the
    active language), cached under a digest of `data`: rendered once per content and language,
    whatever else a write to its seasons changed."""
    digest = hashlib.blake2b(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL), digest_size=16)
    return _by_digest(body_kind(kind), digest.hexdigest(), render)


def stale_player_pages(kinds, seasons):
    """The players of `kinds` (`{Player: kind of his page over seasons}`) whose page was read
    (`seen_key`) for other pieces than they have now: those a write changed since."""
    if not kinds:
        return []
    prints = fingerprints(list(kinds), seasons)
    seen = cache.get_many([seen_key(kind) for kind in kinds.values()])
    return [
        player for player, kind in kinds.items() if seen.get(seen_key(kind)) not in (None, prints[player.pk])
    ]
