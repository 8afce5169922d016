"""The embedded PostgreSQL behind `bookrag serve`: brought back when it dies, under load, with
no acknowledged turn lost; stopped, with no stale state, when the server stops."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import psutil

from tests.conftest import bookrag_serve

PAGE = """---
title: Teleoperation
---

# Teleoperation

## Latency

Teleoperation latency above 200 ms makes the operator overshoot the target.
"""


def postmaster_pid(data_dir: Path) -> int:
    return int((data_dir / "pg" / "postmaster.pid").read_text().splitlines()[0])


def gone_within(pid: int, seconds: float) -> bool:
    try:
        psutil.Process(pid).wait(timeout=seconds)
    except psutil.NoSuchProcess:
        return True
    except psutil.TimeoutExpired:
        return False
    return True


def embedded_env(tmp_path: Path) -> dict[str, str]:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "teleoperation.md").write_text(PAGE)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}  # the embedded one
    return env | {
        "BOOK_DOCS_DIR": str(docs),
        "DATA_DIR": str(tmp_path / "data"),
        "RATE_LIMIT_CLIENT_PER_MINUTE": "0",
        "RATE_LIMIT_SESSION_PER_MINUTE": "0",
        "INGEST_WORKFLOWS": "false",
    }


def test_a_killed_embedded_postgres_comes_back_under_load_and_loses_no_acknowledged_turn(
    tmp_path,
):
    env = embedded_env(tmp_path)
    ingest = subprocess.run(
        [sys.executable, "-m", "agent.cli", "ingest"], env=env, cwd=tmp_path, capture_output=True
    )
    assert ingest.returncode == 0, ingest.stderr
    acknowledged: list[tuple[str, str, int]] = []
    refusals: list[tuple[int, str | None]] = []
    stop = threading.Event()

    def reader(base: str) -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            while not stop.is_set():
                reply = client.post("/query", json={"question": "What does latency do?"})
                if reply.status_code == 200:
                    body = reply.json()
                    acknowledged.append(
                        (body["session_id"], body["session_token"], body["message_id"])
                    )
                else:
                    refusals.append((reply.status_code, reply.headers.get("retry-after")))

    with bookrag_serve(tmp_path, env) as base:
        readers = [threading.Thread(target=reader, args=(base,)) for _ in range(5)]
        for thread in readers:
            thread.start()
        time.sleep(2)
        killed = postmaster_pid(tmp_path / "data")
        os.kill(killed, signal.SIGKILL)
        killed_at, answered_before = time.monotonic(), len(acknowledged)
        while len(acknowledged) == answered_before and time.monotonic() - killed_at < 60:
            time.sleep(0.1)
        stop.set()
        for thread in readers:
            thread.join()
        statuses = sorted({status for status, _ in refusals})
        assert len(acknowledged) > answered_before, f"no answer after the kill: {statuses}"
        with httpx.Client(base_url=base, timeout=30) as client:
            for session, token, message in acknowledged:
                view = client.get(
                    f"/sessions/{session}", headers={"authorization": f"Bearer {token}"}
                )
                assert view.status_code == 200
                assert message in [m["id"] for m in view.json()["messages"]]
        pid = postmaster_pid(tmp_path / "data")
    assert pid != killed  # a new postmaster answers
    assert all(status == 503 and wait for status, wait in refusals)  # meanwhile: clean 503s
    assert gone_within(pid, seconds=10)  # stopped with the server (SIGTERM)
    users = json.loads((tmp_path / "data" / "pg" / ".handle_pids.json").read_text())
    assert users == []  # no stale process left in pgserver's list
