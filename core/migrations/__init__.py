"""Ordered SQL migrations, `NNNN_name.sql` files shipped inside this package, applied once each,
under a lock.

Applying them is an explicit step (`bookrag migrate`, the service's start-up, the test
fixture); connecting to the database never does it.
"""

import re
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

import psycopg

MIGRATIONS_DIR: Traversable = files(__package__)
MIGRATION_FILE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
ADVISORY_LOCK_ID = 0x626F6F6B726167  # "bookrag": one migrator at a time across processes


@dataclass(frozen=True)
class Migration:
    """One SQL file; its number is its version."""

    version: int
    name: str
    sql: str


def available_migrations(folder: Traversable = MIGRATIONS_DIR) -> list[Migration]:
    """Migrations on disk in version order; a gap or a badly named file is an error."""
    found = []
    for path in sorted(
        (p for p in folder.iterdir() if p.name.endswith(".sql")), key=lambda p: p.name
    ):
        match = MIGRATION_FILE.match(path.name)
        if not match:
            raise ValueError(f"migration file {path.name} is not named NNNN_snake_case.sql")
        found.append(
            Migration(int(match.group(1)), path.name.removesuffix(".sql"), path.read_text())
        )
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise ValueError(f"migration {migration.name} should be number {expected:04d}")
    return found


def _name(path: Traversable) -> str:
    return path.name


def apply_migrations(conn: psycopg.Connection, folder: Traversable = MIGRATIONS_DIR) -> list[str]:
    """Apply every migration above the database's version; returns the names applied."""
    applied = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK_ID,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        current = schema_version(conn)
        for migration in available_migrations(folder):
            if migration.version <= current:
                continue
            conn.execute(migration.sql.encode())
            conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )
            applied.append(migration.name)
    return applied


def schema_version(conn: psycopg.Connection) -> int:
    """The newest migration applied to the database (0 for a database never migrated)."""
    exists = conn.execute("SELECT to_regclass('schema_migrations')").fetchone()
    if not exists or exists[0] is None:
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
    return row[0] if row else 0
