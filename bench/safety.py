"""What safety costs and how the service holds up: the output filter's cost on real answers,
a whole offline turn on questions of the longest allowed length crafted to make text patterns
backtrack, the server's memory under large unsigned webhook posts, and recovery after `kill -9`
of the embedded PostgreSQL under 20 concurrent clients.

Run: `python -m bench.safety` (the sample book only; the recovery part starts its own embedded
PostgreSQL in a temporary data folder).
"""

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from agent.context import Context
from agent.conversations.turns import Turn, run_turn
from agent.resources import Resources, build_resources
from bench.search import percentile
from bench.service import rss_mib, serve, wait_ready
from bench.setup import REPO, bench_settings
from core.safety import SafeMarkdown, link_policy
from core.settings import Settings
from core.store import close_qdrant
from ingest.recorded import run_ingest
from tests.loopback import free_port

SAMPLE_BOOK = REPO / "book" / "docs"
QUESTIONS = [
    "How do I start several ROS 2 nodes together?",
    "What does the reliability QoS policy do?",
    "How is a robot described for simulation?",
    "What is the difference between Gazebo and Isaac Sim?",
    "How does a VLA model turn an instruction into actions?",
    "What is domain randomization?",
    "How do ROS 2 services differ from topics?",
    "What should a humanoid do when it falls?",
]
CRAFTED = [
    "What is " + " in" * 1296 + "?",
    "(" * 3990 + " vs b?",
    "how do I " + "and " * 985 + "work together?",
    "x, and " * 570 + "why?",
    "`" * 3999 + "?",
]
"""Questions of at most `MAX_QUESTION_CHARS` that make a pattern with unbounded repeats retry
from every position: a run of one word, one long token, a clause break over and over."""
CRAFTED_TEXTS = [
    "[" * 4000,
    "![" * 2000,
    "[" * 2000 + "]" * 2000,
    "[a](b" * 800,
    "[a](" + "(" * 3996,
]
"""Texts of 4,000 characters that a model or a page could send through the output filter:
brackets that open links, images and destinations that never (or only at the end) close."""
POSTS, POST_BYTES = 10, 24 * 1024 * 1024
CLIENTS = 20


def _sample_book() -> tuple[Settings, Resources]:
    """The sample book ingested into the bench store (incremental), and its resources."""
    settings = bench_settings(book_id="bench-sample")
    run_ingest(settings, SAMPLE_BOOK)
    return settings, build_resources(settings)


def filter_cost() -> None:
    """The output filter's CPU time before the first token and per answer, on real answers."""
    settings, resources = _sample_book()
    answers = [
        asyncio.run(run_turn(Turn(q), resources, context=Context())).answer for q in QUESTIONS
    ]
    policy = link_policy(settings)
    first, whole = [], []
    for _ in range(25):
        for answer in answers:
            words = [word + " " for word in answer.split(" ")]  # as a model streams them
            safe = SafeMarkdown(policy)
            start = time.perf_counter()
            shown = ""
            for word in words:
                shown = safe.feed(word)
                if shown:
                    break
            first.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            SafeMarkdown(policy).filter(answer)
            whole.append((time.perf_counter() - start) * 1000)
    print(
        f"output filter: added before the first token p50 {percentile(first, 0.5):.3f} ms, "
        f"p95 {percentile(first, 0.95):.3f} ms; a whole answer p50 "
        f"{percentile(whole, 0.5):.2f} ms, p95 {percentile(whole, 0.95):.2f} ms"
    )
    crafted_whole, streamed = [], []
    for text in CRAFTED_TEXTS:
        start = time.perf_counter()
        SafeMarkdown(policy).filter(text)
        crafted_whole.append((time.perf_counter() - start) * 1000)
        safe, start = SafeMarkdown(policy), time.perf_counter()
        for at in range(0, len(text), 4):  # about a model's token each
            safe.feed(text[at : at + 4])
        safe.flush()
        streamed.append((time.perf_counter() - start) * 1000)
    print(
        f"output filter on crafted {len(CRAFTED_TEXTS[0])}-character texts: whole at most "
        f"{max(crafted_whole):.1f} ms, streamed in 4-character pieces at most "
        f"{max(streamed):.0f} ms"
    )
    close_qdrant()


