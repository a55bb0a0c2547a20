"""The file cache of one machine (`federation.cache.FileCache`): an atomic `add`, a season's
generations kept apart and the superseded ones removed whole, and an entry limit that never
drops a live entry at random (issue 20: after 189 writes Django's cull deleted a random third of
the cache, live figures and generation tokens included)."""

import os
import threading
import time

import pytest

from federation import cache as file_cache
from federation.cache import FileCache


@pytest.fixture
def cache(tmp_path):
    return FileCache(str(tmp_path / "cache"), {"OPTIONS": {"MAX_ENTRIES": 10}})


class MovedClock:
    """`time.time`, ahead of the real clock by what the test `advance`d it."""

    def __init__(self):
        self.real_time, self.ahead = time.time, 0.0

    def __call__(self):
        return self.real_time() + self.ahead

    def advance(self, seconds):
        self.ahead += seconds


@pytest.fixture
def clock(monkeypatch):
    """The clock of the cache (and of Django's file cache under it), moved on by the test rather
    than waited for: `clock.advance(seconds)`. Expiry times are written from it and compared to
    it; the files' own modification times stay the real ones."""
    moved = MovedClock()
    monkeypatch.setattr(time, "time", moved)
    return moved


def entry_files(cache):
    return sorted(cache._list_cache_files())


def age(cache, key, seconds):
    """Make the folder of `key`'s generation look written `seconds` ago."""
    folder = os.path.dirname(cache._key_to_file(key))
    past = time.time() - seconds
    os.utime(folder, (past, past))


def test_add_is_atomic_between_threads(cache):
    barrier = threading.Barrier(40)
    won = []

    def add(index):
        barrier.wait()
        if cache.add("tarot:v2:season1@abc/standings:lock", index, 30):
            won.append(index)

    threads = [threading.Thread(target=add, args=(index,)) for index in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(won) == 1
    assert cache.get("tarot:v2:season1@abc/standings:lock") == won[0]


def test_add_takes_the_place_of_an_expired_entry(cache, clock):
    assert cache.add("lock", "first", 1)
    assert not cache.add("lock", "second", 30)
    clock.advance(1.1)
    assert cache.add("lock", "third", 30)
    assert cache.get("lock") == "third"


def test_a_new_generation_removes_the_superseded_ones_of_its_season_only(cache):
    cache.set("tarot:v2:season1@old/standings:", "old figures", 300)
    cache.set("tarot:v2:season1@old/html:standings:fr:", "old table", 300)
    cache.set("tarot:v2:season2@other/standings:", "another season", 300)
    age(cache, "tarot:v2:season1@old/standings:", file_cache.GRACE + 5)
    age(cache, "tarot:v2:season2@other/standings:", file_cache.GRACE + 5)

    cache.set("tarot:v2:season1@new/standings:", "new figures", 300)

    assert cache.get("tarot:v2:season1@old/standings:") is None
    assert cache.get("tarot:v2:season1@old/html:standings:fr:") is None
    assert cache.get("tarot:v2:season1@new/standings:") == "new figures"
    assert cache.get("tarot:v2:season2@other/standings:") == "another season"


def test_a_generation_written_a_moment_ago_is_kept(cache):
    """A read that began before the write may still store under the old token: not removed
    under its feet."""
    cache.set("tarot:v2:season1@old/standings:", "old figures", 300)
    cache.set("tarot:v2:season1@new/standings:", "new figures", 300)
    assert cache.get("tarot:v2:season1@old/standings:") == "old figures"


def test_the_live_generation_keeps_every_entry_whatever_the_limit(cache):
    for index in range(50):  # five times MAX_ENTRIES
        cache.set(f"tarot:v2:season1@live/piece{index}:", index, 300)
    assert [cache.get(f"tarot:v2:season1@live/piece{index}:") for index in range(50)] == list(range(50))


def test_the_limit_drops_expired_entries_then_the_oldest_never_at_random(cache, clock):
    for index in range(5):
        cache.set(f"expired{index}", index, 1)
    clock.advance(1.1)
    for index in range(5):
        cache.set(f"kept{index}", index, 300)
        time.sleep(0.01)
    cache.set("one-more", "x", 300)  # 11 entries: over the limit
    assert [cache.get(f"expired{index}") for index in range(5)] == [None] * 5
    assert [cache.get(f"kept{index}") for index in range(5)] == list(range(5))
    assert cache.get("one-more") == "x"


def test_clear_removes_the_generations_too(cache):
    cache.set("tarot:v2:season1@live/standings:", 1, 300)
    cache.set("plain", 2, 300)
    assert len(entry_files(cache)) == 2
    cache.clear()
    assert entry_files(cache) == []
    assert cache.get("tarot:v2:season1@live/standings:") is None


def test_incr_counts_every_increment_between_threads(cache):
    """The password reset's limits count with `incr`: none lost when requests come together."""
    assert cache.add("reset:client:1.2.3.4", 0, 300)
    barrier = threading.Barrier(30)

    def count():
        barrier.wait()
        for _ in range(5):
            cache.incr("reset:client:1.2.3.4")

    threads = [threading.Thread(target=count) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert cache.get("reset:client:1.2.3.4") == 150


def test_incr_of_a_missing_or_expired_key_says_so(cache, clock):
    with pytest.raises(ValueError):
        cache.incr("absent")
    cache.set("short", 1, 1)
    clock.advance(1.1)
    with pytest.raises(ValueError):
        cache.incr("short")
