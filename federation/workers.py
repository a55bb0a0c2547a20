"""A small pool of background threads of the process, for work done off a request: the mails
(`federation.outbox`) have one, the group chat's webhooks (`webhooks.delivery`) another, so that
a slow chat never holds a mail (docs/exploitation.md, « Annonces dans la discussion de groupe »).

``Workers(name, size, failure)``: ``send_later(job, *args)`` runs ``job(*args)`` on one of its
``size`` threads (named after ``name``), in the order given, and returns at once; a job that
raises is logged (logger ``federation.workers``, the words ``failure`` and the job's name), never
shown to the caller; each job closes the database connections its thread opened. ``wait``
waits for the jobs handed over so far. A process forked from one that had a pool makes its own
(threads do not survive a fork). Jobs still waiting when the process stops are run before it
exits (the pool's threads are joined then, within the time the server gives a stopping worker).
"""

import concurrent.futures
import logging
import os
import threading

from django.db import connections

logger = logging.getLogger(__name__)


class Workers:
    def __init__(self, name, size, failure):
        self.name, self.size, self.failure = name, size, failure
        self._lock = threading.Lock()
        self._executor = None
        self._pid = None
        self._pending = set()

    def _pool(self):
        """The pool of this process (made again in a process forked from one that had one)."""
        with self._lock:
            if self._executor is None or self._pid != os.getpid():
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=self.size, thread_name_prefix=self.name
                )
                self._pid = os.getpid()
                self._pending.clear()
            return self._executor

    def _run(self, job, args):
        try:
            job(*args)
        except Exception:
            logger.exception("%s (%s)", self.failure, getattr(job, "__name__", job))
        finally:
            connections.close_all()  # the connections this thread opened (they are per thread)

    def _forget(self, future):
        with self._lock:
            self._pending.discard(future)

    def send_later(self, job, *args):
        """Run ``job(*args)`` off the caller, on this pool's threads; returns at once."""
        future = self._pool().submit(self._run, job, args)
        with self._lock:
            self._pending.add(future)
        future.add_done_callback(self._forget)
        return future

    def wait(self, timeout=None):
        """Wait until every job handed over so far has run; False if ``timeout`` (seconds) ran out."""
        with self._lock:
            pending = list(self._pending)
        _done, not_done = concurrent.futures.wait(pending, timeout)
        return not not_done
