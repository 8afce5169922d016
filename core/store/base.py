"""What every book index offers, whichever engine holds it: the contract of the store.

A book's index is one collection (per book, embedding model and dimension) of points with a
dense vector, a BM25 sparse vector weighed by the engine's IDF modifier, and the chunk's
payload. Callers speak in the types below; only the implementations (`core.store.edge`,
`core.store.server`) touch an engine's client objects.
"""

import hashlib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

DENSE_VECTOR = "dense"
SPARSE_VECTOR = "bm25"
UPSERT_BATCH = 128
SCROLL_PAGE = 1024
RRF_K = 2
"""Reciprocal rank fusion's k, said explicitly to every engine: a point at 0-based rank r of a
candidate list adds 1 / (k + r). Qdrant's server, qdrant-client's local mode and Qdrant Edge all
use this formula; k must be the same everywhere or the same candidates fuse into other rankings.
"""
FILTER_FIELDS: dict[str, Literal["keyword", "integer"]] = {
    "book_id": "keyword",
    "doc_id": "keyword",
    "file_path": "keyword",
    "module": "keyword",
    "proficiency_level": "keyword",
    "chapter": "integer",
    "lesson": "integer",
    "hardware_tier": "integer",
}
"""Every payload field a search or the upkeep filters on; each engine indexes them."""


class StoreLockedError(RuntimeError):
    """The embedded index is held by another process."""


def locked_message(folder: object) -> str:
    """What to tell someone whose process could not open an embedded index held by another."""
    return (
        f"the embedded vector store {folder} is in use by another bookrag process (is "
        "`bookrag serve` running?). If it is that server's configured book, ask the server to "
        "ingest (POST /ingest_book with the ADMIN_TOKEN bearer token); otherwise stop it "
        "first, or run Qdrant as a server and set QDRANT_URL so several processes can share it."
    )


