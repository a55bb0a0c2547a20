"""Backing up and restoring the whole database, as it is: every row, every timestamp to the
microsecond (the `backup` and `restore` commands; see the README, « Sauvegardes »).

SQLite: the online backup API of SQLite (`sqlite3.Connection.backup`) copies the database page
by page while the site keeps running, and copies a backup back the same way. PostgreSQL:
`pg_dump --format=custom` and `pg_restore --clean --if-exists` in one transaction, connected as
the Django settings say, the password passed in the environment (never on a command line).

A backup is first written next to its destination under a temporary name, then renamed: an
interrupted backup never leaves a truncated file under the expected name. Backup files are
created readable by their owner only (they hold the accounts' password hashes).
"""

import os
import shutil
import sqlite3
import subprocess
import tempfile
from contextlib import closing, contextmanager
from pathlib import Path

from django.db.backends.postgresql.client import DatabaseClient as PostgresClient
from django.db.migrations.executor import MigrationExecutor

SQLITE, POSTGRESQL = "sqlite", "postgresql"
KIND_NAMES = {SQLITE: "SQLite", POSTGRESQL: "PostgreSQL"}
SQLITE_HEADER = b"SQLite format 3\x00"
PG_DUMP_CUSTOM_HEADER = b"PGDMP"
# Drop what the backup holds and create it again, all in one transaction, stopping at the first
# error (then nothing has changed); owners and grants are left to the configured role.
PG_RESTORE_OPTIONS = [
    "--clean",
    "--if-exists",
    "--single-transaction",
    "--exit-on-error",
    "--no-owner",
    "--no-privileges",
]
PG_DUMP_DOCS = "https://www.postgresql.org/docs/current/app-pgdump.html"


class BackupError(Exception):
    """A backup or a restore refused or failed; the message, in French, says why."""


def database_kind(connection):
    if connection.vendor == "sqlite":
        if connection.is_in_memory_db():
            raise BackupError("La base SQLite est en mémoire : il n'y a pas de fichier à sauvegarder.")
        return SQLITE
    if connection.vendor == "postgresql":
        return POSTGRESQL
    raise BackupError(
        f"Base « {connection.vendor} » non prise en charge : seules SQLite et PostgreSQL se sauvegardent "
        "avec ces commandes."
    )


def describe(connection):
    """The configured database, in words, for messages: the file, or the name and the server."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"SQLite « {settings['NAME']} »"
    host = settings.get("HOST") or "localhost"
    port = f":{settings['PORT']}" if settings.get("PORT") else ""
    return f"PostgreSQL « {settings['NAME']} » sur {host}{port}"


def file_kind(path):
    """SQLITE or POSTGRESQL from the first bytes of a file; BackupError for anything else."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"Fichier introuvable : « {path} ».")
    with path.open("rb") as file:
        head = file.read(len(SQLITE_HEADER))
    if head.startswith(SQLITE_HEADER):
        return SQLITE
    if head.startswith(PG_DUMP_CUSTOM_HEADER):
        return POSTGRESQL
    raise BackupError(
        f"« {path} » n'est pas une sauvegarde de la base : ni un fichier SQLite, ni une sauvegarde "
        "PostgreSQL au format de pg_dump --format=custom. Rien n'est restauré."
    )


# --- backup ------------------------------------------------------------------------------------


def backup(connection, destination):
    """Write a backup of the whole database to ``destination``; returns its kind."""
    kind = database_kind(connection)
    destination = Path(destination)
    if destination.is_dir():
        raise BackupError(f"« {destination} » est un dossier : donnez le nom du fichier de sauvegarde.")
    if not destination.parent.is_dir():
        raise BackupError(f"Dossier introuvable : « {destination.parent} ».")
    if kind == SQLITE and _same_file(destination, connection.settings_dict["NAME"]):
        raise BackupError(f"« {destination} » est la base elle-même : choisissez un autre fichier.")
    with _written_atomically(destination) as partial:
        if kind == SQLITE:
            _backup_sqlite(connection, partial)
        else:
            _run_pg("pg_dump", connection, ["--format=custom", f"--file={partial}"])
    return kind


def _same_file(path, other):
    return Path(path).exists() and Path(other).exists() and os.path.samefile(path, other)


