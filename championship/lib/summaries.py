"""A season's computed figures (standings, reports due, pieces of pages) kept in Django's cache,
and always the database's figures.

A figure is stored under its season's *token* (`championship.lib.figure_tokens`): random, kept in
the database, changed by a trigger in the same transaction as every write of a row the figure is
computed from. A figure is stored only when it was computed inside a read snapshot
(`federation.snapshot`: every GET request, the commands that print figures), where the token and
every row it is computed from are read from one state of the database; and never by a
transaction that wrote to the season (PostgreSQL tells, see `read_tokens`). So a key holds the
figures of exactly the state that carries its token:

- once a write has committed, every later read finds the new token, hence new figures;
- a restore brings back a state and its tokens: the figures cached for them are right again;
- another database has other tokens; an entry dropped from the cache costs a computation.

Outside a snapshot (a page answering a POST, a service, a test's transaction) figures are read
from the cache if they are there and otherwise computed, not stored.

Computed once: when a figure is missing, one process computes it while the others wait for it
(a lock taken with the cache's atomic `add`, for at most `WAIT` seconds, then each computes
anyway); each computation is logged (logger `championship.figures`, level INFO).

The cache must be shared by every process that serves the site: local memory in development
(one process), files under `media/cache/` on one machine (`federation.cache.FileCache`), Redis
for several machines (`CACHE_URL`, see docs/exploitation.md).
"""

from __future__ import annotations

import logging
import time
import uuid

from django.core.cache import cache
from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import get_language

from championship.lib.figure_tokens import read_tokens
from federation.snapshot import in_read_snapshot

# v5: the statistics' rows of players carry their `player_pk` (« Moi », federation.my_rows)
PREFIX = "tarot:v6"
TIMEOUT = 7 * 24 * 3600  # figures of a date nobody asks for any more leave by themselves
LOCK_TIMEOUT = 30  # seconds a lock outlives a worker killed while computing (gunicorn's timeout)
WAIT = 10.0  # seconds a reader waits for another's computation before computing itself
POLL = (0.005, 0.1)  # first and longest pause between two looks at the cache while waiting

logger = logging.getLogger("championship.figures")

# Sent once a transaction that wrote to a season has committed (`season_pk`): the figures of the
# season are computed again in the background (`championship.views.warming`).
written = Signal()


def season_written(season):
    """A service writes to `season` (a Season or its pk): `written` is sent after the commit.
    The figures' token needs no call: the database changes it (`championship.lib.figure_tokens`)."""
    pk = getattr(season, "pk", season)
    transaction.on_commit(lambda: written.send(sender=None, season_pk=pk))


def figure_key(kind, pk, token, as_of):
    # `…@token/…`: the file cache keeps a generation in a folder of its own (federation.cache)
    return f"{PREFIX}:season{pk}@{token}/{kind}:{as_of.isoformat() if as_of else ''}"


def cached(kind, season, as_of, compute):
    """`compute()`, the figures `kind` of `season` as of `as_of`, read from the cache when they
    were computed for the state of the database the reading sees."""
    return cached_many(kind, [season], lambda _season: as_of, lambda seasons: [compute()])[season.pk]


def cached_many(kind, seasons, as_of, compute, tokens=None):
    """`{season pk: figures}` of several seasons with one token read and one cache read:
    `as_of(season)` gives the date of each, `compute(seasons)` the figures of those not cached,
    in their order. `tokens`: the seasons' tokens as `read_tokens` gave them in the same read
    snapshot, not read again."""
    seasons = list(seasons)
    if not seasons:
        return {}
    if tokens is None:
        tokens = read_tokens([season.pk for season in seasons])
    storing = in_read_snapshot()
    keys, stored = {}, set()
    for season in seasons:
        token, changed_here = tokens.get(season.pk, (None, True))
        if not changed_here:
            keys[season.pk] = figure_key(kind, season.pk, token, as_of(season))
            if storing:
                stored.add(season.pk)
    found = cache.get_many(list(keys.values())) if keys else {}
    result = {pk: found[key] for pk, key in keys.items() if key in found}
    missing = [season for season in seasons if season.pk not in result]
    if not missing:
        return result
    locks = {pk: f"{keys[pk]}:lock" for pk in stored if pk not in result}
    owner = uuid.uuid4().hex
    mine = {pk for pk, lock in locks.items() if cache.add(lock, owner, LOCK_TIMEOUT)}
    try:
        if mine:  # stored by another between our look and our lock
            again = cache.get_many([keys[pk] for pk in mine])
            result.update({pk: again[keys[pk]] for pk in mine if keys[pk] in again})
        others = [season for season in missing if season.pk in locks and season.pk not in mine]
        if others:
            result.update(_wait_for({season.pk: keys[season.pk] for season in others}, locks))
        missing = [season for season in missing if season.pk not in result]
        if missing:
            computed = dict(
                zip([season.pk for season in missing], _compute(kind, compute, missing), strict=True)
            )
            cache.set_many({keys[pk]: value for pk, value in computed.items() if pk in stored}, TIMEOUT)
            result.update(computed)
    finally:
        if mine:
            cache.delete_many([locks[pk] for pk in mine])
    return result


def _compute(kind, compute, seasons):
    started = time.perf_counter()
    values = compute(seasons)
    logger.info(
        "calcul %s saisons %s en %.1f ms",
        kind,
        ",".join(str(season.pk) for season in seasons),
        (time.perf_counter() - started) * 1000,
    )
    return values


def _wait_for(keys, locks):
    """`{pk: figures}` of those of `keys` (`{pk: key}`) another process stores within `WAIT`,
    while it holds their lock (`{pk: lock}`): a lock released without figures (the computation
    failed) is not waited for."""
    deadline = time.monotonic() + WAIT
    pause, longest = POLL
    found = {}
    while keys and time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, longest)
        # the locks first: the figures are stored before their lock goes, so a lock seen gone
        # with no figures read after it means a computation that failed
        held = cache.get_many([locks[pk] for pk in keys])
        values = cache.get_many(list(keys.values()))
        for pk, key in list(keys.items()):
            if key in values:
                found[pk] = values[key]
            if key in values or locks[pk] not in held:
                del keys[pk]
    return found


def cached_html(name, season, as_of, render):
    """`render()`, a piece of a page about `season` (as of `as_of`) in the active language,
    read from the cache when it was rendered for the state of the database the reading sees."""
    return cached(f"html:{name}:{get_language()}", season, as_of, render)
