"""The token of each season's figures, kept by the database itself.

Every figure a page shows is computed from rows of the `federation` and `championship` tables.
A trigger on each of those tables changes the token of the season the row belongs to (a season,
a row with a season, a row of a round; a player's row changes every season's), in the same
transaction as the write, whoever makes it: a service, the admin, `loaddata`, a restore, SQL
typed by hand. A token is 32 random hexadecimal digits and never comes back, so the figures
cached under a token are the figures of exactly one state of the database (see
`championship.lib.summaries`), and another database never has the same token.

SQLite changes the token at every row written (a few microseconds each). PostgreSQL changes it
at the first row of each season a transaction writes, then remembers it in a setting local to
the transaction (`tarot.figures_<season>`): changing one row many times in a transaction costs
PostgreSQL more at each change. `read_tokens` tells, on PostgreSQL, which seasons the running
transaction has changed, so that nothing is stored under a token before the writes that follow
it in the same transaction.

The triggers are installed by the migration that created the tokens and again after every
`migrate` (SQLite drops a table's triggers when a migration rebuilds the table); a new model of
either app has them as soon as it is migrated. Tables that no figure reads are listed in
`UNCOUNTED`; historical records (django-simple-history) are never read by a figure.
"""

import secrets

from django.apps import apps as installed_apps
from django.db import connections
from simple_history.models import HistoricalChanges

# gamenights: the nights still on the calendar count in the play-off statuses (championship.cup).
APPS = ("federation", "championship", "gamenights")
UNCOUNTED = {
    "gamenights.Rsvp": "the answers to a night, which no figure reads",
    "championship.FigureToken": "the tokens themselves",
    "championship.SubmissionKey": "a form's one-time key, written with the deal it stores",
}
SQLITE_TOKEN = "lower(hex(randomblob(16)))"
POSTGRES_TOKEN = "replace(gen_random_uuid()::text, '-', '')"
PREFIX = "tarot_figures"
TOKENS, ROUNDS, SEASONS = "championship_figuretoken", "championship_round", "federation_season"

# How a row finds its season: the row is the season; it names its season; it names its round;
# it belongs to every season (a player appears in all of them).
SEASON, SEASON_ID, ROUND_ID, EVERY_SEASON = "season", "season_id", "round_id", "every"


def counted_tables(apps=installed_apps):
    """`[(table, how, column)]` of every table a figure is computed from (`apps`: the models as
    they are, or as a migration sees them)."""
    season_model = apps.get_model("federation", "Season")
    round_model = apps.get_model("championship", "Round")
    tables = []
    for label in APPS:
        try:
            config = apps.get_app_config(label)
        except LookupError:  # an app not migrated yet (a migration's state)
            continue
        for model in config.get_models(include_auto_created=True):
            if issubclass(model, HistoricalChanges) or model._meta.label in UNCOUNTED:
                continue
            if not model._meta.managed or model._meta.proxy:
                continue
            fields = {field.name: field for field in model._meta.concrete_fields}
            if model is season_model:
                how, column = SEASON, model._meta.pk.column
            elif "season" in fields and fields["season"].related_model is season_model:
                how, column = SEASON_ID, fields["season"].column
            elif "round" in fields and fields["round"].related_model is round_model:
                how, column = ROUND_ID, fields["round"].column
            else:
                how, column = EVERY_SEASON, None
            tables.append((model._meta.db_table, how, column))
    return tables


def _season_of(how, column, row):
    """The SQL expression of the season of `row` (NEW or OLD) of a SEASON_ID or ROUND_ID table."""
    if how == SEASON_ID:
        return f'{row}."{column}"'
    return f'(SELECT season_id FROM "{ROUNDS}" WHERE id = {row}."{column}")'


# --- SQLite --------------------------------------------------------------------------------------


def _sqlite_statement(how, column, row):
    """What a trigger runs for `row` (NEW or OLD) of a table."""
    if how == EVERY_SEASON:
        return f'UPDATE "{TOKENS}" SET token = {SQLITE_TOKEN};'
    if how == SEASON and row == "NEW":
        return (
            f'INSERT OR REPLACE INTO "{TOKENS}" (season_id, token) VALUES (NEW."{column}", {SQLITE_TOKEN});'
        )
    if how == SEASON:
        return f'DELETE FROM "{TOKENS}" WHERE season_id = OLD."{column}";'
    return f'UPDATE "{TOKENS}" SET token = {SQLITE_TOKEN} WHERE season_id = {_season_of(how, column, row)};'


def _sqlite_triggers(table, how, column):
    """`[CREATE TRIGGER …]` of `table`: after an insert, an update and a delete."""
    events = {"INSERT": ["NEW"], "UPDATE": ["OLD", "NEW"], "DELETE": ["OLD"]}
    if how in (SEASON, EVERY_SEASON):
        events["UPDATE"] = ["NEW"]  # one new token is enough
    return [
        f'CREATE TRIGGER "{PREFIX}_{table}_{event.lower()}" AFTER {event} ON "{table}" FOR EACH ROW '
        f"BEGIN {' '.join(_sqlite_statement(how, column, row) for row in rows)} END"
        for event, rows in events.items()
    ]


def _drop_sqlite_triggers(cursor):
    cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s", [f"{PREFIX}%"])
    for (name,) in cursor.fetchall():
        cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')


def _install_sqlite(cursor, tables):
    _drop_sqlite_triggers(cursor)
    for table, how, column in tables:
        for statement in _sqlite_triggers(table, how, column):
            cursor.execute(statement)


# --- PostgreSQL ------------------------------------------------------------------------------------

