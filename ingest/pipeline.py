"""The ingest steps `load_documents → chunk_documents → embed_documents → upsert_chunks`.

Each step is a function of the previous step's output, and `run_steps` is the one place that
chains them: it hands each step to a caller-supplied `StepCall`, so the same sequence runs in
this process (`ingest.recorded.run_ingest`, the command line) or as the durable workflow's
steps (`ingest.workflow`).

Incremental by construction: a page whose document fingerprint (its text, metadata and the
chunk settings) matches its stored points is not even chunked again; a point whose stored
fingerprint equals the new one is left alone; a changed point gets its vector from the
embedding cache when its text is unchanged (e.g. only its neighbour ids moved) and from the
model otherwise; points of pages that are gone are deleted. Points of a page that failed to
load this time are kept, so a typo in one file's frontmatter never empties that page from the
index. Editing a page re-embeds only its changed chunks; its other points get their payload
(the new document fingerprint) rewritten with their cached vectors.
"""

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from core.database import connect
from core.embeddings import Bm25SparseEmbeddings, EmbeddingModel
from core.settings import Settings
from core.store import BookIndex, PointData, StoredPoint, fingerprint, open_index
from ingest import loader
from ingest.chunker import Chunk, chunk_pages, document_fingerprint
from ingest.documents import Document, FileProblem, LoadResult
from ingest.embedding_cache import EmbeddingCache
from ingest.work_tree import sync_to_commit

ProgressFactory = Callable[[int], Callable[[int], None]]
"""Given a total, returns a callback that advances a progress display by n."""
StepCall = Callable[..., Any]
"""Runs one named step: `call(name, function, *args)` returns `function(*args)`, perhaps
recorded, retried or checkpointed on the way."""
STEPS = ("load_documents", "chunk_documents", "embed_documents", "upsert_chunks")


@dataclass
class IngestSummary:
    """What a run did; printed as JSON by `bookrag ingest` and returned by the runs API."""

    total_documents: int = 0
    total_chunks: int = 0
    embedded: int = 0
    skipped_unchanged: int = 0
    deleted: int = 0
    upserted: int = 0
    problems: list[dict[str, Any]] = field(default_factory=list)
    status: str = "completed"

    def as_dict(self) -> dict[str, Any]:
        """The summary as a JSON-ready dict."""
        return asdict(self)


@dataclass
class ChunkPlan:
    """Output of `chunk_documents`: the chunks of changed pages and what to keep as it is."""

    chunks: list[Chunk]
    """Chunks of the pages that changed (pages with unchanged text are not chunked again)."""
    stored: dict[str, StoredPoint]
    """The collection's points before this run."""
    kept_ids: set[str]
    """Points of unchanged pages."""
    protected_files: set[str]
    """Pages that failed to load this time: their points are kept."""
    total_documents: int
    problems: list[dict[str, Any]]

    def changed(self) -> list[Chunk]:
        """Chunks whose stored point is missing or differs."""
        known = {point_id: point.fingerprint for point_id, point in self.stored.items()}
        return [c for c in self.chunks if known.get(c.id) != fingerprint(c.payload)]


@dataclass(frozen=True)
class EmbedCounts:
    """Output of `embed_documents`."""

    embedded: int
    """Texts the model embedded (the rest came from the cache)."""
    unchanged: int
    """Chunks whose stored point is already right."""


@dataclass(frozen=True)
class Checkout:
    """The pushed commit a webhook run ingests (the docs folder is a git work tree)."""

    branch: str | None
    commit: str | None


def load_documents(
    settings: Settings, docs_dir: Path | None = None, checkout: Checkout | None = None
) -> LoadResult:
    """Step `load_documents`: bring the work tree to the pushed commit, if any, then read
    the docs folder (`docs_dir`, else the book's)."""
    folder = docs_dir or settings.book_docs_dir
    if checkout is not None:
        sync_to_commit(folder, checkout.branch, checkout.commit)
    return loader.load_documents(folder, settings)


def unchanged_pages(
    documents: list[Document], stored: dict[str, StoredPoint], settings: Settings
) -> set[str]:
    """Pages whose stored points were made from exactly this text and these settings."""
    stored_by_file: dict[str, set[str]] = {}
    for point in stored.values():
        stored_by_file.setdefault(point.file_path, set()).add(point.document_fingerprint)
    return {
        doc.file_path
        for doc in documents
        if stored_by_file.get(doc.file_path) == {document_fingerprint(doc, settings)}
    }


