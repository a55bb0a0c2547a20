"""The small pool of background threads (`federation.workers.Workers`) that the mails and the
webhooks each have one of: jobs run off the caller, in order; one failing is logged with the
pool's words; `wait` says whether the jobs handed over so far have all run; two pools never
share a thread."""

import logging
import threading

from federation.workers import Workers


def test_jobs_run_off_the_caller_and_wait_sees_them_done():
    pool = Workers("essai", 2, "travail non fait")
    seen = []
    for number in range(5):
        pool.send_later(lambda n: seen.append((n, threading.current_thread().name)), number)
    assert pool.wait(10)
    assert sorted(n for n, _name in seen) == [0, 1, 2, 3, 4]
    assert all(name.startswith("essai") for _n, name in seen)


def test_a_failing_job_is_logged_and_the_pool_goes_on(caplog):
    pool = Workers("essai", 1, "travail non fait")

    def broken():
        raise RuntimeError("en panne")

    done = threading.Event()
    with caplog.at_level(logging.ERROR, logger="federation.workers"):
        pool.send_later(broken)
        pool.send_later(done.set)
        assert pool.wait(10)
    assert done.is_set()
    assert "travail non fait (broken)" in caplog.text and "en panne" in caplog.text


def test_a_busy_pool_holds_neither_the_other_nor_the_caller():
    busy, free = Workers("occupé", 1, "x"), Workers("libre", 1, "y")
    release, ran = threading.Event(), threading.Event()
    busy.send_later(release.wait, 10)
    free.send_later(ran.set)
    assert free.wait(5) and ran.is_set()
    assert not busy.wait(0.2)  # still held: `wait` says so within its time
    release.set()
    assert busy.wait(10)
