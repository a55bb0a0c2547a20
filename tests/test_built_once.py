"""`tests.databases.built_once`: the lock under which the run's shared databases are built.

A check that fails while the lock is held (the PostgreSQL server down, say) must let the lock
go: the error is the test's, and the next test of the same process that needs the same database
must get the error again, not wait forever for a lock its own process still holds (a `flock`
taken twice by one process through two opened files waits for itself)."""

import fcntl

import pytest

from tests.databases import built_once


def lock_is_free(path):
    with open(path, "w") as other:
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(other, fcntl.LOCK_UN)
        return True


def test_a_check_that_fails_lets_the_lock_go(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    def server_down():
        raise ConnectionRefusedError("connexion refusée")

    with pytest.raises(ConnectionRefusedError) as raised, built_once("tarot-biere-essai", server_down):
        pass
    # The error is kept (pytest keeps a failed test's), and its frames with it: the lock must be
    # let go all the same, not only when the error is forgotten.
    assert raised.traceback
    assert lock_is_free(tmp_path / "tarot-biere-essai.lock")


def test_the_lock_is_held_while_building_and_let_go_after(tmp_path, monkeypatch):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    lock = tmp_path / "tarot-biere-essai.lock"
    with built_once("tarot-biere-essai", lambda: False) as missing:
        assert missing
        assert not lock_is_free(lock)
    assert lock_is_free(lock)