def collection_name(book_id: str, model_id: str, dimension: int) -> str:
    """One collection per (book, embedding model, dimension), so two models never mix."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", f"{book_id}--{model_id}-{dimension}")


def collection_suffix(model_id: str, dimension: int) -> str:
    """The end of every collection name made for this model (see `collection_name`)."""
    return collection_name("", model_id, dimension)


def fingerprint(payload: dict[str, Any]) -> str:
    """Hash of everything stored for a point, to skip rewriting points that did not change."""
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class Match:
    """The payload field equals `value`."""

    field: str
    value: str | int


@dataclass(frozen=True)
class MatchAny:
    """The payload field equals one of `values`."""

    field: str
    values: tuple[str, ...] | tuple[int, ...]


@dataclass(frozen=True)
class Range:
    """The (integer) payload field lies between `gte` and `lte`, bounds included when set."""

    field: str
    gte: int | None = None
    lte: int | None = None


Condition = Match | MatchAny | Range
"""One condition of a filter; a filter is a sequence of them, all of which must hold."""


@dataclass(frozen=True)
class StoredPoint:
    """What the index knows of an existing point without loading its text."""

    fingerprint: str
    file_path: str
    document_fingerprint: str


@dataclass(frozen=True)
class PointData:
    """A point to write: id, payload, dense vector and sparse vector."""

    id: str
    payload: dict[str, Any]
    dense: Sequence[float]
    sparse_indices: list[int]
    sparse_values: list[float]


@dataclass(frozen=True)
class IndexedPoint:
    """A stored point as read back: its id and (some of) its payload."""

    id: str
    payload: dict[str, Any]


@dataclass(frozen=True)
class QueryVectors:
    """One query text as the index searches it: its dense vector and BM25 query terms."""

    dense: Sequence[float]
    sparse_indices: list[int]
    sparse_values: list[float]


@dataclass(frozen=True)
class ScoredPoint:
    """A hybrid search result: fused score, payload and the stored dense vector."""

    id: str
    score: float
    payload: dict[str, Any]
    dense: list[float] | None = field(default=None, repr=False)


def storable_payload(point: PointData) -> dict[str, Any]:
    """The payload as every engine stores it: JSON values only, with the point's fingerprint.

    A server receives JSON anyway; turning values such as frontmatter dates into strings here
    makes every engine hold, and return, the same payload.
    """
    payload = json.loads(json.dumps(point.payload, ensure_ascii=False, default=str))
    return {**payload, "fingerprint": fingerprint(point.payload)}


class BookIndex(ABC):
    """A book's collection: dense + BM25 sparse (IDF) vectors, payload indexes, point upkeep,
    hybrid search. The one door to the vectors and payloads of a book."""

    engine: str = ""
    """Which implementation this is (`edge`, `server`, `local-mode`)."""

    def __init__(self, name: str, dimension: int, book_id: str) -> None:
        self.name = name
        """The collection's name (book, model and dimension)."""
        self.dimension = dimension
        self.book_id = book_id
        """The book the collection was made for (its name carries it)."""

    @property
    def key(self) -> str:
        """Identifies this collection in this engine and place (for process-wide caches)."""
        return f"{self.engine}:{self.location}:{self.name}"

    @property
    def location(self) -> str:
        """Where the engine keeps the collection (a folder or a server URL)."""
        return ""

    # --- the collection ---------------------------------------------------------------------

    @abstractmethod
    def exists(self) -> bool:
        """Whether the collection has been created."""

    @abstractmethod
    def ensure(self) -> None:
        """Create the collection and its payload indexes if they are missing."""

    @abstractmethod
    def drop(self) -> None:
        """Delete the collection and every point in it."""

    @abstractmethod
    def count(self) -> int:
        """How many points the collection holds (0 when it does not exist)."""

    def commit(self) -> None:  # noqa: B027 - engines that index on their own need nothing
        """After a run of writes: make them durable and build what makes search fast."""

    # --- writing ----------------------------------------------------------------------------

    def upsert(self, points: Iterable[PointData]) -> int:
        """Write points in batches, waiting for each; returns how many were written."""
        written = 0
        batch: list[PointData] = []
        for point in points:
            batch.append(point)
            if len(batch) == UPSERT_BATCH:
                written += self._write(batch)
                batch = []
        return written + (self._write(batch) if batch else 0)

    @abstractmethod
    def _write(self, batch: list[PointData]) -> int:
        """Write one batch (payloads through `storable_payload`); returns its size."""

    @abstractmethod
    def delete(self, ids: Iterable[str]) -> int:
        """Delete points by id; returns how many were asked for."""

    # --- reading ----------------------------------------------------------------------------

    @abstractmethod
    def points(
        self,
        conditions: Sequence[Condition] = (),
        fields: Sequence[str] | None = None,
    ) -> Iterator[IndexedPoint]:
        """Every point matching all `conditions`, in no particular order.

        `fields`: the payload fields to load (None: all of them, empty: none).
        """

    @abstractmethod
    def retrieve(self, ids: Sequence[str]) -> list[IndexedPoint]:
        """Points by id with their payloads, in no particular order; unknown ids are left out."""

    @abstractmethod
    def hybrid_search(
        self,
        queries: Sequence[QueryVectors],
        conditions: Sequence[Condition],
        candidates: int,
        limit: int,
    ) -> list[ScoredPoint]:
        """Best `limit` points by reciprocal rank fusion (k = `RRF_K`) of, for each query, its
        `candidates` nearest dense and `candidates` best BM25 points among those matching all
        `conditions`; each result carries its dense vector."""

    def stored_points(self, book_id: str) -> dict[str, StoredPoint]:
        """Id → fingerprint and file of every point of the book, payload text not loaded."""
        if not self.exists():
            return {}
        wanted = ("fingerprint", "file_path", "document_fingerprint")
        return {
            point.id: StoredPoint(
                point.payload.get("fingerprint", ""),
                point.payload.get("file_path", ""),
                point.payload.get("document_fingerprint", ""),
            )
            for point in self.points([Match("book_id", book_id)], wanted)
        }

    def document_points(self, book_id: str, doc_id: str) -> list[IndexedPoint]:
        """Every point of one page, with payloads, in no particular order."""
        if not self.exists():
            return []
        return list(self.points([Match("book_id", book_id), Match("doc_id", doc_id)]))
