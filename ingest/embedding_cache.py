"""Dense vectors cached in Postgres by (model, content hash), so no text is embedded twice."""

from collections.abc import Callable, Sequence

import numpy as np
import psycopg

from core.embeddings import EmbeddingModel

ProgressCallback = Callable[[int], None]


class EmbeddingCache:
    """Looks vectors up by content hash and embeds only the misses, storing what it embedded."""

    def __init__(self, conn: psycopg.Connection, model: EmbeddingModel, batch_size: int = 64):
        self.conn = conn
        self.model = model
        self.batch_size = batch_size

    def lookup(self, hashes: Sequence[str]) -> dict[str, list[float]]:
        """Cached vectors for the given content hashes (misses are absent)."""
        rows = self.conn.execute(
            "SELECT content_hash, vector FROM embedding_cache"
            " WHERE model = %s AND dimension = %s AND content_hash = ANY(%s)",
            (self.model.model_id, self.model.dimension, list(set(hashes))),
        ).fetchall()
        return {h: np.frombuffer(v, dtype=np.float32).tolist() for h, v in rows}

    def store(self, vectors: dict[str, list[float]]) -> None:
        """Remember vectors by content hash (an existing entry is kept)."""
        with self.conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO embedding_cache (model, content_hash, dimension, vector)"
                " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                [
                    (self.model.model_id, h, len(v), np.asarray(v, dtype=np.float32).tobytes())
                    for h, v in vectors.items()
                ],
            )

    def embed(
        self, texts_by_hash: dict[str, str], progress: ProgressCallback | None = None
    ) -> tuple[dict[str, list[float]], int]:
        """Vectors for every hash, and how many had to be embedded by the model."""
        vectors = self.lookup(list(texts_by_hash))
        # Length-sorted across the whole run, so each model batch pads to similar lengths.
        missing = sorted(
            (h for h in texts_by_hash if h not in vectors), key=lambda h: len(texts_by_hash[h])
        )
        for start in range(0, len(missing), self.batch_size):
            batch = missing[start : start + self.batch_size]
            fresh = self.model.embeddings.embed_documents([texts_by_hash[h] for h in batch])
            embedded = dict(zip(batch, fresh, strict=True))
            self.store(embedded)
            vectors.update(embedded)
            if progress:
                progress(len(batch))
        return vectors, len(missing)
