"""A counter of requests in a window, in the site's cache (CACHES): how the site limits what can
be guessed or flooded (password reset links and address confirmations, federation.accounts;
private links' failed guesses, federation.private_links; signing codes at the table,
championship.views.table). The window starts with the first request and lasts `window`; every
request counts, granted or not."""

import hashlib

from django.core.cache import cache
from django.utils import timezone


def _key(scope, value):
    return f"{scope}:{hashlib.sha256(value.encode()).hexdigest()}"


def within_limit(scope, value, limit, window):
    """Count one request for `value` (an address, a round and a player…) under `scope` (« what
    is counted »); False once more than `limit` came in the window (a `datetime.timedelta`)."""
    seconds = int(window.total_seconds())
    key = _key(scope, value)
    if cache.add(key, 0, timeout=seconds):
        cache.set(f"{key}:since", timezone.now(), timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between the two calls
        cache.set(key, 1, timeout=seconds)
        cache.set(f"{key}:since", timezone.now(), timeout=seconds)
        count = 1
    return count <= limit


def counted(scope, value):
    """How many requests `within_limit` counted for `value` under `scope` in the current window
    (asking counts nothing)."""
    return cache.get(_key(scope, value), 0)


def window_start(scope, value):
    """When the current window of `scope` for `value` began (None: no window)."""
    return cache.get(f"{_key(scope, value)}:since")
