"""Databases built once for the whole run: a migrated empty one and one holding the demo, as
`manage.py migrate` and `manage.py demo` leave them (docs/exploitation.md, « La suite de tests »).

Both commands take seconds of a child process each; the tests whose subject they are not (a
backup's round trip, two sites on one cache, the races) start from a copy instead. A SQLite
database is a file in the temporary folder, a PostgreSQL one a template database on the server of
TEST_POSTGRES_URL (`CREATE DATABASE … TEMPLATE …` copies it in a fraction of a second). Each is
named after a digest of what decides its content (the project's code and migrations, the pinned
requirements; the demo's dates follow the day, so the demo's digest also holds the date), built
under a file lock by the first process that needs it (xdist workers, the child pytests) and
reused by the next runs while nothing changed.
"""

import datetime
import fcntl
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from contextlib import closing, suppress
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
APPS = ["championship", "federation", "gamenights", "notifications", "scoring", "webhooks"]
# What builds each database; the demo's start from a copy of the migrated one.
COMMANDS = {"migrated": [["migrate", "-v0"]], "demo": [["demo"]]}


def code_digest(kind):
    """What decides the content of the `kind` database: the code (its migrations import models'
    validators, the demo goes through the services), its files (the demo's sheets), the pinned
    requirements (the other apps' migrations); and for the demo the day (its rounds are dated
    from today)."""
    digest = hashlib.sha256(kind.encode())
    paths = [ROOT / "manage.py", ROOT / "requirements.txt"]
    for app in APPS:
        paths += [path for path in (ROOT / app).rglob("*") if "__pycache__" not in path.parts]
    for path in sorted(paths):
        if path.is_file() and path.suffix in (".py", ".json", ".toml", ".txt"):
            digest.update(str(path.relative_to(ROOT)).encode())
            digest.update(path.read_bytes())
    if kind == "demo":
        digest.update(datetime.date.today().isoformat().encode())
    return digest.hexdigest()[:16]


def manage(database_url, *args):
    """`manage.py ARGS` on `database_url`, as the tests run it (a cache of its own)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DEBUG": "0",
        "SECRET_KEY": "t-" + "x" * 40,
        "CACHE_URL": "locmem://",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr


class built_once:  # noqa: N801 — used as a context manager: « with built_once(name) as missing »
    """Under a lock named `name` in the temporary folder: whether the database is still to build."""

    def __init__(self, name, exists):
        self.path = Path(tempfile.gettempdir()) / f"{name}.lock"
        self.exists = exists

    def __enter__(self):
        self.lock = open(self.path, "w")  # noqa: SIM115 — closed in __exit__, or here on an error
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX)
            return not self.exists()
        except BaseException:
            # No __exit__ after a failed __enter__: let the lock go now, or the process's next
            # use of it would wait forever for itself (tests/test_built_once.py).
            self.lock.close()
            raise

    def __exit__(self, *exc):
        self.lock.close()


# --- SQLite ---------------------------------------------------------------------------------------


def sqlite_database(kind):
    """The file of the `kind` database ("migrated" or "demo"), built if it is not there yet."""
    name = f"tarot-biere-{kind}-{code_digest(kind)}"
    path = Path(tempfile.gettempdir()) / f"{name}.sqlite3"
    with built_once(name, path.exists) as missing:
        if missing:
            building = path.with_suffix(".building")
            for leftover in building.parent.glob(f"{building.name}*"):
                leftover.unlink()
            if kind == "demo":
                shutil.copyfile(sqlite_database("migrated"), building)
            for args in COMMANDS[kind]:
                manage(f"sqlite:///{building}", *args)
            with closing(sqlite3.connect(building)) as database:
                # Everything in the one file (no -wal beside it), which a copy then takes whole.
                database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                database.execute("PRAGMA journal_mode=DELETE")
            os.replace(building, path)
            drop_stale_files(path)
    os.utime(path)  # its date is that of its last use (see drop_stale_files)
    return path


def drop_stale_files(current):
    """The files of the same kind for other code (another checkout, an older commit), unused since
    before yesterday: removed."""
    prefix = current.name.rsplit("-", 1)[0]
    yesterday = (datetime.datetime.now() - datetime.timedelta(days=1)).timestamp()
    for path in current.parent.glob(f"{prefix}-*.sqlite3"):
        if path != current and path.stat().st_mtime < yesterday:
            path.unlink(missing_ok=True)


def sqlite_copy(kind, path):
    """A copy of the `kind` database at `path`: its DATABASE_URL."""
    try:
        shutil.copyfile(sqlite_database(kind), path)
    except FileNotFoundError:  # removed meanwhile as stale by another checkout: built again
        shutil.copyfile(sqlite_database(kind), path)
    return f"sqlite:///{path}"


# --- PostgreSQL -----------------------------------------------------------------------------------


def database_url(base_url, name):
    return urlunsplit(urlsplit(base_url)._replace(path=f"/{name}"))


def postgres_template(base_url, kind):
    """The name of the template database of `kind` on the server of `base_url`, built if needed
    (the demo from a copy of the migrated one)."""
    import psycopg  # noqa: PLC0415

    name = f"{urlsplit(base_url).path.lstrip('/')}_tpl_{kind}_{code_digest(kind)}"

    def exists():
        with psycopg.connect(base_url, autocommit=True) as admin:
            found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if found:  # its comment is the day of its last use (see drop_stale_templates)
                mark_used(admin, name)
            return bool(found)

    with built_once(name, exists) as missing:
        if missing:
            building = f"{name}_building"
            with psycopg.connect(base_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{building}"')
                if kind == "demo":
                    admin.execute(
                        f'CREATE DATABASE "{building}" TEMPLATE "{postgres_template(base_url, "migrated")}"'
                    )
                else:
                    admin.execute(f'CREATE DATABASE "{building}"')
            for args in COMMANDS[kind]:
                manage(database_url(base_url, building), *args)
            with psycopg.connect(base_url, autocommit=True) as admin:
                mark_used(admin, building)
                admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
                drop_stale_templates(admin, name)
    return name


def mark_used(admin, name):
    admin.execute(f"COMMENT ON DATABASE \"{name}\" IS '{datetime.date.today().isoformat()}'")


def drop_stale_templates(admin, current):
    """The templates of the same kind for other code (another checkout, an older commit), unused
    since before yesterday: dropped, but one a process is copying right now, which stays."""
    import psycopg  # noqa: PLC0415

    prefix = current.rsplit("_", 1)[0]
    yesterday = (datetime.date.today() - datetime.timedelta(days=1)).isoformat()
    stale = admin.execute(
        "SELECT datname FROM pg_database WHERE starts_with(datname, %s) AND datname <> %s"
        " AND NOT datname LIKE '%%\\_building' AND coalesce(shobj_description(oid, 'pg_database'), '') < %s",
        [prefix + "_", current, yesterday],
    ).fetchall()
    for (name,) in stale:
        with suppress(psycopg.errors.ObjectInUse):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
