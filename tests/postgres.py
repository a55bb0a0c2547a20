"""A PostgreSQL database of a test's own, beside the one TEST_POSTGRES_URL names (CI starts the
server, see .ci/run): for tests that run commands or threads against a real server and must not
share a database with the others."""

import os
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")


@contextmanager
def side_database(suffix):
    """Create `<name>_<suffix>` on the server of TEST_POSTGRES_URL, give its URL, drop it after."""
    import psycopg

    parts = urlsplit(POSTGRES_URL)
    name = f"{parts.path.lstrip('/')}_{suffix}"
    admin = psycopg.connect(POSTGRES_URL, autocommit=True)
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