@contextmanager
def _written_atomically(destination):
    """A temporary path next to ``destination`` (owner-only), renamed to it if all goes well."""
    handle, partial = tempfile.mkstemp(
        dir=destination.parent, prefix=f".{destination.name}.", suffix=".partial"
    )
    os.close(handle)
    try:
        yield partial
        os.replace(partial, destination)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


def _backup_sqlite(connection, path):
    connection.ensure_connection()
    try:
        with closing(sqlite3.connect(path)) as target:
            connection.connection.backup(target)
    except sqlite3.Error as error:
        raise BackupError(
            f"SQLite n'a pas pu copier la base ({error}) : aucune sauvegarde écrite."
        ) from error


# --- restore -----------------------------------------------------------------------------------


def check_restorable(connection, source):
    """Refuse, before anything changes, a file that is not a backup of this kind of database."""
    kind = database_kind(connection)
    found = file_kind(source)
    if found != kind:
        raise BackupError(
            f"« {source} » est une sauvegarde {KIND_NAMES[found]}, mais la base configurée est "
            f"{KIND_NAMES[kind]} : rien n'est restauré. Restaurez ce fichier sur une base "
            f"{KIND_NAMES[found]} (variable DATABASE_URL)."
        )
    if kind == SQLITE:
        if _same_file(source, connection.settings_dict["NAME"]):
            raise BackupError(f"« {source} » est la base elle-même : rien à restaurer.")
        _check_sqlite_backup(source)
    else:
        _run_pg("pg_restore", connection, ["--list", str(source)], dbname=False)
    return kind


def _check_sqlite_backup(path):
    try:
        with closing(sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)) as source:
            (verdict,) = source.execute("PRAGMA quick_check").fetchone()
            tables = {name for (name,) in source.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as error:
        raise BackupError(f"« {path} » est illisible ({error}) : rien n'est restauré.") from error
    if verdict != "ok":
        raise BackupError(f"« {path} » est endommagé (contrôle SQLite : {verdict}) : rien n'est restauré.")
    if "django_migrations" not in tables:
        raise BackupError(
            f"« {path} » est un fichier SQLite, mais pas une sauvegarde du site (aucune table "
            "django_migrations) : rien n'est restauré."
        )


def restore(connection, source):
    """Replace the whole database by the backup ``source`` (checked by `check_restorable`)."""
    kind = check_restorable(connection, source)
    if kind == SQLITE:
        connection.ensure_connection()
        try:
            with closing(
                sqlite3.connect(f"{Path(source).resolve().as_uri()}?mode=ro", uri=True)
            ) as backup_db:
                backup_db.backup(connection.connection)  # one transaction: all or nothing
        except sqlite3.Error as error:
            raise BackupError(
                f"SQLite n'a pas pu restaurer la base ({error}) : elle n'a pas changé."
            ) from error
    else:
        connection.close()
        _run_pg("pg_restore", connection, PG_RESTORE_OPTIONS, source=source)
    return kind


def missing_migrations(connection):
    """Migrations of the code that the restored database has not applied yet."""
    executor = MigrationExecutor(connection)
    return executor.migration_plan(executor.loader.graph.leaf_nodes())


# --- PostgreSQL client programs ----------------------------------------------------------------


def _run_pg(program, connection, arguments, *, source=None, dbname=True):
    """Run pg_dump or pg_restore against the configured database; BackupError on failure."""
    executable = shutil.which(program)
    if executable is None:
        raise BackupError(
            f"{program} introuvable : installez le client PostgreSQL (sous Debian : "
            "apt-get install postgresql-client), de la même version majeure que le serveur ou plus "
            f"récente ({PG_DUMP_DOCS})."
        )
    settings = connection.settings_dict
    command = [executable]
    if settings.get("USER"):
        command.append(f"--username={settings['USER']}")
    if settings.get("HOST"):
        command.append(f"--host={settings['HOST']}")
    if settings.get("PORT"):
        command.append(f"--port={settings['PORT']}")
    command.append("--no-password")  # never wait for a password typed at a prompt
    command += arguments
    if dbname and settings.get("NAME"):
        command.append(f"--dbname={settings['NAME']}")
    if source is not None:
        command.append(str(source))
    # The password, and the SSL and service options, in the environment, as `dbshell` does.
    _args, env = PostgresClient.settings_to_cmd_args_env(settings, [])
    result = subprocess.run(command, env={**os.environ, **(env or {})}, capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{program} a échoué (code {result.returncode}) : {result.stderr.strip()}")
    return result.stdout
