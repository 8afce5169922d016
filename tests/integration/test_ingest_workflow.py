"""The webhook-triggered durable ingest: credentials, replays, queueing, retries, failures."""

import asyncio
import hashlib
import hmac
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import psycopg

from agent.resources import build_resources
from tests.conftest import SAMPLE_BOOK, bookrag_serve, serving, settings_for
from tests.fakes import FlakyEmbeddings, with_embeddings

SECRET = "webhook-secret"
ACTION_TOKEN = "action-token"
ADMIN_TOKEN = "admin-token"
STEPS = ["load_documents", "chunk_documents", "embed_documents", "upsert_chunks"]


def push_body(files: tuple[str, ...] = ("book/docs/intro.md",), commit: str = "c0ffee") -> bytes:
    commits = [{"added": [], "modified": list(files), "removed": []}]
    return json.dumps({"ref": "refs/heads/main", "after": commit, "commits": commits}).encode()


def signed(body: bytes, delivery: str | None = None, event: str = "push") -> dict[str, str]:
    digest = hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
    return {
        "x-hub-signature-256": f"sha256={digest}",
        "x-github-event": event,
        "x-github-delivery": delivery or str(uuid.uuid4()),
        "content-type": "application/json",
    }


def fresh_book(folder: Path) -> Path:
    """A copy of the sample book with one page no cache has seen (so it must be embedded)."""
    docs = folder / "docs"
    shutil.copytree(SAMPLE_BOOK, docs)
    intro = docs / "intro.md"
    intro.write_text(intro.read_text() + f"\n\nThis copy is number {uuid.uuid4()}.\n")
    return docs


@asynccontextmanager
async def ingest_service(
    folder: Path,
    database_url: str,
    embeddings: Callable | None = None,  # type: ignore[type-arg]
    **overrides: object,
) -> AsyncIterator[httpx.AsyncClient]:
    fresh_book(folder)
    schema = f"dbos_test_{uuid.uuid4().hex[:10]}"
    settings = settings_for(folder, database_url, book_id=f"wf-{uuid.uuid4().hex[:8]}")
    resources = build_resources(settings)
    if embeddings is not None:
        resources = with_embeddings(resources, embeddings(resources.searcher.model.embeddings))
    options = {
        "ingest_workflows": True,
        "workflow_schema": schema,
        "github_webhook_secret": SECRET,
        "rag_secret": ACTION_TOKEN,
        "admin_token": ADMIN_TOKEN,
        **overrides,
    }
    try:
        async with serving(resources, **options) as client:
            yield client
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


async def deliver(client: httpx.AsyncClient, body: bytes, **headers: str) -> httpx.Response:
    return await client.post("/webhook/github", content=body, headers=headers)


async def finished(client: httpx.AsyncClient, run_id: str, timeout: float = 90) -> dict:
    """The run once it has completed or failed."""
    for _ in range(int(timeout * 10)):
        run = (await client.get(f"/ingest/runs/{run_id}")).json()
        if run["status"] in ("completed", "failed"):
            return run
        await asyncio.sleep(0.1)
    raise AssertionError(f"run {run_id} did not finish: {run}")


async def run_count(client: httpx.AsyncClient) -> int:
    return len((await client.get("/ingest/runs")).json()["runs"])


async def test_a_signed_push_to_the_docs_runs_every_step_and_fills_the_index(
    tmp_path, database_url
):
    async with ingest_service(tmp_path, database_url) as client:
        body, delivery = push_body(), str(uuid.uuid4())
        queued = await deliver(client, body, **signed(body, delivery=delivery))
        assert queued.status_code == 202
        assert queued.json() == {"run_id": delivery, "status": "queued"}
        run = await finished(client, delivery)
        found = (await client.post("/search", json={"text": "QoS reliability"})).json()
        page = (await client.get("/ingest")).text
        ready = (await client.get("/ready")).json()
    assert ready["parts"]["ingest_workflows"] == {"ok": True, "detail": "running"}
    assert run["status"] == "completed" and run["trigger"] == "webhook"
    assert run["commit"] == "c0ffee" and run["branch"] == "main"
    assert [(s["name"], s["status"], s["attempts"]) for s in run["steps"]] == [
        (name, "completed", 1) for name in STEPS
    ]
    assert run["summary"]["total_chunks"] > 0 and run["summary"]["status"] == "completed"
    assert found["results"]
    assert delivery in page and "embed_documents" in page


