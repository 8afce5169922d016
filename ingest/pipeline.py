"""The ingest steps `load_documents → chunk_documents → embed_documents → upsert_chunks`.

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

from ingest.chunker import Chunk, chunk_documents, document_fingerprint
from ingest.database import connect
from ingest.documents import Document, FileProblem
from ingest.embedding_cache import EmbeddingCache
from ingest.embeddings import Bm25SparseEmbeddings, EmbeddingModel, make_embedding_model
from ingest.loader import load_documents
from ingest.settings import Settings
from ingest.store import (
    BookIndex,
    PointData,
    StoredPoint,
    collection_name,
    fingerprint,
    open_qdrant,
)

ProgressFactory = Callable[[int], Callable[[int], None]]
"""Given a total, returns a callback that advances a progress display by n."""


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


@dataclass(frozen=True)
class EmbeddedChunks:
    """Output of `embed_documents`: the points to write and the counts for the summary."""

    points: list[PointData]
    embedded: int
    unchanged: int


def open_index(settings: Settings, model: EmbeddingModel) -> BookIndex:
    """The book's collection for this embedding model."""
    name = collection_name(settings.book_id, model.model_id, model.dimension)
    return BookIndex(open_qdrant(settings), name, model.dimension, settings.book_id)


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


def embed_documents(
    chunks: list[Chunk],
    stored: dict[str, StoredPoint],
    settings: Settings,
    model: EmbeddingModel,
    progress: ProgressFactory | None = None,
) -> EmbeddedChunks:
    """Vectors for the chunks whose stored point differs; Postgres is opened only if needed."""
    known = {point_id: point.fingerprint for point_id, point in stored.items()}
    changed = [c for c in chunks if known.get(c.id) != fingerprint(c.payload)]
    if not changed:
        return EmbeddedChunks([], 0, len(chunks))
    texts = {c.payload["content_hash"]: c.embedded_text for c in changed}
    with connect(settings) as conn:
        cache = EmbeddingCache(conn, model)
        missing = len(texts) - len(cache.lookup(list(texts)))
        advance = progress(missing) if progress and missing else None
        vectors, embedded = cache.embed(texts, advance)
    sparse = Bm25SparseEmbeddings().embed_documents([c.embedded_text for c in changed])
    points = [
        PointData(c.id, c.payload, vectors[c.payload["content_hash"]], s.indices, s.values)
        for c, s in zip(changed, sparse, strict=True)
    ]
    return EmbeddedChunks(points, embedded, len(chunks) - len(changed))


def upsert_chunks(
    index: BookIndex,
    settings: Settings,
    points: list[PointData],
    keep_ids: set[str],
    protected_files: set[str],
) -> tuple[int, int]:
    """Write `points`, then delete the book's points that are neither kept nor protected.

    Returns (points written, points deleted).
    """
    index.ensure()
    written = index.upsert(points)
    stale = [
        point_id
        for point_id, stored in index.stored_points(settings.book_id).items()
        if point_id not in keep_ids and stored.file_path not in protected_files
    ]
    return written, index.delete(stale)


def run_ingest(
    settings: Settings,
    docs_dir: Path | None = None,
    full: bool = False,
    progress: ProgressFactory | None = None,
) -> IngestSummary:
    """Ingest a docs folder into the book's collection; `full` rebuilds the collection."""
    loaded = load_documents(docs_dir or settings.book_docs_dir, settings)
    model = make_embedding_model(settings)
    index = open_index(settings, model)
    if full:
        index.drop()
    index.ensure()
    stored = index.stored_points(settings.book_id)
    same = unchanged_pages(loaded.documents, stored, settings)
    kept = {point_id for point_id, point in stored.items() if point.file_path in same}
    chunks = chunk_documents([d for d in loaded.documents if d.file_path not in same], settings)
    embedded = embed_documents(chunks, stored, settings, model, progress)
    written, deleted = upsert_chunks(
        index,
        settings,
        embedded.points,
        keep_ids={chunk.id for chunk in chunks} | kept,
        protected_files={p.file_path for p in loaded.problems if p.failed},
    )
    return IngestSummary(
        total_documents=len(loaded.documents),
        total_chunks=len(chunks) + len(kept),
        embedded=embedded.embedded,
        skipped_unchanged=embedded.unchanged + len(kept),
        deleted=deleted,
        upserted=written,
        problems=[_problem(p) for p in loaded.problems],
    )


def _problem(problem: FileProblem) -> dict[str, Any]:
    return {"file": problem.file_path, "reason": problem.reason, "failed": problem.failed}