POSTGRES_FUNCTIONS = [
    # a season's token, changed once per transaction
    f"""
    CREATE OR REPLACE FUNCTION {PREFIX}_season(season bigint) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
        IF season IS NOT NULL
           AND current_setting('tarot.figures_' || season, true) IS DISTINCT FROM '1' THEN
            UPDATE "{TOKENS}" SET token = {POSTGRES_TOKEN} WHERE season_id = season;
            PERFORM set_config('tarot.figures_' || season, '1', true);
        END IF;
    END $$""",
    # every season's
    f"""
    CREATE OR REPLACE FUNCTION {PREFIX}_every() RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('tarot.figures_all', true) IS DISTINCT FROM '1' THEN
            UPDATE "{TOKENS}" SET token = {POSTGRES_TOKEN};
            PERFORM set_config('tarot.figures_all', '1', true);
        END IF;
    END $$""",
    # a new season's first token
    f"""
    CREATE OR REPLACE FUNCTION {PREFIX}_new_season(season bigint) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO "{TOKENS}" (season_id, token) VALUES (season, {POSTGRES_TOKEN})
            ON CONFLICT (season_id) DO UPDATE SET token = EXCLUDED.token;
        PERFORM set_config('tarot.figures_' || season, '1', true);
    END $$""",
]


def _postgres_calls(how, column):
    """`{event: statement}` of a table's trigger function."""
    if how == EVERY_SEASON:
        every = f"PERFORM {PREFIX}_every();"
        return {"INSERT": every, "UPDATE": every, "DELETE": every}
    if how == SEASON:
        return {
            "INSERT": f'PERFORM {PREFIX}_new_season(NEW."{column}");',
            "UPDATE": f'PERFORM {PREFIX}_season(NEW."{column}");',
            "DELETE": f'DELETE FROM "{TOKENS}" WHERE season_id = OLD."{column}";',
        }
    old, new = (f"PERFORM {PREFIX}_season({_season_of(how, column, row)});" for row in ("OLD", "NEW"))
    return {"INSERT": new, "UPDATE": f"{old} {new}", "DELETE": old}


def _postgres_trigger(table, how, column):
    function = f"{PREFIX}_{table}"
    calls = _postgres_calls(how, column)
    return [
        f"""
        CREATE OR REPLACE FUNCTION "{function}"() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' THEN {calls["DELETE"]}
            ELSIF TG_OP = 'UPDATE' THEN {calls["UPDATE"]}
            ELSE {calls["INSERT"]}
            END IF;
            RETURN NULL;
        END $$""",
        f'DROP TRIGGER IF EXISTS {PREFIX} ON "{table}"',
        f'CREATE TRIGGER {PREFIX} AFTER INSERT OR UPDATE OR DELETE ON "{table}" '
        f'FOR EACH ROW EXECUTE FUNCTION "{function}"()',
    ]


def _install_postgres(cursor, tables):
    for statement in POSTGRES_FUNCTIONS:
        cursor.execute(statement)
    for table, how, column in tables:
        for statement in _postgres_trigger(table, how, column):
            cursor.execute(statement)


# --- both ----------------------------------------------------------------------------------------


def install_triggers(using="default", apps=installed_apps):
    """(Re)create the triggers of every counted table, and a token for every season without one."""
    connection = connections[using]
    with connection.cursor() as cursor:
        existing = set(connection.introspection.table_names(cursor))
        if TOKENS not in existing:  # `migrate` of another app, before this one's migrations
            return
        tables = [table for table in counted_tables(apps) if table[0] in existing]  # a partial migrate
        if connection.vendor == "sqlite":
            _install_sqlite(cursor, tables)
            token = SQLITE_TOKEN
        elif connection.vendor == "postgresql":
            _install_postgres(cursor, tables)
            token = POSTGRES_TOKEN
        else:
            raise NotImplementedError(
                f"base « {connection.vendor} » : seules SQLite et PostgreSQL conviennent"
            )
        cursor.execute(
            f'INSERT INTO "{TOKENS}" (season_id, token) SELECT id, {token} FROM "{SEASONS}" '
            f'WHERE id NOT IN (SELECT season_id FROM "{TOKENS}")'
        )


def installed_triggers(using="default"):
    """`{table}` of the tables that have the token's triggers (for the tests)."""
    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            query = (
                "SELECT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s "
                "GROUP BY tbl_name HAVING count(*) = 3"  # after an insert, an update and a delete
            )
            cursor.execute(query, [f"{PREFIX}%"])
        else:
            query = (
                "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = %s"
            )
            cursor.execute(query, [PREFIX])
        return {table for (table,) in cursor.fetchall()}


def read_tokens(pks, using="default"):
    """`{season pk: (token, changed here)}` of the seasons that have a token; `changed here`:
    the running transaction wrote a row of that season (PostgreSQL; on SQLite every row written
    changes the token again, so it is always False)."""
    connection = connections[using]
    pks = [int(pk) for pk in pks]
    if not pks:
        return {}
    placeholders = ", ".join(["%s"] * len(pks))
    if connection.vendor == "postgresql":
        changed = (
            "(current_setting('tarot.figures_' || season_id, true) = '1' "
            "OR current_setting('tarot.figures_all', true) = '1')"
        )
    else:
        changed = "0"
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT season_id, token, {changed} FROM "{TOKENS}" WHERE season_id IN ({placeholders})', pks
        )
        return {pk: (token, bool(here)) for pk, token, here in cursor.fetchall()}


def new_token():
    return secrets.token_hex(16)


def remove_triggers(using="default"):
    """Drop every trigger and function `install_triggers` created (the migration undone)."""
    connection = connections[using]
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            _drop_sqlite_triggers(cursor)
            return
        cursor.execute(
            "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = current_schema() AND p.proname LIKE %s",
            [f"{PREFIX}%"],
        )
        for (function,) in cursor.fetchall():
            cursor.execute(f"DROP FUNCTION IF EXISTS {function} CASCADE")
