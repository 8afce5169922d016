"""The upgrade from the first embedded store: qdrant-client's local mode in `<data dir>/qdrant`.

When a book's Edge shard is missing but local mode holds that book's collection, the shard is
rebuilt from the points local mode stored (their payloads and the vectors the embedding cache
gave them: nothing is embedded again), in a staging folder that becomes the collection only
when complete. Only the collection asked for is read: other books wait until they are opened.
"""

import logging
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from core.store.base import DENSE_VECTOR, SPARSE_VECTOR, PointData, collection_suffix
from core.store.edge import EdgeIndex, create

LEGACY_STORAGE = "storage.sqlite"
log = logging.getLogger("bookrag.store")


def legacy_collection(local_root: Path, name: str) -> Path | None:
    """The local-mode folder of collection `name`, if local mode ever stored it."""
    folder = local_root / "collection" / name
    return folder if (folder / LEGACY_STORAGE).is_file() else None


def legacy_books(local_root: Path, model_id: str, dimension: int) -> list[str]:
    """Books (as their collections spell them) that local mode holds for this model."""
    suffix = collection_suffix(model_id, dimension)
    folder = local_root / "collection"
    if not folder.is_dir():
        return []
    return [
        path.name.removesuffix(suffix)
        for path in folder.iterdir()
        if path.name.endswith(suffix) and (path / LEGACY_STORAGE).is_file()
    ]


def _legacy_points(folder: Path) -> Iterator[PointData]:
    from qdrant_client.local.persistence import CollectionPersistence

    storage = CollectionPersistence(str(folder))
    try:
        for point in storage.load():
            vectors = point.vector if isinstance(point.vector, dict) else {}
            dense = vectors.get(DENSE_VECTOR)
            sparse = vectors.get(SPARSE_VECTOR)
            if dense is None:
                continue  # not one of our points: nothing to search it by
            payload = {k: v for k, v in (point.payload or {}).items() if k != "fingerprint"}
            yield PointData(
                str(point.id),
                payload,
                list(dense),  # type: ignore[arg-type]
                list(getattr(sparse, "indices", [])),
                list(getattr(sparse, "values", [])),
            )
    finally:
        storage.close()


def upgrade(legacy: Path, index: EdgeIndex) -> int:
    """Rebuild `index` from local mode's copy of it in `legacy`; returns the points moved.

    Says so in one line on the `bookrag.store` logger (a warning, so it is seen by default).
    """
    start = time.perf_counter()
    staging_name = f"{index.name}.upgrading"
    create(index.root / staging_name, index.dimension, index.book_id, index.name)
    staging = EdgeIndex(index.root, staging_name, index.dimension, index.book_id)
    moved = staging.upsert(_legacy_points(legacy))
    staging.commit()
    staging.release()
    if index.folder.exists():  # another process upgraded it meanwhile: keep theirs
        shutil.rmtree(staging.folder, ignore_errors=True)
        return 0
    os.rename(staging.folder, index.folder)
    log.warning(
        "bookrag: the vector index of book %r was made by the old embedded store "
        "(qdrant-client local mode, %s); rebuilt it as a Qdrant Edge shard in %s from its %d "
        "stored points and their cached vectors, nothing re-embedded, in %.1f s. %s can be "
        "deleted once every book in it has been opened.",
        index.book_id,
        legacy,
        index.folder,
        moved,
        time.perf_counter() - start,
        legacy.parent.parent,
    )
    return moved
