"""Hybrid search over a book: dense + BM25 candidates fused by Qdrant (RRF), with reader filters."""

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator
from qdrant_client import models

from ingest.embeddings import Bm25SparseEmbeddings, EmbeddingModel
from ingest.store import DENSE_VECTOR, SPARSE_VECTOR, BookIndex

ProficiencyLevel = Literal["A1", "A2", "B1", "B2", "C1", "C2"]


class SearchFilters(BaseModel):
    """Optional narrowing of a search (all conditions must hold)."""

    model_config = {"extra": "forbid"}

    hardware_tier: int | None = Field(None, ge=1, le=4, description="Reader's tier: ≤ this one.")
    module: str | None = Field(None, min_length=1, max_length=100, description="Exact module key.")
    chapter_min: int | None = Field(None, ge=0, le=1000)
    chapter_max: int | None = Field(None, ge=0, le=1000)
    lesson: int | None = Field(None, ge=0, le=1000)
    proficiency_levels: list[ProficiencyLevel] | None = Field(
        None, description="Any of these levels."
    )
    parent_doc_id: str | None = Field(None, min_length=1, max_length=500)

    @model_validator(mode="after")
    def _chapter_range_is_ordered(self) -> "SearchFilters":
        if (
            self.chapter_min is not None
            and self.chapter_max is not None
            and self.chapter_min > self.chapter_max
        ):
            raise ValueError("chapter_min must not be greater than chapter_max")
        return self


def build_filter(
    book_id: str, filters: SearchFilters | None = None, *, tenant: bool = True
) -> models.Filter | None:
    """Qdrant filter: the book (when `tenant`), then each filter that is set (AND); None if none."""
    f = filters or SearchFilters()
    must: list[models.Condition] = [_match("book_id", book_id)] if tenant else []
    if f.hardware_tier is not None:
        must.append(
            models.FieldCondition(key="hardware_tier", range=models.Range(lte=f.hardware_tier))
        )
    if f.module is not None:
        must.append(_match("module", f.module))
    if f.chapter_min is not None or f.chapter_max is not None:
        chapters = models.Range(gte=f.chapter_min, lte=f.chapter_max)
        must.append(models.FieldCondition(key="chapter", range=chapters))
    if f.lesson is not None:
        must.append(_match("lesson", f.lesson))
    if f.proficiency_levels:
        any_level = models.MatchAny(any=[str(level) for level in f.proficiency_levels])
        must.append(models.FieldCondition(key="proficiency_level", match=any_level))
    if f.parent_doc_id is not None:
        must.append(_match("doc_id", f.parent_doc_id))
    return models.Filter(must=must) if must else None


def _match(key: str, value: Any) -> models.FieldCondition:
    return models.FieldCondition(key=key, match=models.MatchValue(value=value))


@dataclass(frozen=True)
class SearchHit:
    """A retrieved chunk: its id, fused score, stored payload and dense similarity."""

    id: str
    score: float
    payload: dict[str, Any]
    dense_score: float = 0.0
    """Cosine similarity of the query and the chunk's dense vector."""

    @property
    def url(self) -> str:
        """Page URL with the section's anchor."""
        anchor = self.payload.get("anchor")
        return f"{self.payload['page_url']}#{anchor}" if anchor else self.payload["page_url"]


class HybridSearcher:
    """Runs hybrid queries against one book index."""

    def __init__(
        self,
        index: BookIndex,
        model: EmbeddingModel,
        book_id: str,
        sparse: Bm25SparseEmbeddings | None = None,
    ) -> None:
        self.index = index
        self.model = model
        self.book_id = book_id
        self.sparse = sparse or Bm25SparseEmbeddings()

    def search(
        self,
        query: str | list[str],
        k: int = 5,
        filters: SearchFilters | None = None,
        candidates: int = 40,
    ) -> list[SearchHit]:
        """Top `k` chunks: `candidates` from each of dense and BM25, fused by reciprocal rank.

        Several query texts (a question and its rewordings) are searched in one Qdrant call:
        each adds its own dense and BM25 candidates to the same fusion.
        """
        if not self.index.exists():
            return []
        texts = [query] if isinstance(query, str) else query
        vectors = (
            self.model.embeddings.embed_documents(texts)
            if len(texts) > 1
            else [self.model.embeddings.embed_query(texts[0])]
        )
        # A collection holds one book. A server checks the book anyway, on an index, as a tenant
        # guard; the embedded store would test it point by point in Python, so it is skipped
        # there when the collection is this searcher's book.
        own_book = self.index.is_local and self.index.book_id == self.book_id
        query_filter = build_filter(self.book_id, filters, tenant=not own_book)
        limit = max(k, candidates)
        prefetch = []
        for text, dense in zip(texts, vectors, strict=True):
            sparse = self.sparse.embed_query(text)
            prefetch += [
                models.Prefetch(query=dense, using=DENSE_VECTOR, limit=limit, filter=query_filter),
                models.Prefetch(
                    query=models.SparseVector(indices=sparse.indices, values=sparse.values),
                    using=SPARSE_VECTOR,
                    limit=limit,
                    filter=query_filter,
                ),
            ]
        response = self.index.client.query_points(
            self.index.name,
            prefetch=prefetch,
            query=models.FusionQuery(fusion=models.Fusion.RRF),  # of filtered candidates
            limit=k,
            with_payload=True,
            with_vectors=[DENSE_VECTOR],
        )
        query_vector = np.asarray(vectors[0], dtype=np.float32)
        return [
            SearchHit(str(p.id), p.score, p.payload or {}, _cosine(query_vector, p.vector))
            for p in response.points
        ]


def _cosine(query: np.ndarray, stored: Any) -> float:
    """Cosine of the query and a point's dense vector (vectors are stored normalised)."""
    vector = stored.get(DENSE_VECTOR) if isinstance(stored, dict) else None
    return float(query @ np.asarray(vector, dtype=np.float32)) if vector is not None else 0.0
