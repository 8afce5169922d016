"""Ordered SQL migrations from `migrations/NNNN_name.sql`, applied once each, under a lock."""

import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

MIGRATIONS_DIR = Path(__file__).resolve().parents[1] / "migrations"
MIGRATION_FILE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
ADVISORY_LOCK_ID = 0x626F6F6B726167  # "bookrag": one migrator at a time across processes


@dataclass(frozen=True)
class Migration:
    """One SQL file; its number is its version."""

    version: int
    name: str
    sql: str


def available_migrations(folder: Path = MIGRATIONS_DIR) -> list[Migration]:
    """Migrations on disk in version order; a gap or a badly named file is an error."""
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = MIGRATION_FILE.match(path.name)
        if not match:
            raise ValueError(f"migration file {path.name} is not named NNNN_snake_case.sql")
        found.append(Migration(int(match.group(1)), path.stem, path.read_text()))
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise ValueError(f"migration {migration.name} should be number {expected:04d}")
    return found


def apply_migrations(conn: psycopg.Connection, folder: Path = MIGRATIONS_DIR) -> list[str]:
    """Apply every migration above the database's version; returns the names applied."""
    applied = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (ADVISORY_LOCK_ID,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        row = conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()
        current = row[0] if row else 0
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
