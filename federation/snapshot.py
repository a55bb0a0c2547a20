"""Reads in one snapshot of the database: every query of a page sees the same committed state.

`read_snapshot()` opens a transaction that sees one state of the database from its first read to
its end, whatever other connections commit meanwhile: REPEATABLE READ on PostgreSQL; on SQLite
(WAL), a deferred transaction, which holds its snapshot from its first read without taking the
write lock, so writers go on. `ReadSnapshotMiddleware` reads every GET and HEAD request in one;
the commands that print figures open their own.

Cached figures are stored only when computed inside a snapshot (`in_read_snapshot`), together
with a token read in the same snapshot (`championship.lib.summaries`): so what a key holds is the
figures of the one state of the database that carries its token.

Inside a transaction opened by someone else (a service, a test), `read_snapshot()` opens
nothing: the caller's transaction is what the reads see, and nothing is stored from it.
"""

import functools
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction

SAFE_METHODS = ("GET", "HEAD")


@contextmanager
def read_snapshot(using=DEFAULT_DB_ALIAS):
    connection = connections[using]
    if connection.in_atomic_block:
        yield
        return
    connection.ensure_connection()
    sqlite = connection.vendor == "sqlite"
    if sqlite:
        # The settings make every transaction IMMEDIATE (it takes the write lock when it begins):
        # a snapshot only reads, and must not hold writers back.
        mode, connection.transaction_mode = connection.transaction_mode, "DEFERRED"
    try:
        with transaction.atomic(using=using):
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            connection.tarot_snapshot = True
            try:
                yield
            finally:
                connection.tarot_snapshot = False
    finally:
        if sqlite:
            connection.transaction_mode = mode


def in_read_snapshot(using=DEFAULT_DB_ALIAS):
    """Whether the running code reads inside a `read_snapshot()` of its own."""
    connection = connections[using]
    return connection.in_atomic_block and getattr(connection, "tarot_snapshot", False)


class ReadSnapshotMiddleware:
    """Every GET and HEAD request reads one state of the database (see `read_snapshot`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in SAFE_METHODS:
            return self.get_response(request)
        with read_snapshot():
            return self.get_response(request)


def reads_one_snapshot(function):
    """`function` (a command's `handle`) reads one state of the database (see `read_snapshot`)."""

    @functools.wraps(function)
    def reading(*args, **kwargs):
        with read_snapshot():
            return function(*args, **kwargs)

    return reading