def crafted_questions() -> None:
    """A whole offline turn on each crafted question, against the sample questions."""
    _, resources = _sample_book()

    def turn_ms(question: str) -> float:
        start = time.perf_counter()
        asyncio.run(run_turn(Turn(question), resources, context=Context()))
        return (time.perf_counter() - start) * 1000

    turn_ms(QUESTIONS[0])  # warm the models
    usual = [turn_ms(q) for q in QUESTIONS]
    crafted = [turn_ms(q) for q in CRAFTED]
    print(
        f"crafted {max(len(q) for q in CRAFTED)}-character questions: a whole offline turn "
        f"p50 {percentile(crafted, 0.5):.0f} ms, max {max(crafted):.0f} ms (the sample "
        f"questions: p50 {percentile(usual, 0.5):.0f} ms, max {max(usual):.0f} ms)"
    )
    close_qdrant()


def webhook_memory() -> None:
    """The server's RSS before and after concurrent large unsigned posts."""
    settings = bench_settings(book_id="bench-sample")
    body = b"x" * POST_BYTES
    with serve(settings, GITHUB_WEBHOOK_SECRET="bench-secret", INGEST_WORKFLOWS="false") as (
        base,
        pid,
    ):
        before = rss_mib(pid)

        async def posts() -> list[int]:
            async with httpx.AsyncClient(base_url=base, timeout=120) as client:
                replies = await asyncio.gather(
                    *(client.post("/webhook/github", content=body) for _ in range(POSTS))
                )
            return [reply.status_code for reply in replies]

        statuses = asyncio.run(posts())
        after = rss_mib(pid)
    print(
        f"webhook: {POSTS} concurrent unsigned {POST_BYTES >> 20} MiB posts -> "
        f"{sorted(set(statuses))}; server RSS {before:.0f} -> {after:.0f} MiB "
        f"(+{after - before:.1f} MiB)"
    )


def postgres_recovery() -> None:
    """Time from `kill -9` of the embedded postmaster to the next answered turn, under load."""
    with tempfile.TemporaryDirectory() as folder:
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env |= {
            "DATA_DIR": str(Path(folder) / "data"),
            "BOOK_DOCS_DIR": str(SAMPLE_BOOK),
            "RATE_LIMIT_CLIENT_PER_MINUTE": "0",
            "RATE_LIMIT_SESSION_PER_MINUTE": "0",
            "INGEST_WORKFLOWS": "false",
            "DB_POOL_MAX_SIZE": str(CLIENTS),
        }
        command = [sys.executable, "-m", "agent.cli"]
        subprocess.run([*command, "ingest"], env=env, check=True, capture_output=True)
        port = free_port()
        server = subprocess.Popen(
            [*command, "serve", "--port", str(port), "--log-level", "warning"], env=env
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(base, server)
            acknowledged, first_after = _kill_under_load(base, Path(folder) / "data")
            lost = _lost_turns(base, acknowledged)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    print(
        f"embedded PostgreSQL killed under {CLIENTS} clients: first answer after "
        f"{first_after:.1f} s; {len(acknowledged)} acknowledged turns, {lost} lost"
    )


def _kill_under_load(base: str, data: Path) -> tuple[list[tuple[str, str, int]], float]:
    acknowledged: list[tuple[str, str, int]] = []
    stop = threading.Event()
    killed_at: list[float] = []
    answered_after: list[float] = []

    def reader() -> None:
        with httpx.Client(base_url=base, timeout=60) as client:
            while not stop.is_set():
                reply = client.post("/query", json={"question": QUESTIONS[0]})
                if reply.status_code == 200:
                    body = reply.json()
                    acknowledged.append(
                        (body["session_id"], body["session_token"], body["message_id"])
                    )
                    if killed_at and not answered_after:
                        answered_after.append(time.monotonic() - killed_at[0])

    threads = [threading.Thread(target=reader) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    time.sleep(3)
    pid = int((data / "pg" / "postmaster.pid").read_text().splitlines()[0])
    killed_at.append(time.monotonic())
    os.kill(pid, signal.SIGKILL)
    while not answered_after and time.monotonic() - killed_at[0] < 120:
        time.sleep(0.05)
    time.sleep(2)
    stop.set()
    for thread in threads:
        thread.join()
    return acknowledged, answered_after[0] if answered_after else float("inf")


def _lost_turns(base: str, acknowledged: list[tuple[str, str, int]]) -> int:
    lost = 0
    with httpx.Client(base_url=base, timeout=60) as client:
        for session, token, message in acknowledged:
            view = client.get(f"/sessions/{session}", headers={"authorization": f"Bearer {token}"})
            ids = [m["id"] for m in view.json().get("messages", [])]
            lost += message not in ids
    return lost


def main() -> int:
    """Print the four measurements."""
    filter_cost()
    crafted_questions()
    webhook_memory()
    postgres_recovery()
    return 0


if __name__ == "__main__":
    sys.exit(main())
