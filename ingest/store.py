"""The Qdrant side: one client per process, and a book's collection with its points."""

import atexit
import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from qdrant_client import QdrantClient, models

from ingest.settings import Settings

DENSE_VECTOR = "dense"
SPARSE_VECTOR = "bm25"
UPSERT_BATCH = 128
FILTER_FIELDS: dict[str, models.PayloadSchemaType] = {
    "book_id": models.PayloadSchemaType.KEYWORD,
    "doc_id": models.PayloadSchemaType.KEYWORD,
    "file_path": models.PayloadSchemaType.KEYWORD,
    "module": models.PayloadSchemaType.KEYWORD,
    "proficiency_level": models.PayloadSchemaType.KEYWORD,
    "chapter": models.PayloadSchemaType.INTEGER,
    "lesson": models.PayloadSchemaType.INTEGER,
    "hardware_tier": models.PayloadSchemaType.INTEGER,
}
"""Every payload field a search filters on; a Qdrant server needs an index for each."""

_clients: dict[str, QdrantClient] = {}


class StoreLockedError(RuntimeError):
    """The embedded Qdrant folder is held by another process."""


def open_qdrant(settings: Settings) -> QdrantClient:
    """The process's Qdrant client: a server at `QDRANT_URL`, else local mode in the data dir.

    Local mode takes a file lock on its folder, so one client is opened per process and reused.
    """
    key = settings.qdrant_url or str(settings.qdrant_path.resolve())
    if key not in _clients:
        if settings.qdrant_url:
            _clients[key] = QdrantClient(
                url=settings.qdrant_url, api_key=settings.qdrant_api_key, timeout=30
            )
        else:
            settings.qdrant_path.mkdir(parents=True, exist_ok=True)
            try:
                _clients[key] = QdrantClient(path=str(settings.qdrant_path))
                atexit.register(close_qdrant)  # local mode cannot close itself at shutdown
            except RuntimeError as error:
                raise StoreLockedError(
                    f"the embedded vector store {settings.qdrant_path} is in use by another "
                    "bookrag process (is `bookrag serve` running?). Ask that server to ingest "
                    "(POST /ingest_book with the ADMIN_TOKEN bearer token), stop it first, or "
                    "run Qdrant as a server and set QDRANT_URL so several processes can share it."
                ) from error
    return _clients[key]


def close_qdrant() -> None:
    """Close every client this process opened (releases the embedded store's lock)."""
    while _clients:
        _, client = _clients.popitem()
        client.close()


def collection_name(book_id: str, model_id: str, dimension: int) -> str:
    """One collection per (book, embedding model, dimension), so two models never mix."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", f"{book_id}--{model_id}-{dimension}")


def fingerprint(payload: dict[str, Any]) -> str:
    """Hash of everything stored for a point, to skip rewriting points that did not change."""
    canonical = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


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


class BookIndex:
    """A book's collection: dense + BM25 sparse (IDF) vectors, payload indexes, point upkeep."""

    def __init__(self, client: QdrantClient, name: str, dimension: int, book_id: str) -> None:
        self.client = client
        self.name = name
        self.dimension = dimension
        self.book_id = book_id
        """The book the collection was made for (its name carries it)."""

    def exists(self) -> bool:
        """Whether the collection has been created."""
        return self.client.collection_exists(self.name)

    def ensure(self) -> None:
        """Create the collection and its payload indexes if they are missing."""
        if self.exists():
            return
        self.client.create_collection(
            self.name,
            vectors_config={
                DENSE_VECTOR: models.VectorParams(
                    size=self.dimension, distance=models.Distance.COSINE
                )
            },
            sparse_vectors_config={
                SPARSE_VECTOR: models.SparseVectorParams(modifier=models.Modifier.IDF)
            },
        )
        if not self.is_local:
            for field, schema in FILTER_FIELDS.items():
                self.client.create_payload_index(self.name, field, schema, wait=True)

    @property
    def is_local(self) -> bool:
        """True for the embedded store (payload indexes have no effect there)."""
        return self.client.init_options.get("path") is not None

    def drop(self) -> None:
        """Delete the collection and every point in it."""
        if self.exists():
            self.client.delete_collection(self.name)

    def stored_points(self, book_id: str) -> dict[str, StoredPoint]:
        """Id → fingerprint and file of every point of the book, payload text not loaded."""
        if not self.exists():
            return {}
        found: dict[str, StoredPoint] = {}
        offset = None
        book = models.Filter(must=[_match("book_id", book_id)])
        while True:
            records, offset = self.client.scroll(
                self.name,
                scroll_filter=book,
                limit=1024,
                offset=offset,
                with_payload=["fingerprint", "file_path", "document_fingerprint"],
                with_vectors=False,
            )
            for record in records:
                payload = record.payload or {}
                found[str(record.id)] = StoredPoint(
                    payload.get("fingerprint", ""),
                    payload.get("file_path", ""),
                    payload.get("document_fingerprint", ""),
                )
            if offset is None:
                return found

    def upsert(self, points: Iterable[PointData]) -> int:
        """Write points in batches, waiting for each; returns how many were written."""
        written = 0
        batch: list[models.PointStruct] = []
        for point in points:
            batch.append(_point_struct(point))
            if len(batch) == UPSERT_BATCH:
                written += self._write(batch)
                batch = []
        return written + (self._write(batch) if batch else 0)

    def _write(self, batch: list[models.PointStruct]) -> int:
        self.client.upsert(self.name, points=batch, wait=True)
        return len(batch)

    def delete(self, ids: Iterable[str]) -> int:
        """Delete points by id; returns how many were asked for."""
        id_list: list[models.ExtendedPointId] = list(ids)
        if id_list:
            self.client.delete(
                self.name, points_selector=models.PointIdsList(points=id_list), wait=True
            )
        return len(id_list)

    def document_points(self, book_id: str, doc_id: str) -> list[models.Record]:
        """Every point of one page, with payloads, in no particular order."""
        if not self.exists():
            return []
        page = models.Filter(must=[_match("book_id", book_id), _match("doc_id", doc_id)])
        found: list[models.Record] = []
        offset = None
        while True:
            records, offset = self.client.scroll(
                self.name, scroll_filter=page, limit=256, offset=offset, with_payload=True
            )
            found += records
            if offset is None:
                return found

    def retrieve(self, ids: Sequence[str]) -> list[models.Record]:
        """Points by id with their payloads, in no particular order; unknown ids are left out."""
        if not ids or not self.exists():
            return []
        return self.client.retrieve(self.name, ids=list(ids), with_payload=True)


def _point_struct(point: PointData) -> models.PointStruct:
    payload = {**point.payload, "fingerprint": fingerprint(point.payload)}
    sparse = models.SparseVector(indices=point.sparse_indices, values=point.sparse_values)
    return models.PointStruct(
        id=point.id,
        vector={DENSE_VECTOR: list(point.dense), SPARSE_VECTOR: sparse},
        payload=payload,
    )


def _match(field: str, value: Any) -> models.FieldCondition:
    return models.FieldCondition(key=field, match=models.MatchValue(value=value))
