"""The embedded store at scale: qdrant-client's local mode (the old embedded store) beside Qdrant
Edge (the new one), in one run, on books of about 1k, 10k and 50k chunks.

Books are made from the shared corpora: 1k is the humanoid textbook (978 chunks); larger books
hold several copies of the humanoid, Redux and Prettier docs side by side, each page copy under
a file name of its own (copies share their texts, so the embedding cache embeds each text once).
For each engine and size it prints: full ingest time (warm embedding cache, empty index), index
size on disk, search p50/p95 unfiltered and filtered (tier <= 2, chapters 1-3; warm, query
embedding included), hybrid search's hit@1/hit@5/MRR on the humanoid questions (copies of a
page count as the page), `/query` p50/p95 at 1 client and throughput at 1/10/50 clients
(offline answers, `bookrag serve` in its own process), the server's RSS; then the sample book's
no-op and one-file ingests (`bookrag ingest`, process start included, with peak memory) alone
and beside the big books.

Run: `python -m bench.scale` (about 30 minutes; `--sizes 1000,10000` and `--engines edge` for a
part, `--no-service` to skip the HTTP part). Stores go to `.data/bench/scale/`; the embedding
cache is the user's database's, as for every bench.
"""

import argparse
import asyncio
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SCALE_DATA = REPO / ".data" / "bench" / "scale"
SAMPLE_BOOK = REPO / "book" / "docs"
ENGINES = ("local-mode", "edge")
SIZES = (1000, 10000, 50000)
QUESTION_COUNT = 40
SEARCH_ROUNDS = 2
CONCURRENCY = (1, 10, 50)
FILTER = {"hardware_tier": 2, "chapter_min": 1, "chapter_max": 3}


@dataclass
class Row:
    """One engine at one size."""

    engine: str
    size: int
    chunks: int = 0
    ingest_s: float = math.nan
    disk_mib: float = math.nan
    search: dict[str, tuple[float, float]] = field(default_factory=dict)
    quality: str = ""
    """hit@1 / hit@5 / MRR@10 of hybrid search on the humanoid questions."""
    query_1: tuple[float, float] = (math.nan, math.nan)
    throughput: dict[int, float] = field(default_factory=dict)
    refused: dict[int, int] = field(default_factory=dict)
    rss_mib: float = math.nan
    peak_mib: float = math.nan
    load: float = math.nan
    """The machine's 1-minute load average after the measurements (others' work is noise)."""


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the sorted values fall."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def p50_p95(values: list[float]) -> tuple[float, float]:
    """Median and 95th percentile (NaN when there is nothing to measure)."""
    if not values:
        return math.nan, math.nan
    return statistics.median(values), percentile(values, 0.95)


