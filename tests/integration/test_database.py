"""Postgres: the embedded server, and the migration runner on a database of its own."""

import uuid
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from core.database import connect, migrate
from core.migrations import apply_migrations, available_migrations, schema_version
from core.settings import Settings


@pytest.fixture
def fresh_database(database_url: str):
    """A new empty database on the test server, dropped afterwards."""
    name = f"bookrag_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    params = conninfo_to_dict(database_url) | {"dbname": name}
    with psycopg.connect(make_conninfo(**params), autocommit=True) as conn:
        yield conn
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def write(folder: Path, name: str, sql: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(sql)


def test_embedded_postgres_starts_when_no_url_is_set_and_migrate_brings_it_up_to_date(tmp_path):
    settings = Settings(_env_file=None, data_dir=tmp_path, database_url=None)  # type: ignore[call-arg]
    with connect(settings) as conn:
        assert schema_version(conn) == 0  # connecting never migrates
    assert migrate(settings) == [m.name for m in available_migrations()]
    assert migrate(settings) == []
    with connect(settings) as conn:
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_migrations")]
        assert versions == [m.version for m in available_migrations()]
        assert conn.execute("SELECT to_regclass('embedding_cache')").fetchone() == (
            "embedding_cache",
        )


def test_migrations_apply_once_each_in_order(fresh_database, tmp_path):
    folder = tmp_path / "migrations"
    write(folder, "0001_first.sql", "CREATE TABLE one (id int);")
    write(folder, "0002_second.sql", "ALTER TABLE one ADD COLUMN name text;")
    assert apply_migrations(fresh_database, folder) == ["0001_first", "0002_second"]
    assert apply_migrations(fresh_database, folder) == []
    write(folder, "0003_third.sql", "CREATE TABLE three (id int);")
    assert apply_migrations(fresh_database, folder) == ["0003_third"]


def test_failed_migration_leaves_the_database_unchanged(fresh_database, tmp_path):
    folder = tmp_path / "migrations"
    write(folder, "0001_good.sql", "CREATE TABLE good (id int);")
    write(folder, "0002_bad.sql", "CREATE TABLE broken (id nosuchtype);")
    with pytest.raises(psycopg.errors.UndefinedObject):
        apply_migrations(fresh_database, folder)
    assert fresh_database.execute("SELECT to_regclass('good')").fetchone() == (None,)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (["0001_a.sql", "0003_c.sql"], "should be number 0002"),
        (["1_a.sql"], "not named NNNN_snake_case.sql"),
    ],
)
def test_badly_numbered_migrations_are_refused(tmp_path, files, message):
    for name in files:
        write(tmp_path, name, "SELECT 1;")
    with pytest.raises(ValueError, match=message):
        available_migrations(tmp_path)
