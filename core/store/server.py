"""A book's index on a Qdrant server (`QDRANT_URL`: server, cluster or Cloud) via qdrant-client.

The same code runs on qdrant-client's local mode (a folder, no server), which stands in for the
server in tests and is the old embedded store that `bench.scale` measures against Qdrant Edge.
"""

import atexit
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from qdrant_client import QdrantClient, models

from core.store.base import (
    DENSE_VECTOR,
    FILTER_FIELDS,
    RRF_K,
    SCROLL_PAGE,
    SPARSE_VECTOR,
    BookIndex,
    Condition,
    IndexedPoint,
    Match,
    MatchAny,
    PointData,
    QueryVectors,
    Range,
    ScoredPoint,
    StoreLockedError,
    locked_message,
    storable_payload,
)

_clients: dict[str, QdrantClient] = {}
_SCHEMAS = {
    "keyword": models.PayloadSchemaType.KEYWORD,
    "integer": models.PayloadSchemaType.INTEGER,
}


def server_client(url: str, api_key: str | None) -> QdrantClient:
    """The process's client of the Qdrant server at `url`."""
    if url not in _clients:
        _clients[url] = QdrantClient(url=url, api_key=api_key, timeout=30)
    return _clients[url]


def local_mode_client(folder: Path) -> QdrantClient:
    """The process's qdrant-client local-mode store in `folder` (it locks the folder)."""
    key = str(folder.resolve())
    if key not in _clients:
        folder.mkdir(parents=True, exist_ok=True)
        try:
            _clients[key] = QdrantClient(path=str(folder))
        except RuntimeError as error:
            raise StoreLockedError(locked_message(folder)) from error
        atexit.register(close_clients)  # local mode cannot close itself at shutdown
    return _clients[key]


def close_clients() -> None:
    """Close every client this process opened (releases a local-mode store's lock)."""
    while _clients:
        _, client = _clients.popitem()
        client.close()


def collection_names(client: QdrantClient) -> list[str]:
    """Every collection of the server (or local-mode folder)."""
    return [collection.name for collection in client.get_collections().collections]


class ServerIndex(BookIndex):
    """A book's collection through qdrant-client: on a server, or in local mode."""

    def __init__(self, client: QdrantClient, name: str, dimension: int, book_id: str) -> None:
        super().__init__(name, dimension, book_id)
        self.client = client
        self.is_local = client.init_options.get("path") is not None
        """Local mode: brute force in Python, payload indexes have no effect there."""
        self.engine = "local-mode" if self.is_local else "server"

    @property
    def location(self) -> str:
        """The server URL, or the local-mode folder."""
        options = self.client.init_options
        return str(options.get("path") or options.get("url") or "")

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
            for field, kind in FILTER_FIELDS.items():
                self.client.create_payload_index(self.name, field, _SCHEMAS[kind], wait=True)

    def drop(self) -> None:
        """Delete the collection and every point in it."""
        if self.exists():
            self.client.delete_collection(self.name)

    def count(self) -> int:
        """How many points the collection holds (0 when it does not exist)."""
        return self.client.count(self.name, exact=True).count if self.exists() else 0

    def _write(self, batch: list[PointData]) -> int:
        structs = [
            models.PointStruct(
                id=point.id,
                vector={
                    DENSE_VECTOR: list(point.dense),
                    SPARSE_VECTOR: models.SparseVector(
                        indices=point.sparse_indices, values=point.sparse_values
                    ),
                },
                payload=storable_payload(point),
            )
            for point in batch
        ]
        self.client.upsert(self.name, points=structs, wait=True)
        return len(batch)

    def delete(self, ids: Iterable[str]) -> int:
        """Delete points by id; returns how many were asked for."""
        id_list: list[models.ExtendedPointId] = list(ids)
        if id_list:
            self.client.delete(
                self.name, points_selector=models.PointIdsList(points=id_list), wait=True
            )
        return len(id_list)

    def points(
        self,
        conditions: Sequence[Condition] = (),
        fields: Sequence[str] | None = None,
    ) -> Iterator[IndexedPoint]:
        """Every point matching all `conditions`, page by page."""
        if not self.exists():
            return
        offset = None
        while True:
            records, offset = self.client.scroll(
                self.name,
                scroll_filter=_filter(conditions),
                limit=SCROLL_PAGE,
                offset=offset,
                with_payload=True if fields is None else list(fields) or False,
                with_vectors=False,
            )
            for record in records:
                yield IndexedPoint(str(record.id), record.payload or {})
            if offset is None:
                return

    def retrieve(self, ids: Sequence[str]) -> list[IndexedPoint]:
        """Points by id with their payloads; unknown ids are left out."""
        if not ids or not self.exists():
            return []
        records = self.client.retrieve(self.name, ids=list(ids), with_payload=True)
        return [IndexedPoint(str(record.id), record.payload or {}) for record in records]

    def hybrid_search(
        self,
        queries: Sequence[QueryVectors],
        conditions: Sequence[Condition],
        candidates: int,
        limit: int,
    ) -> list[ScoredPoint]:
        """Prefetch dense and BM25 candidates of each query, fused by RRF, in one request."""
        if not queries or not self.exists():
            return []
        if self.is_local:
            # A collection holds one book. A server checks the book anyway, on an index, as a
            # tenant guard; local mode would test it point by point in Python, so it is left
            # out there when the collection is that book's.
            conditions = [c for c in conditions if c != Match("book_id", self.book_id)]
        query_filter = _filter(conditions)
        prefetch = []
        for query in queries:
            sparse = models.SparseVector(indices=query.sparse_indices, values=query.sparse_values)
            prefetch += [
                models.Prefetch(
                    query=list(query.dense), using=DENSE_VECTOR, limit=candidates,
                    filter=query_filter,
                ),
                models.Prefetch(
                    query=sparse, using=SPARSE_VECTOR, limit=candidates, filter=query_filter
                ),
            ]  # fmt: skip
        response = self.client.query_points(
            self.name,
            prefetch=prefetch,
            query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)),  # of filtered candidates
            limit=limit,
            with_payload=True,
            with_vectors=[DENSE_VECTOR],
        )
        return [
            ScoredPoint(str(p.id), p.score, p.payload or {}, _dense(p.vector))
            for p in response.points
        ]


def _filter(conditions: Sequence[Condition]) -> models.Filter | None:
    return models.Filter(must=[_condition(c) for c in conditions]) if conditions else None


def _condition(condition: Condition) -> models.FieldCondition:
    match condition:
        case Match(field, value):
            return models.FieldCondition(key=field, match=models.MatchValue(value=value))
        case MatchAny(field, values):
            return models.FieldCondition(key=field, match=models.MatchAny(any=list(values)))
        case Range(field, gte, lte):
            return models.FieldCondition(key=field, range=models.Range(gte=gte, lte=lte))
    raise TypeError(f"not a filter condition: {condition!r}")


def _dense(vector: Any) -> list[float] | None:
    found = vector.get(DENSE_VECTOR) if isinstance(vector, dict) else None
    return list(found) if found is not None else None
