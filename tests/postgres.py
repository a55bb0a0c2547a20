"""A PostgreSQL database of a test's own, beside the one TEST_POSTGRES_URL names (CI starts the
server, see .ci/run): for tests that run commands or threads against a real server and must not
share a database with the others."""

import os
import time
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")


@contextmanager
def side_database(suffix, template=None):
    """Create `<name>_<suffix>_<worker>` on the server of TEST_POSTGRES_URL, give its URL, drop it
    after. The worker's name (an xdist worker's, « main » without xdist) keeps two test processes
    of one run off each other's database. `template`: "migrated" or "demo", a copy of that
    database (tests/databases.py) rather than an empty one."""
    import psycopg

    from tests.databases import postgres_template

    parts = urlsplit(POSTGRES_URL)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"{parts.path.lstrip('/')}_{suffix}_{worker}"
    source = f' TEMPLATE "{postgres_template(POSTGRES_URL, template)}"' if template else ""
    admin = psycopg.connect(POSTGRES_URL, autocommit=True)
    drop_database(admin, name)
    admin.execute(f'CREATE DATABASE "{name}"{source}')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        drop_database(admin, name)
        admin.close()


def drop_database(admin, name, attempts=20):
    """Drop `name`, ending the test's own connections to it first.

    Not ``WITH (FORCE)``: that refuses, for a role that is not a superuser, when an autovacuum
    worker happens to be in the database (seen once in CI after the races' writes); a plain
    ``DROP DATABASE`` asks such a worker to stop and waits for it. A connection of the test
    that is still closing is retried for a few seconds."""
    import psycopg

    for attempt in range(attempts):
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND usename = current_user AND pid <> pg_backend_pid()",
            [name],
        )
        try:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            return
        except psycopg.errors.ObjectInUse:
            if attempt == attempts - 1:
                raise
            time.sleep(0.25)
