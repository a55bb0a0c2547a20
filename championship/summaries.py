"""A season's computed figures (standings, reports due, cup champion) kept in Django's cache,
never served stale.

Every key holds the season's *generation*, a random token kept in the cache itself, and the
as-of date of the figures (the late-report malus grows by the day). A write that can change a
figure of a season calls `season_changed` (the services do it once, when they lock a round,
create one or replace the rulebook; a saved Season or Player does it through signals): after
its transaction commits, the season's generation is dropped, so the next read computes afresh
under a new token and nothing computed before the write is read again. A read that computed
from data older than a concurrent write stores it under the old token, which nobody reads.

Inside a transaction that changed a season (a test, a command, a service reading back), the
figures of that season are computed afresh and not cached: they may still be rolled back.

The cache must be shared by every process that serves the site, or a write in one process
would not be seen by the others: by default it is local memory in development (one process) and
files under `media/cache/` otherwise, which every process of the machine shares; `CACHE_URL`
names another (see the README).
"""

from __future__ import annotations

import threading
import uuid

from django.core.cache import cache
from django.db import connection, transaction
from django.utils.translation import get_language

PREFIX = "tarot:v1"
EVERYTHING = "all"  # the generation of every season at once (a player renamed)
TIMEOUT = 7 * 24 * 3600  # figures of a date nobody asks for any more leave by themselves

_state = threading.local()


def _changed():
    """Seasons changed by the transaction running in this thread (EVERYTHING for all of them)."""
    if not hasattr(_state, "seasons"):
        _state.seasons = set()
    return _state.seasons


def _generation_key(pk):
    return f"{PREFIX}:generation:{pk}"


def season_changed(season):
    """A write changed `season` (a Season or its id; None: every season): its cached figures
    are dropped once the transaction commits, and not cached by this thread until then."""
    pk = EVERYTHING if season is None else getattr(season, "pk", season)
    if pk is None:
        return
    _changed().add(pk)
    transaction.on_commit(lambda: _committed(pk))


def _committed(pk):
    _changed().discard(pk)
    cache.delete(_generation_key(pk))


def _uncached(pk):
    changed = _changed()
    if not connection.in_atomic_block:
        changed.clear()  # a transaction rolled back: nothing it wrote is left to hide
        return False
    return pk in changed or EVERYTHING in changed


def _generations(pks):
    """`{pk: token}` of the seasons and of EVERYTHING, a new token for those without one."""
    keys = {pk: _generation_key(pk) for pk in [*pks, EVERYTHING]}
    found = cache.get_many(list(keys.values()))
    tokens = {}
    for pk, key in keys.items():
        token = found.get(key)
        if token is None:
            token = uuid.uuid4().hex
            if not cache.add(key, token, None):
                token = cache.get(key) or token
        tokens[pk] = token
    return tokens


def _key(kind, pk, tokens, as_of):
    return f"{PREFIX}:{kind}:{pk}:{tokens[pk]}:{tokens[EVERYTHING]}:{as_of.isoformat() if as_of else ''}"


def cached(kind, season, as_of, compute):
    """`compute()`, the figures `kind` of `season` as of `as_of`, read from the cache when they
    were computed since the season's last write."""
    return cached_many(kind, [season], lambda _season: as_of, lambda seasons: [compute()])[season.pk]


def cached_many(kind, seasons, as_of, compute):
    """`{season pk: figures}` of several seasons with one cache read: `as_of(season)` gives the
    date of each, `compute(seasons)` the figures of those not cached, in their order."""
    seasons = list(seasons)
    bypass = [season for season in seasons if _uncached(season.pk)]
    cacheable = [season for season in seasons if season not in bypass]
    result = {}
    keys = {}
    if cacheable:
        tokens = _generations([season.pk for season in cacheable])
        keys = {season.pk: _key(kind, season.pk, tokens, as_of(season)) for season in cacheable}
        found = cache.get_many(list(keys.values()))
        result = {pk: found[key] for pk, key in keys.items() if key in found}
    missing = [season for season in seasons if season.pk not in result]
    if missing:
        computed = dict(zip([season.pk for season in missing], compute(missing), strict=True))
        cache.set_many({keys[pk]: value for pk, value in computed.items() if pk in keys}, TIMEOUT)
        result.update(computed)
    return result


def cached_html(name, season, as_of, render):
    """`render()`, a piece of a page about `season` (as of `as_of`) in the active language,
    read from the cache when it was rendered since the season's last write."""
    return cached(f"html:{name}:{get_language()}", season, as_of, render)
