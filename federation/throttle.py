"""A counter of requests in a window, in the site's cache (CACHES): how the site limits what can
be guessed or flooded (password reset links, federation.accounts; signing codes at the table,
championship.views.table). The window starts with the first request and lasts `window`; every
request counts, granted or not."""

import hashlib

from django.core.cache import cache


def within_limit(scope, value, limit, window):
    """Count one request for `value` (an address, a round and a player…) under `scope` (« what
    is counted »); False once more than `limit` came in the window (a `datetime.timedelta`)."""
    seconds = int(window.total_seconds())
    key = f"{scope}:{hashlib.sha256(value.encode()).hexdigest()}"
    cache.add(key, 0, timeout=seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between the two calls
        cache.set(key, 1, timeout=seconds)
        count = 1
    return count <= limit
