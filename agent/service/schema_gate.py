"""Migrations for a server: applied once, as soon as the database answers."""

import asyncio

from core.database import migrate
from core.settings import Settings


class SchemaGate:
    """Brings the schema up to date once; until then, whatever needs the database waits here.

    The server starts even when Postgres is down, so the first request that finds it up (or
    `/ready`) applies the pending migrations; the ones after it pass straight through.
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.ready = False
        self._lock = asyncio.Lock()

    async def ensure(self) -> None:
        """Apply pending migrations unless done already (`DatabaseUnavailableError` if down)."""
        if self.ready:
            return
        async with self._lock:
            if not self.ready:
                await asyncio.to_thread(migrate, self.settings)  # psycopg's sync API: off the loop
                self.ready = True
