"""Bulk row helpers of the writes: UPDATE and INSERT statements run once for many rows
(`executemany`), with their history records, much cheaper than the ORM's bulk methods for a
season's thousands of rows."""

from functools import partial

from django.db import connection
from django.utils import timezone

PLAIN_FIELDS = {
    "AutoField",
    "BigAutoField",
    "BigIntegerField",
    "BooleanField",
    "CharField",
    "IntegerField",
    "PositiveIntegerField",
    "PositiveSmallIntegerField",
    "SmallIntegerField",
    "TextField",
}


def _as_is(value):
    return value


def _call(convert, value):
    return convert(value)


def preparer(field):
    """The function that prepares a value of `field` for the database as `save()` would (the
    identity for a plain field, or a relation to one)."""
    target = field.target_field if field.is_relation else field
    if target.get_internal_type() in PLAIN_FIELDS:
        return _as_is
    return partial(field.get_db_prep_save, connection=connection)


def update_rows(model, objs, fields):
    """Write `fields` of `objs` (rows that exist): one UPDATE statement run for every row
    (`executemany`), each value prepared by its model field as `save()` would.

    Django's `bulk_update` does the same in one CASE expression per field and batch, which
    costs seconds of Python to build for a season's thousands of rows.
    """
    if not objs:
        return
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    sql = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"
    prepare = [(field.attname, preparer(field)) for field in columns]
    rows = [[convert(getattr(obj, name)) for name, convert in prepare] + [obj.pk] for obj in objs]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def insert_history_rows(model, objs, reason):
    """Add a change record ("~") to the history of each of `objs`, as django-simple-history's
    `bulk_history_create` would: every tracked field copied, `reason`, the block's author (the
    request's user or `recorded_as`), one date for the block. One INSERT statement run for
    every record (`executemany`).

    `bulk_history_create` builds a model instance per record and an INSERT per few dozen rows
    (SQLite's variable limit), which cost most of a season's recomputation.
    """
    if not objs:
        return
    history = model.history.model
    fields = {field.attname: field for field in history._meta.concrete_fields}
    tracked = [fields[field.attname] for field in history.tracked_fields]
    author = history.get_default_history_user(objs[0])
    constants = {
        fields["history_date"]: timezone.now(),
        fields["history_change_reason"]: reason,
        fields["history_type"]: "~",
        fields["history_user_id"]: getattr(author, "pk", None),
    }
    if len(tracked) + len(constants) != len(fields) - 1 or any(hasattr(obj, "_history_user") for obj in objs):
        # a field this copy cannot fill, or an author of the instance's own: the library's way
        model.history.bulk_history_create(objs, update=True, default_change_reason=reason)
        return
    rows = ([getattr(obj, field.attname) for field in tracked] for obj in objs)
    insert_rows(history, tracked, rows, constants)


def insert_rows(model, columns, rows, constants=None):
    """Insert `rows` (one value per field of `columns`, in order) into `model`'s table, each
    with the same `constants` ({field: value}): one INSERT statement run for every row
    (`executemany`), each value prepared by its field as `save()` would (a constant once).
    For rows nothing reads back (no primary key returned, no signal)."""
    constants = constants or {}
    quote = connection.ops.quote_name
    names = [quote(field.column) for field in [*columns, *constants]]
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(names)}) "
        f"VALUES ({', '.join(['%s'] * len(names))})"
    )
    fixed = [preparer(field)(value) for field, value in constants.items()]
    converters = [preparer(field) for field in columns]
    prepared = [[*map(_call, converters, row), *fixed] for row in rows]
    if prepared:
        with connection.cursor() as cursor:
            cursor.executemany(sql, prepared)


def write_with_history(model, objs, fields, reason, *, record=()):
    """Write `fields` of `objs` and add their history records ("~"), each with `reason` and the
    block's author (the request's user, or `recorded_as`); `record`: more instances that get a
    history record without being written (their row did not move)."""
    update_rows(model, objs, fields)
    insert_history_rows(model, [*objs, *record], reason)
