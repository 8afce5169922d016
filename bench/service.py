"""The HTTP service under load, as a client sees it: `bookrag serve` in its own process over the
humanoid textbook, driven over loopback.

Prints `/query` p50/p95 and throughput at 1, 10 and 50 concurrent clients (offline answers),
`/chat/stream` time to the first answer chunk, `/health` latency while 20 chats stream, the
server's RSS after warm-up, and, with a stub OpenAI-compatible LLM on loopback that sends its
first token at once and then one chunk every 20 ms, the time to the first answer token: all of
it is the service's own overhead (search, grading call, prompt, streaming).

Run: `python -m bench.service` (after `bench.retrieval`, whose ingest it reuses).
"""

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from agent.evaluation.metrics import load_questions
from bench.search import percentile
from bench.setup import QUESTIONS, ingested_humanoid
from core.database import database_url
from core.settings import Settings
from core.store import close_qdrant
from tests.fakes import stub_openai
from tests.loopback import free_port

CONCURRENCY = (1, 10, 50)
STREAMS_DURING_HEALTH = 20
STUB_CHUNK_INTERVAL = 0.02


@contextmanager
def serve(settings: Settings, **env: str) -> Iterator[tuple[str, int]]:
    """`bookrag serve` for the bench's book in a child process; yields (base URL, pid)."""
    port = free_port()
    environment = {
        **os.environ,
        "DATA_DIR": str(settings.data_dir),
        "DATABASE_URL": database_url(settings),
        "RATE_LIMIT_CLIENT_PER_MINUTE": "0",
        "RATE_LIMIT_SESSION_PER_MINUTE": "0",
        "DB_POOL_MAX_SIZE": "20",
        **env,
    }
    command = [sys.executable, "-m", "agent.cli", "serve", "--port", str(port)]
    command += ["--book-id", settings.book_id, "--log-level", "warning"]
    server = subprocess.Popen(command, env=environment)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, server)
        yield base, server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


def wait_ready(base: str, server: subprocess.Popen, seconds: float = 600) -> None:
    """Until `/ready` answers 200 (a RuntimeError if the server exits or the time runs out)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(f"{base}/ready", timeout=30).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("the server did not become ready")


def rss_mib(pid: int) -> float:
    """Resident memory of a process (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def summary(values: list[float]) -> str:
    """p50 / p95 in milliseconds."""
    return f"p50 {percentile(values, 0.5):.0f} ms, p95 {percentile(values, 0.95):.0f} ms"


async def query_load(base: str, questions: list[str], clients: int) -> tuple[list[float], float]:
    """`/query` latencies (ms) with `clients` concurrent clients, and requests per second."""
    total = max(40, 4 * clients)
    work = [questions[i % len(questions)] for i in range(total)]
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=clients)

    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:

        async def worker() -> None:
            while work:
                question = work.pop()
                start = time.perf_counter()
                response = await client.post("/query", json={"question": question})
                response.raise_for_status()
                latencies.append((time.perf_counter() - start) * 1000)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        elapsed = time.perf_counter() - start
    return latencies, total / elapsed


async def first_chunk_ms(client: httpx.AsyncClient, question: str) -> float:
    """Milliseconds from sending a `/chat/stream` turn to its first answer chunk."""
    start = time.perf_counter()
    async with client.stream("POST", "/chat/stream", json={"input": {"question": question}}) as r:
        first = None
        async for line in r.aiter_lines():
            if first is None and line.startswith('data: {"answer"'):
                first = time.perf_counter()
    return ((first or time.perf_counter()) - start) * 1000


async def first_chunks(base: str, questions: list[str]) -> list[float]:
    """Time to the first answer chunk of each question, one at a time, after a warm-up."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        for question in questions[:3]:
            await first_chunk_ms(client, question)
        return [await first_chunk_ms(client, question) for question in questions]


async def health_while_streaming(base: str, questions: list[str]) -> list[float]:
    """`/health` latencies (ms) sampled every 20 ms while 20 chats stream at once."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        chats = [
            asyncio.create_task(first_chunk_ms(client, questions[i % len(questions)]))
            for i in range(STREAMS_DURING_HEALTH)
        ]
        latencies = []
        while not all(chat.done() for chat in chats):
            start = time.perf_counter()
            (await client.get("/health")).raise_for_status()
            latencies.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.02)
        await asyncio.gather(*chats)
    return latencies


def main() -> int:
    """Print the service's latency, throughput and memory numbers."""
    settings, corpus = ingested_humanoid()
    close_qdrant()  # the server process opens the embedded store
    questions = [
        q.question for q in load_questions(QUESTIONS / "humanoid_questions.jsonl") if q.gold
    ]
    print(f"corpus: {corpus.total_documents} pages, {corpus.total_chunks} chunks")
    with serve(settings) as (base, pid):
        asyncio.run(first_chunks(base, questions[:5]))  # warm-up
        print(f"server RSS after warm-up: {rss_mib(pid):.0f} MiB")
        for clients in CONCURRENCY:
            latencies, throughput = asyncio.run(query_load(base, questions, clients))
            print(f"/query, {clients:>2} clients: {summary(latencies)}, {throughput:.1f} req/s")
        firsts = asyncio.run(first_chunks(base, questions[:30]))
        print(f"/chat/stream first answer chunk (offline): {summary(firsts)}")
        health = asyncio.run(health_while_streaming(base, questions))
        streams = STREAMS_DURING_HEALTH
        print(f"/health while {streams} chats stream: {summary(health)}, max {max(health):.0f} ms")
        print(f"server RSS after the load: {rss_mib(pid):.0f} MiB")
    verdict = ", ".join(str(n) for n in range(1, 21))
    chunks = ["Balance ", "control ", "keeps ", "the ", "robot ", "upright ", "[1]."]
    with stub_openai(verdict, chunks, STUB_CHUNK_INTERVAL) as stub:
        llm = {"LLM_MODEL": "openai:stub-model", "OPENAI_BASE_URL": stub.base_url,
               "OPENAI_API_KEY": "stub"}  # fmt: skip
        with serve(settings, **llm) as (base, _):
            firsts = asyncio.run(first_chunks(base, questions[:30]))
    print(f"/chat/stream first token with a stub LLM (service overhead): {summary(firsts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