async def test_bad_credentials_ping_and_irrelevant_pushes_start_nothing(tmp_path, database_url):
    async with ingest_service(tmp_path, database_url) as client:
        body = push_body()
        wrong = signed(body)
        wrong["x-hub-signature-256"] = "sha256=" + "0" * 64
        altered = signed(body)
        sha1_only = {k: v for k, v in signed(body).items() if k != "x-hub-signature-256"}
        sha1_only["x-hub-signature"] = "sha1=" + hmac.new(SECRET.encode(), body, "sha1").hexdigest()
        refused = [
            await deliver(client, body, **wrong),
            await deliver(client, body + b" ", **altered),
            await deliver(client, body, **sha1_only),
            await deliver(client, body, **{"content-type": "application/json"}),
            await deliver(client, body, authorization="Bearer not-the-token"),
        ]
        ping = await deliver(client, b"{}", **signed(b"{}", event="ping"))
        readme = push_body(files=("README.md", "src/app.py"))
        ignored = await deliver(client, readme, **signed(readme))
        issue = await deliver(client, b"{}", **signed(b"{}", event="issues"))
        runs = await run_count(client)
    assert [r.status_code for r in refused] == [401] * 5
    assert all(r.json()["error"]["code"] == "unauthorized" for r in refused)
    assert ping.status_code == 200 and ping.json()["status"] == "pong"
    assert ignored.status_code == 200 and ignored.json()["status"] == "ignored"
    assert issue.status_code == 200 and issue.json()["status"] == "ignored"
    assert runs == 0


async def test_fifty_concurrent_copies_of_one_delivery_make_one_run(tmp_path, database_url):
    async with ingest_service(tmp_path, database_url) as client:
        body, delivery = push_body(), str(uuid.uuid4())
        headers = signed(body, delivery=delivery)
        replies = await asyncio.gather(*(deliver(client, body, **headers) for _ in range(50)))
        run = await finished(client, delivery)
        again = await deliver(client, body, **headers)
        runs = await run_count(client)
    assert {r.status_code for r in replies} == {202}
    assert {r.json()["run_id"] for r in replies} == {delivery}
    assert again.json() == {"run_id": delivery, "status": "completed"}
    assert run["status"] == "completed" and runs == 1


async def test_requests_while_a_run_is_busy_collapse_into_one_queued_run(tmp_path, database_url):
    held = None

    def gated(inner):  # type: ignore[no-untyped-def]
        nonlocal held
        held = FlakyEmbeddings(inner)
        held.gate.clear()
        return held

    async with ingest_service(tmp_path, database_url, embeddings=gated) as client:
        body = push_body(commit="first")
        first = (await deliver(client, body, **signed(body))).json()["run_id"]
        for _ in range(100):  # wait until the first run is inside embed_documents
            steps = (await client.get(f"/ingest/runs/{first}")).json()["steps"]
            if any(s["name"] == "embed_documents" for s in steps):
                break
            await asyncio.sleep(0.1)
        later = []
        for commit in ("second", "third", "fourth"):
            push = push_body(commit=commit)
            later.append((await deliver(client, push, **signed(push))).json())
        assert held is not None
        held.gate.set()
        first_run = await finished(client, first)
        second_run = await finished(client, later[0]["run_id"])
        runs = await run_count(client)
    assert len({reply["run_id"] for reply in later}) == 1  # one waiting run serves them all
    assert all(reply["status"] == "queued" for reply in later)
    assert first_run["status"] == second_run["status"] == "completed"
    assert second_run["commit"] == "fourth"  # the waiting run ingests the newest push
    assert runs == 2


