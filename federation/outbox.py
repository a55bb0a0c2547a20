"""E-mails sent off the request (the password reset link): a page never waits for the mail
server, so that it answers as fast whether or not a message leaves, and a slow server holds no
worker.

Each job runs on a small pool of threads of the process (``WORKERS``), started in the order
given (so two may be under way at once and finish in either order), with the configured e-mail
backend (``EMAIL_TIMEOUT`` bounds each exchange). A job that fails is
logged (logger ``federation.outbox``), never shown to the visitor. Jobs still waiting when the
process stops are run before it exits (the pool's threads are joined then, within the time the
server gives a stopping worker). ``wait`` lets the
tests, and anything else that must, wait for the jobs handed over so far.
"""

import concurrent.futures
import logging
import os
import threading

from django.db import connections

logger = logging.getLogger(__name__)

WORKERS = 2  # messages sent at once by one process

_lock = threading.Lock()
_executor = None
_executor_pid = None
_pending = set()


def _pool():
    """The pool of this process (made again in a process forked from one that had one)."""
    global _executor, _executor_pid
    with _lock:
        if _executor is None or _executor_pid != os.getpid():
            _executor = concurrent.futures.ThreadPoolExecutor(
                max_workers=WORKERS, thread_name_prefix="tarot-outbox"
            )
            _executor_pid = os.getpid()
            _pending.clear()
        return _executor


def _run(job, args):
    try:
        job(*args)
    except Exception:
        logger.exception("courriel non envoyé (%s)", getattr(job, "__name__", job))
    finally:
        connections.close_all()  # the connections this thread opened (they are per thread)


def _forget(future):
    with _lock:
        _pending.discard(future)


def send_later(job, *args):
    """Run ``job(*args)`` off the request, on the outbox's threads; returns at once."""
    future = _pool().submit(_run, job, args)
    with _lock:
        _pending.add(future)
    future.add_done_callback(_forget)
    return future


def wait(timeout=None):
    """Wait until every job handed over so far has run; False if ``timeout`` (seconds) ran out."""
    with _lock:
        pending = list(_pending)
    _done, not_done = concurrent.futures.wait(pending, timeout)
    return not not_done