def recipe(size: int) -> list[str]:
    """The corpora (repeated) that make a book of about `size` chunks."""
    if size <= 1000:
        return ["humanoid-textbook"]
    every = ["humanoid-textbook", "redux-docs", "prettier-docs"]  # 978 + 1,055 + 170 chunks
    rounds = max(1, size // 2203)
    extra = ["humanoid-textbook"] if size - rounds * 2203 > 489 else []
    return every * rounds + extra


def build_docs(size: int) -> Path:
    """A docs folder of copies of the corpora, hard-linked (no text is duplicated on disk).

    Copies keep every folder as it is, since bookrag derives a page's module and chapter from
    its first folder; only their file names get a `--cNN` suffix.
    """
    from bench.setup import CORPORA

    folder = SCALE_DATA / f"docs-{size}"
    if folder.is_dir():
        return folder
    staging = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    for number, corpus in enumerate(recipe(size)):
        source = CORPORA / corpus / "docs"
        for path in source.rglob("*"):
            if not path.is_file() or (number and path.suffix not in (".md", ".mdx")):
                continue
            relative = path.relative_to(source)
            if path.suffix in (".md", ".mdx"):
                relative = relative.with_name(f"{path.stem}--c{number:02d}{path.suffix}")
            (staging / relative).parent.mkdir(parents=True, exist_ok=True)
            os.link(path, staging / relative)
    staging.rename(folder)
    return folder


def book_settings(engine: str, size: int | str, docs: Path) -> Any:
    """Settings of one book in a data folder of its own per engine and size."""
    from bench.setup import bench_settings

    return bench_settings(
        data_dir=SCALE_DATA / engine / str(size), book_id=f"scale-{size}", book_docs_dir=docs
    )


def warm_cache(docs: Path) -> int:
    """Embed what the cache lacks for these docs, before anything is timed; returns how many."""
    from core.database import connect
    from core.embeddings import make_embedding_model
    from ingest.chunker import chunk_pages
    from ingest.embedding_cache import EmbeddingCache
    from ingest.loader import load_documents

    settings = book_settings("edge", "warm", docs)
    chunks = chunk_pages(load_documents(docs, settings).documents, settings)
    texts = {c.payload["content_hash"]: c.embedded_text for c in chunks}
    with connect(settings) as conn:
        _, embedded = EmbeddingCache(conn, make_embedding_model(settings)).embed(texts)
    return embedded


def disk_mib(folder: Path) -> float:
    """Disk space the files under `folder` take, in MiB (Qdrant preallocates sparse files,
    whose apparent size is far larger)."""
    return sum(p.stat().st_blocks * 512 for p in folder.rglob("*") if p.is_file()) / 2**20


def measure_search(settings: Any, questions: list[str], row: Row) -> None:
    """Warm search latency (query embedding included), unfiltered and filtered, p50/p95 ms, and
    retrieval quality on the humanoid question set."""
    from agent.retrieval.search import HybridSearcher, SearchFilters
    from core.embeddings import make_embedding_model
    from core.store import open_index

    model = make_embedding_model(settings)
    searcher = HybridSearcher(open_index(settings, model), model, settings.book_id)
    for question in questions[:5]:
        searcher.search(question)
    for label, filters in (("unfiltered", None), ("filtered", SearchFilters(**FILTER))):
        times = []
        for _ in range(SEARCH_ROUNDS):
            for question in questions:
                start = time.perf_counter()
                hits = searcher.search(question, k=10, filters=filters)
                times.append((time.perf_counter() - start) * 1000)
                assert hits, f"no hits for {question!r} ({label})"
        row.search[label] = p50_p95(times)
    row.quality = quality(searcher)


def quality(searcher: Any) -> str:
    """hit@1 / hit@5 / MRR@10 of hybrid search (question only) on the humanoid questions.

    Copies of a page count as the page (their file names differ only by `--cNN`), so the
    numbers are comparable across book sizes; the other corpora are distractors.
    """
    from agent.evaluation.metrics import evaluate_retrieval, load_questions
    from agent.retrieval.search import SearchHit
    from bench.setup import QUESTIONS

    def as_original(hit: SearchHit) -> SearchHit:
        path = re.sub(r"--c\d\d(\.mdx?)$", r"\1", hit.payload.get("file_path", ""))
        return SearchHit(hit.id, hit.score, {**hit.payload, "file_path": path}, hit.dense_score)

    questions = load_questions(QUESTIONS / "humanoid_questions.jsonl")
    report = evaluate_retrieval(
        questions,
        lambda q: [as_original(h) for h in searcher.search(q.question, k=10)],
    )
    return f"{report['hit@1']:.3f} / {report['hit@5']:.3f} / {report['mrr@10']:.3f}"


def bookrag_command(engine: str, *args: str) -> list[str]:
    """`bookrag <args>` on `engine`, through this module: bookrag itself always embeds Edge,
    and a child's own peak memory can only be read by the child (see `bookrag_on`)."""
    return [sys.executable, "-m", "bench.scale", "bookrag-on", engine, *args]


def bookrag_on(engine: str, args: list[str]) -> int:
    """Run the `bookrag` command line on `engine`; with `BENCH_PEAK_FILE` set, write the
    process's peak RSS (VmHWM) there at exit. (`wait4`'s maxrss is no use: a child inherits the
    parent's peak from before its exec.)"""
    import atexit

    from agent.cli import main as bookrag
    from core.store import use_embedded_engine

    peak_file = os.environ.get("BENCH_PEAK_FILE")
    if peak_file:
        atexit.register(lambda: Path(peak_file).write_text(str(status_mib(os.getpid(), "VmHWM"))))
    use_embedded_engine("local-mode" if engine == "local-mode" else "edge")
    return bookrag(args)


def environment(settings: Any, **extra: str) -> dict[str, str]:
    """The child process's environment for these settings."""
    from core.database import database_url

    return {
        **os.environ,
        "DATA_DIR": str(settings.data_dir),
        "DATABASE_URL": database_url(settings),
        "BOOK_ID": settings.book_id,
        "BOOK_DOCS_DIR": str(settings.book_docs_dir),
        **extra,
    }


def status_mib(pid: int, key: str) -> float:
    """A memory line of /proc/<pid>/status (VmRSS, VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1]) / 1024
    return math.nan


@contextmanager
def serving(engine: str, settings: Any) -> Iterator[tuple[str, int]]:
    """`bookrag serve` for the book in a child process; yields (base URL, pid)."""
    import httpx

    from tests.loopback import free_port

    port = free_port()
    env = environment(
        settings,
        RATE_LIMIT_CLIENT_PER_MINUTE="0",
        RATE_LIMIT_SESSION_PER_MINUTE="0",
        DB_POOL_MAX_SIZE="20",
    )
    command = bookrag_command(engine, "serve", "--port", str(port), "--log-level", "warning")
    server = subprocess.Popen(command, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and server.poll() is None:
            try:
                if httpx.get(f"{base}/ready", timeout=30).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        else:
            raise RuntimeError("the server did not become ready")
        yield base, server.pid
    finally:
        server.terminate()
        server.wait(timeout=60)


async def query_load(
    base: str, questions: list[str], clients: int
) -> tuple[list[float], float, int]:
    """`/query` latencies (ms) of answered requests with `clients` concurrent clients, answered
    requests per second, and how many were refused (e.g. 503 when turns queue for the pool)."""
    import httpx

    work = [questions[i % len(questions)] for i in range(max(40, 2 * clients))]
    latencies: list[float] = []
    failed = 0
    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=600, limits=limits) as client:

        async def worker() -> None:
            nonlocal failed
            while work:
                question = work.pop()
                start = time.perf_counter()
                response = await client.post("/query", json={"question": question})
                if response.is_success:
                    latencies.append((time.perf_counter() - start) * 1000)
                else:
                    failed += 1

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(clients)))
        elapsed = time.perf_counter() - start
    return latencies, len(latencies) / elapsed, failed


def measure_service(engine: str, settings: Any, questions: list[str], row: Row) -> None:
    """/query latency at 1 client, throughput at each concurrency, and the server's memory."""
    with serving(engine, settings) as (base, pid):
        asyncio.run(query_load(base, questions[:5], 1))  # warm-up: model, vocabulary, pool
        for clients in CONCURRENCY:
            latencies, throughput, failed = asyncio.run(query_load(base, questions, clients))
            row.throughput[clients] = throughput
            row.refused[clients] = failed
            if clients == 1:
                row.query_1 = p50_p95(latencies)
            print(
                f"  {engine} {row.size}: /query x{clients}: {throughput:.1f} req/s, "
                f"{failed} refused",
                flush=True,
            )
        row.rss_mib = status_mib(pid, "VmRSS")
        row.peak_mib = status_mib(pid, "VmHWM")


def timed_ingest(engine: str, settings: Any) -> tuple[float, float]:
    """Wall seconds and peak MiB of one `bookrag ingest` process."""
    with tempfile.TemporaryDirectory() as scratch:
        peak = Path(scratch) / "peak"
        env = environment(settings, BENCH_PEAK_FILE=str(peak))
        start = time.perf_counter()
        done = subprocess.run(
            bookrag_command(engine, "ingest"), env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        elapsed = time.perf_counter() - start
        if done.returncode:
            raise RuntimeError(f"bookrag ingest failed: {done.stderr}")
        return elapsed, float(peak.read_text())


def sample_book_ingests(engine: str, beside: list[int]) -> None:
    """The sample book's no-op and one-file `bookrag ingest`, in a data folder of its own and
    in the folder of each big book."""
    for size in [None, *beside]:
        docs = SCALE_DATA / f"sample-docs-{engine}-{size}"
        shutil.rmtree(docs, ignore_errors=True)
        shutil.copytree(SAMPLE_BOOK, docs)
        data = SCALE_DATA / engine / (str(size) if size else "sample-alone")
        from bench.setup import bench_settings

        settings = bench_settings(data_dir=data, book_id="scale-sample", book_docs_dir=docs)
        timed_ingest(engine, settings)  # the first ingest of the sample book there
        noop = [timed_ingest(engine, settings) for _ in range(3)]
        edited = sorted(docs.rglob("*.md"))[3]
        edited.write_text(edited.read_text() + "\n\nA closing paragraph added by bench.scale.\n")
        one_file = timed_ingest(engine, settings)
        where = f"beside the {size}-chunk book" if size else "alone"
        print(
            f"| {engine} | {where} | {statistics.median(t for t, _ in noop):.2f} s "
            f"({max(m for _, m in noop):.0f} MiB) | {one_file[0]:.2f} s ({one_file[1]:.0f} MiB) |",
            flush=True,
        )
        shutil.rmtree(docs, ignore_errors=True)


def run(sizes: list[int], engines: list[str], service: bool) -> None:
    """Build, measure and print every (engine, size)."""
    from agent.evaluation.metrics import load_questions
    from bench.setup import QUESTIONS
    from core.store import close_qdrant, use_embedded_engine
    from ingest.recorded import run_ingest

    questions = [q.question for q in load_questions(QUESTIONS / "humanoid_questions.jsonl")]
    questions = questions[:QUESTION_COUNT]
    rows: list[Row] = []
    for size in sizes:
        docs = build_docs(size)
        print(f"book of ~{size} chunks: embedded {warm_cache(docs)} missing texts", flush=True)
        for engine in engines:
            row = Row(engine, size)
            settings = book_settings(engine, size, docs)
            shutil.rmtree(settings.data_dir, ignore_errors=True)
            use_embedded_engine("local-mode" if engine == "local-mode" else "edge")
            start = time.perf_counter()
            summary = run_ingest(settings, docs)
            row.ingest_s = time.perf_counter() - start
            row.chunks = summary.total_chunks
            store = settings.qdrant_path if engine == "local-mode" else settings.data_dir
            row.disk_mib = disk_mib(store / "qdrant-edge" if engine == "edge" else store)
            measure_search(settings, questions, row)
            close_qdrant()  # the server process opens the store
            print(f"  {engine} {size}: {row}", flush=True)
            if service:
                measure_service(engine, settings, questions, row)
            row.load = os.getloadavg()[0]
            rows.append(row)
    use_embedded_engine("edge")
    print_table(rows)
    print("\n| engine | sample book (102 chunks) | no-op ingest (peak) | one-file change (peak) |")
    print("|---|---|---|---|")
    for engine in engines:
        sample_book_ingests(engine, [s for s in sizes if s >= 10000])


def print_table(rows: list[Row]) -> None:
    """The side-by-side table."""

    def pair(values: tuple[float, float]) -> str:
        return f"{values[0]:.0f} / {values[1]:.0f}"

    print(
        "\n| chunks | engine | ingest | on disk | search p50/p95 ms | filtered p50/p95 ms "
        "| humanoid hit@1/hit@5/MRR | /query p50/p95 ms (1 client) "
        "| req/s at 1 / 10 / 50 | 10 vs 1 | server RSS (peak) | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        rates = " / ".join(
            f"{r.throughput.get(c, math.nan):.1f}"
            + (f" ({r.refused[c]} refused)" if r.refused.get(c) else "")
            for c in CONCURRENCY
        )
        ratio = r.throughput.get(10, math.nan) / r.throughput.get(1, math.nan)
        print(
            f"| {r.chunks:,} | {r.engine} | {r.ingest_s:.1f} s | {r.disk_mib:.0f} MiB "
            f"| {pair(r.search['unfiltered'])} | {pair(r.search['filtered'])} "
            f"| {r.quality} "
            f"| {pair(r.query_1)} | {rates} | {ratio:.2f}x "
            f"| {r.rss_mib:.0f} MiB ({r.peak_mib:.0f}) | {r.load:.1f} |"
        )


def main(argv: list[str] | None = None) -> int:
    """Parse the options and run (or, with `bookrag-on`, run bookrag on another engine)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["bookrag-on"]:
        return bookrag_on(args[1], args[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--no-service", action="store_true")
    options = parser.parse_args(args)
    sizes = [int(s) for s in options.sizes.split(",")]
    run(sizes, options.engines.split(","), not options.no_service)
    return 0


if __name__ == "__main__":
    sys.exit(main())
