"""Webhook latency while an ingest runs: `bookrag serve` over the humanoid textbook rebuilds
its collection (a manual full run), and meanwhile signed GitHub push deliveries arrive, five
at a time. Prints their p50/p95/p99 and how the runs went (the deliveries collapse into one
queued run).

Run: `python -m bench.webhook` (after `bench.retrieval`, whose ingest it reuses).
"""

import asyncio
import hashlib
import hmac
import json
import statistics
import sys
import time
import uuid
from datetime import datetime

import httpx

from bench.search import percentile
from bench.service import serve
from bench.setup import CORPORA, ingested_humanoid
from core.store import close_qdrant

SECRET = "bench-secret"
ADMIN = "bench-admin"
DELIVERIES = 200
CONCURRENT = 5


def delivery() -> tuple[bytes, dict[str, str]]:
    """A signed push touching a page of the book."""
    body = json.dumps(
        {
            "ref": "refs/heads/main",
            "after": uuid.uuid4().hex,
            "commits": [{"added": [], "modified": ["book/docs/intro.md"], "removed": []}],
        }
    ).encode()
    digest = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    headers = {
        "x-hub-signature-256": f"sha256={digest}",
        "x-github-event": "push",
        "x-github-delivery": str(uuid.uuid4()),
        "content-type": "application/json",
    }
    return body, headers


async def deliveries_during_a_run(base: str) -> tuple[list[float], list[dict]]:
    """Latencies (ms) of the deliveries sent while a full rebuild runs, and the runs after."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        admin = {"authorization": f"Bearer {ADMIN}"}
        rebuild = (await client.post("/ingest_book", json={"full": True}, headers=admin)).json()
        while (await client.get(f"/ingest/runs/{rebuild['run_id']}")).json()["status"] == "queued":
            await asyncio.sleep(0.05)
        latencies: list[float] = []
        pending = list(range(DELIVERIES))

        async def sender() -> None:
            while pending:
                pending.pop()
                body, headers = delivery()
                start = time.perf_counter()
                response = await client.post("/webhook/github", content=body, headers=headers)
                latencies.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 202, response.text

        await asyncio.gather(*(sender() for _ in range(CONCURRENT)))
        while True:
            runs = (await client.get("/ingest/runs", params={"limit": 5})).json()["runs"]
            if all(run["status"] in ("completed", "failed") for run in runs):
                return latencies, runs
            await asyncio.sleep(0.5)


def main() -> int:
    """Print webhook latencies during an ingest."""
    settings, _ = ingested_humanoid()
    close_qdrant()  # the server process opens the embedded store
    docs = CORPORA / "humanoid-textbook" / "docs"
    env = {
        "INGEST_WORKFLOWS": "true",
        "WORKFLOW_SCHEMA": "dbos_bench",
        "GITHUB_WEBHOOK_SECRET": SECRET,
        "ADMIN_TOKEN": ADMIN,
        "BOOK_DOCS_DIR": str(docs),
    }
    with serve(settings, **env) as (base, _):
        latencies, runs = asyncio.run(deliveries_during_a_run(base))
    print(
        f"webhook while a full rebuild runs ({len(latencies)} deliveries, {CONCURRENT} at a "
        f"time): p50 {statistics.median(latencies):.0f} ms, p95 {percentile(latencies, 0.95):.0f}"
        f" ms, p99 {percentile(latencies, 0.99):.0f} ms, max {max(latencies):.0f} ms"
    )
    for run in runs[:2]:
        took = datetime.fromisoformat(run["ended_at"]) - datetime.fromisoformat(run["started_at"])
        steps = ", ".join(f"{step['name']} x{step['attempts']}" for step in run["steps"])
        print(
            f"run {run['run_id']} ({run['trigger']}): {run['status']} in "
            f"{took.total_seconds():.1f} s; {steps}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