async def test_a_step_that_fails_twice_is_retried_and_its_attempts_are_recorded(
    tmp_path, database_url
):
    flaky = lambda inner: FlakyEmbeddings(inner, failures=2)  # noqa: E731
    async with ingest_service(tmp_path, database_url, embeddings=flaky) as client:
        queued = await client.post(
            "/ingest_book", json={"full": False}, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
        )
        run = await finished(client, queued.json()["run_id"])
    attempts = {step["name"]: step["attempts"] for step in run["steps"]}
    assert run["status"] == "completed" and run["trigger"] == "manual"
    assert attempts == {"load_documents": 1, "chunk_documents": 1, "embed_documents": 3,
                        "upsert_chunks": 1}  # fmt: skip
    assert all(step["status"] == "completed" and not step["error"] for step in run["steps"])


async def test_a_step_that_cannot_succeed_fails_the_run_and_keeps_the_index(tmp_path, database_url):
    async with ingest_service(tmp_path, database_url) as client:
        admin = {"authorization": f"Bearer {ADMIN_TOKEN}"}
        good = await finished(
            client, (await client.post("/ingest_book", headers=admin)).json()["run_id"]
        )
        shutil.rmtree(tmp_path / "docs")
        bad = await finished(
            client, (await client.post("/ingest_book", headers=admin)).json()["run_id"]
        )
        found = (await client.post("/search", json={"text": "QoS reliability"})).json()
    assert good["status"] == "completed"
    assert bad["status"] == "failed" and "DocsFolderNotFoundError" in bad["error"]
    load = bad["steps"][0]
    assert load["name"] == "load_documents" and load["status"] == "failed"
    assert load["attempts"] == 1  # a missing folder is not worth retrying
    assert [s["name"] for s in bad["steps"]] == ["load_documents"]
    assert found["results"]  # the previous run's points are still there


async def test_manual_ingest_needs_the_admin_token(tmp_path, database_url):
    async with ingest_service(tmp_path, database_url) as client:
        missing = await client.post("/ingest_book", json={"full": True})
        wrong = await client.post("/ingest_book", headers={"authorization": "Bearer nope"})
        unknown = await client.get("/ingest/runs/no-such-run")
        runs = await run_count(client)
    assert missing.status_code == wrong.status_code == 401
    assert unknown.status_code == 404 and runs == 0


async def test_a_webhook_body_over_its_cap_is_a_413(tmp_path, database_url):
    async with ingest_service(tmp_path, database_url, webhook_max_bytes=4096) as client:
        body = push_body(files=tuple(f"book/docs/page-{n}.md" for n in range(400)))
        response = await deliver(client, body, **signed(body))
        runs = await run_count(client)
    assert len(body) > 4096
    assert response.status_code == 413 and runs == 0


def git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


async def test_a_webhook_run_checks_out_the_pushed_commit_of_a_git_work_tree(
    tmp_path, database_url
):
    origin, work, author = tmp_path / "origin.git", tmp_path / "work", tmp_path / "author"
    git(tmp_path, "init", "--quiet", "--bare", str(origin))
    git(tmp_path, "clone", "--quiet", str(origin), str(author))
    for repo in (author,):
        git(repo, "config", "user.email", "a@example.com")
        git(repo, "config", "user.name", "Author")
    shutil.copytree(SAMPLE_BOOK, author / "book" / "docs")
    git(author, "add", ".")
    git(author, "commit", "--quiet", "-m", "book")
    git(author, "push", "--quiet", "origin", "HEAD:main")
    git(tmp_path, "clone", "--quiet", "--branch", "main", str(origin), str(work))
    page = author / "book" / "docs" / "intro.md"
    page.write_text(page.read_text() + "\n\n## Pushed Section\n\nZanzibar gearboxes are new.\n")
    git(author, "commit", "--quiet", "-am", "edit")
    git(author, "push", "--quiet", "origin", "HEAD:main")
    pushed = git(author, "rev-parse", "HEAD")

    docs = work / "book" / "docs"
    async with ingest_service(tmp_path / "svc", database_url, book_docs_dir=docs) as client:
        body = push_body(commit=pushed)
        run = await finished(client, (await deliver(client, body, **signed(body))).json()["run_id"])
        found = (await client.post("/search", json={"text": "Zanzibar gearboxes"})).json()
        missing = push_body(commit="0" * 40)
        bad = await finished(
            client, (await deliver(client, missing, **signed(missing))).json()["run_id"]
        )
    assert run["status"] == "completed"
    assert git(work, "rev-parse", "HEAD") == pushed
    assert found["results"][0]["section_title"] == "Pushed Section"
    assert bad["status"] == "failed" and "git" in bad["error"]


