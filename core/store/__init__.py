"""The one door to the vector index: every read and write of vectors and payloads goes
through a `BookIndex` opened here.

Two implementations of one contract (`core.store.base`):
- `edge` (the embedded default, no settings): Qdrant's engine in this process (Qdrant Edge),
  one shard per collection in `<data dir>/qdrant-edge/`;
- `server` (`QDRANT_URL`, with `QDRANT_API_KEY`): a Qdrant server, cluster or Cloud through
  qdrant-client.
qdrant-client's local mode (`local-mode`, the first embedded store) remains only as the server's
stand-in in tests and as the baseline of `bench.scale`; a data folder it made is upgraded to
Edge shards as each book is opened (`core.store.upgrade`).
"""

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from core.settings import Settings
from core.store.base import (
    DENSE_VECTOR,
    FILTER_FIELDS,
    RRF_K,
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
    StoredPoint,
    StoreLockedError,
    collection_name,
    collection_suffix,
    fingerprint,
)

if TYPE_CHECKING:
    from core.embeddings import EmbeddingModel

__all__ = [
    "DENSE_VECTOR",
    "EDGE_FOLDER",
    "FILTER_FIELDS",
    "RRF_K",
    "SPARSE_VECTOR",
    "BookIndex",
    "Condition",
    "Engine",
    "IndexedPoint",
    "Match",
    "MatchAny",
    "PointData",
    "QueryVectors",
    "Range",
    "ScoredPoint",
    "StoreLockedError",
    "StoredPoint",
    "close_qdrant",
    "collection_name",
    "edge_root",
    "engine_of",
    "fingerprint",
    "ingested_books",
    "open_index",
    "served_books",
    "use_embedded_engine",
]

Engine = Literal["edge", "server", "local-mode"]
EDGE_FOLDER = "qdrant-edge"
_embedded: Literal["edge", "local-mode"] = "edge"


def edge_root(settings: Settings) -> Path:
    """The folder of the embedded engine's collections."""
    return settings.data_dir / EDGE_FOLDER


def use_embedded_engine(engine: Literal["edge", "local-mode"]) -> None:
    """Pick the engine used when `QDRANT_URL` is unset, for this process.

    Only for measuring the old embedded store beside the new one (`bench.scale`); bookrag
    itself always embeds Qdrant Edge.
    """
    global _embedded
    _embedded = engine


def engine_of(settings: Settings) -> Engine:
    """The engine that holds the index under these settings."""
    return "server" if settings.qdrant_url else _embedded


def open_index(
    settings: Settings,
    model: "EmbeddingModel",
    book_id: str | None = None,
    *,
    engine: Engine | None = None,
) -> BookIndex:
    """The index of a book (default: the configured one) for this embedding model.

    The embedded engine opens the book's shard now (so a shard held by another process fails
    here, with `StoreLockedError`), after upgrading it from local mode if that is where it is.
    """
    book = book_id or settings.book_id
    name = collection_name(book, model.model_id, model.dimension)
    chosen = engine or engine_of(settings)
    if chosen == "server":
        if not settings.qdrant_url:
            raise ValueError("the server engine needs QDRANT_URL")
        from core.store.server import ServerIndex, server_client

        client = server_client(settings.qdrant_url, settings.qdrant_api_key)
        return ServerIndex(client, name, model.dimension, book)
    if chosen == "local-mode":
        from core.store.server import ServerIndex, local_mode_client

        client = local_mode_client(settings.qdrant_path)
        return ServerIndex(client, name, model.dimension, book)
    from core.store.edge import EdgeIndex
    from core.store.upgrade import legacy_collection, upgrade

    index = EdgeIndex(edge_root(settings), name, model.dimension, book)
    if not index.exists() and (legacy := legacy_collection(settings.qdrant_path, name)):
        upgrade(legacy, index)
    return index


def ingested_books(settings: Settings, model: "EmbeddingModel") -> list[str]:
    """Books that have an index for this embedding model, sorted.

    On a server (and for collections local mode still holds) a book is known by its
    collection's name, so a book id outside `[A-Za-z0-9_-]` is listed as the name spells it.
    """
    suffix = collection_suffix(model.model_id, model.dimension)
    engine = engine_of(settings)
    if engine != "edge":
        index = open_index(settings, model, engine=engine)
        from core.store.server import ServerIndex, collection_names

        assert isinstance(index, ServerIndex)
        names = collection_names(index.client)
        return sorted(n.removesuffix(suffix) for n in names if n.endswith(suffix))
    from core.store.edge import book_of
    from core.store.upgrade import legacy_books

    root = edge_root(settings)
    books = set(legacy_books(settings.qdrant_path, model.model_id, model.dimension))
    if root.is_dir():
        for folder in root.iterdir():
            if folder.name.endswith(suffix) and (book := book_of(folder)) is not None:
                books.add(book)
    return sorted(books)


def served_books(settings: Settings, model: "EmbeddingModel") -> list[str]:
    """Every book a deployment answers from, sorted: the ingested ones and the configured one
    (which a request without `book_id` gets, ingested or not)."""
    return sorted({*ingested_books(settings, model), settings.book_id})


def close_qdrant() -> None:
    """Close every index this process opened (releases the embedded shards' locks)."""
    if "core.store.edge" in sys.modules:
        from core.store.edge import close_shards

        close_shards()
    if "core.store.server" in sys.modules:
        from core.store.server import close_clients

        close_clients()
