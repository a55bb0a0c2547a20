"""The test database of each process is a copy of the run's migrated database (tests/conftest.py,
`django_db_setup`), not migrated again: it must be what the migrations leave, every migration
recorded as applied (Django's own tables made from the models, which the copy replaces, record
none)."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def test_every_migration_is_applied_to_the_test_database(db):
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []
    applied = executor.loader.applied_migrations
    assert ("championship", "0001_initial") in applied and ("federation", "0001_initial") in applied