def test_a_run_killed_in_embed_documents_resumes_there_and_ends_like_a_clean_run(
    tmp_path, database_url
):
    docs = fresh_book(tmp_path)
    edition = uuid.uuid4().hex[:8]
    for page in docs.rglob("*.md*"):  # every chunk new to the cache: embedding takes a while
        lines = page.read_text().splitlines()
        page.write_text("\n".join(f"{ln} {edition}" if ln.startswith("#") else ln for ln in lines))
    schema = f"dbos_test_{uuid.uuid4().hex[:10]}"
    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path / "data"),
        "DATABASE_URL": database_url,
        "BOOK_DOCS_DIR": str(docs),
        "BOOK_ID": f"wf-{uuid.uuid4().hex[:8]}",
        "GITHUB_WEBHOOK_SECRET": SECRET,
        "WORKFLOW_SCHEMA": schema,
    }

    def steps_of(run_id: str) -> dict[str, tuple[str, int]]:
        with psycopg.connect(database_url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT name, status, attempts FROM ingest_steps WHERE run_id = %s", (run_id,)
            ).fetchall()
        return {name: (status, attempts) for name, status, attempts in rows}

    try:
        with bookrag_serve(tmp_path, env, stop=signal.SIGKILL) as base:
            body = push_body()
            reply = httpx.post(f"{base}/webhook/github", content=body, headers=signed(body))
            run_id = reply.json()["run_id"]
            for _ in range(600):
                if steps_of(run_id).get("embed_documents", ("", 0))[0] == "running":
                    break
                time.sleep(0.05)
            time.sleep(0.3)  # inside the step, before it can finish
            assert steps_of(run_id)["embed_documents"][0] == "running"
        # that server was killed (SIGKILL) inside the step; a new one picks the run up
        with bookrag_serve(tmp_path, env, stop=signal.SIGKILL) as base:
            for _ in range(1200):
                run = httpx.get(f"{base}/ingest/runs/{run_id}").json()
                if run["status"] in ("completed", "failed"):
                    break
                time.sleep(0.1)
        again = subprocess.run(
            [sys.executable, "-m", "agent.cli", "ingest"],
            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    assert run["status"] == "completed", run
    assert steps_of(run_id) == {
        "load_documents": ("completed", 1),
        "chunk_documents": ("completed", 1),
        "embed_documents": ("completed", 2),
        "upsert_chunks": ("completed", 1),
    }
    summary = json.loads(again.stdout)
    assert (summary["embedded"], summary["upserted"], summary["deleted"]) == (0, 0, 0)
    assert summary["total_chunks"] == run["summary"]["total_chunks"]
    assert cli_runs(database_url, env["BOOK_ID"]) == [("completed", 4)]


def cli_runs(database_url: str, book_id: str) -> list[tuple[str, int]]:
    """Status and number of recorded steps of the book's `bookrag ingest` runs."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        return conn.execute(
            "SELECT r.status, count(s.name) FROM ingest_runs r"
            " LEFT JOIN ingest_steps s ON s.run_id = r.id"
            " WHERE r.book_id = %s AND r.trigger = 'cli' GROUP BY r.id, r.status",
            (book_id,),
        ).fetchall()
