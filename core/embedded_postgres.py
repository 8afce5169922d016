"""The embedded PostgreSQL (from the `pgserver` package) that bookrag runs when no
`DATABASE_URL` is set: started on first use, restarted if it dies, stopped with its last user.

pgserver shares one server per data folder between processes and stops it when the last
process that uses it exits, through `atexit`. Two things defeat that, so this module adds what
is missing:
- a process killed (or re-raising SIGTERM, as uvicorn does after a graceful shutdown) never
  runs `atexit`, and its pid stays in pgserver's list of users, so the server is never stopped:
  dead pids are pruned from that list on start, and `stop()` is called explicitly;
- a postmaster that dies (crash, OOM kill, `kill -9`) is not restarted by anything:
  `ensure_running()` brings it back, and the HTTP service calls it every second.
"""

import json
import logging
import threading
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

import psutil

log = logging.getLogger("bookrag.database")
USERS_FILE = ".handle_pids.json"
"""pgserver's list of the processes that use the server in a folder."""


class EmbeddedServerError(RuntimeError):
    """The embedded server could not be started."""


class EmbeddedPostgres:
    """The embedded server of one data folder, as this process uses it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._server: Any = None

    def url(self) -> str:
        """The server's connection URL (a Unix socket), starting the server if need be."""
        with self._lock:
            if self._server is None:
                self._server = self._start()
            return str(self._server.get_uri())

    def ensure_running(self) -> bool:
        """Restart the server if its postmaster has died; True when it had to.

        Raises `EmbeddedServerError` while it cannot start yet (for example while the dead
        postmaster's backends still hold its shared memory); call again later.
        """
        with self._lock:
            if self._server is None:
                return False
            info = self._server.get_postmaster_info()
            if info.is_running():
                return False
            log.warning("the embedded PostgreSQL in %s died; restarting it", self.folder)
            try:
                with type(self._server)._lock:
                    self._server.ensure_postgres_running()
            except Exception as error:  # pgserver raises bare errors carrying the server's log
                raise EmbeddedServerError(f"could not restart PostgreSQL: {error}") from error
            log.warning("the embedded PostgreSQL in %s is back", self.folder)
            return True

    def stop(self) -> None:
        """Stop using the server: it stops when no other live process uses it."""
        with self._lock:
            if self._server is not None:
                self._server.cleanup()
                self._server = None

    def _start(self) -> Any:
        with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
            warnings.simplefilter("ignore")
            import pgserver
            import pgserver.postgres_server
        logging.getLogger("pgserver").setLevel(logging.WARNING)  # pg_ctl command lines
        self.folder.mkdir(parents=True, exist_ok=True)
        with pgserver.postgres_server.PostgresServer._lock:
            _forget_dead_users(self.folder)
        try:
            return pgserver.get_server(self.folder, cleanup_mode="stop")
        except Exception as error:  # pgserver raises bare exceptions with the server's log
            raise EmbeddedServerError(
                f"could not start embedded PostgreSQL in {self.folder}: {error}"
            ) from error


def _forget_dead_users(folder: Path) -> None:
    """Drop processes that died without saying goodbye from pgserver's list of users."""
    users_file = folder / USERS_FILE
    if not users_file.exists():
        return
    try:
        users = json.loads(users_file.read_text())
    except ValueError:
        users = []
    alive = [pid for pid in users if isinstance(pid, int) and psutil.pid_exists(pid)]
    if alive != users:
        users_file.write_text(json.dumps(alive))


@lru_cache(maxsize=8)
def embedded_postgres(folder: Path) -> EmbeddedPostgres:
    """The process's handle on the embedded server in `folder`."""
    return EmbeddedPostgres(folder)