def chunk_documents(
    loaded: LoadResult, settings: Settings, index: BookIndex, full: bool = False
) -> ChunkPlan:
    """Step `chunk_documents`: chunk the pages that changed; `full` first empties the collection."""
    if full:
        index.drop()
    index.ensure()
    stored = index.stored_points(settings.book_id)
    same = unchanged_pages(loaded.documents, stored, settings)
    return ChunkPlan(
        chunks=chunk_pages([d for d in loaded.documents if d.file_path not in same], settings),
        stored=stored,
        kept_ids={point_id for point_id, point in stored.items() if point.file_path in same},
        protected_files={p.file_path for p in loaded.problems if p.failed},
        total_documents=len(loaded.documents),
        problems=[_problem(p) for p in loaded.problems],
    )


def embed_documents(
    plan: ChunkPlan,
    settings: Settings,
    model: EmbeddingModel,
    progress: ProgressFactory | None = None,
) -> EmbedCounts:
    """Step `embed_documents`: put a vector for every changed chunk in the embedding cache.

    The cache commits batch by batch, so a run that stops here resumes with what was done.
    Postgres is opened only when something changed.
    """
    changed = plan.changed()
    if not changed:
        return EmbedCounts(0, len(plan.chunks))
    texts = {c.payload["content_hash"]: c.embedded_text for c in changed}
    with connect(settings) as conn:
        cache = EmbeddingCache(conn, model)
        missing = len(texts) - len(cache.lookup(list(texts)))
        advance = progress(missing) if progress and missing else None
        _, embedded = cache.embed(texts, advance)
    return EmbedCounts(embedded, len(plan.chunks) - len(changed))


def upsert_chunks(
    plan: ChunkPlan, settings: Settings, model: EmbeddingModel, index: BookIndex
) -> tuple[int, int]:
    """Step `upsert_chunks`: write the changed points (vectors from the cache, BM25 computed),
    then delete the book's points that are neither current nor protected.

    Returns (points written, points deleted). Running it twice gives the same collection.
    """
    changed = plan.changed()
    vectors: dict[str, list[float]] = {}
    if changed:
        with connect(settings) as conn:
            vectors = EmbeddingCache(conn, model).lookup(
                [c.payload["content_hash"] for c in changed]
            )
    sparse = Bm25SparseEmbeddings().embed_documents([c.embedded_text for c in changed])
    points = [
        PointData(c.id, c.payload, vectors[c.payload["content_hash"]], s.indices, s.values)
        for c, s in zip(changed, sparse, strict=True)
    ]
    index.ensure()
    written = index.upsert(points)
    keep = {chunk.id for chunk in plan.chunks} | plan.kept_ids
    stale = [
        point_id
        for point_id, stored in index.stored_points(settings.book_id).items()
        if point_id not in keep and stored.file_path not in plan.protected_files
    ]
    deleted = index.delete(stale)
    if written or deleted:
        index.commit()  # durable, and indexed for search (the embedded engine builds HNSW here)
    return written, deleted


def summarize(plan: ChunkPlan, counts: EmbedCounts, written: int, deleted: int) -> IngestSummary:
    """The run's summary."""
    return IngestSummary(
        total_documents=plan.total_documents,
        total_chunks=len(plan.chunks) + len(plan.kept_ids),
        embedded=counts.embedded,
        skipped_unchanged=counts.unchanged + len(plan.kept_ids),
        deleted=deleted,
        upserted=written,
        problems=plan.problems,
    )


def run_steps(
    call: StepCall,
    settings: Settings,
    model: EmbeddingModel,
    *,
    docs_dir: Path | None = None,
    checkout: Checkout | None = None,
    full: bool = False,
    progress: ProgressFactory | None = None,
) -> IngestSummary:
    """Ingest the book step by step, each step run through `call`; `full` rebuilds."""
    index = open_index(settings, model)
    loaded = call("load_documents", load_documents, settings, docs_dir, checkout)
    plan = call("chunk_documents", chunk_documents, loaded, settings, index, full)
    counts = call("embed_documents", embed_documents, plan, settings, model, progress)
    written, deleted = call("upsert_chunks", upsert_chunks, plan, settings, model, index)
    return summarize(plan, counts, written, deleted)


def _problem(problem: FileProblem) -> dict[str, Any]:
    return {"file": problem.file_path, "reason": problem.reason, "failed": problem.failed}
