"""Hybrid search over a book: dense + BM25 candidates fused by the index (RRF), reader filters."""

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator
from pydantic.json_schema import SkipJsonSchema

from core.citation import citation_url
from core.embeddings import Bm25SparseEmbeddings, EmbeddingModel
from core.settings import Settings
from core.storable import Storable
from core.store import (
    BookIndex,
    Condition,
    Match,
    MatchAny,
    QueryVectors,
    Range,
    ingested_books,
    open_index,
)

ProficiencyLevel = Literal["A1", "A2", "B1", "B2", "C1", "C2"]


def without_null_defaults(schema: dict[str, Any]) -> None:
    """Drop `"default": null` from a model's JSON schema: a form built from it (the LangServe
    playground's) would start every optional field at null, which the schema's types refuse."""
    for field in schema.get("properties", {}).values():
        if "default" in field and field["default"] is None:
            del field["default"]


class SearchFilters(BaseModel):
    """Optional narrowing of a search (all conditions must hold)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=without_null_defaults)
    # `SkipJsonSchema[None]`: null is accepted but not drawn in the schema, whose `{"type":
    # "null"}` branches the LangServe playground's form builder cannot render.

    hardware_tier: Annotated[StrictInt, Field(ge=1, le=4)] | SkipJsonSchema[None] = Field(
        None, description="Reader's tier: ≤ this one."
    )
    module: Annotated[str, Storable, Field(min_length=1, max_length=100)] | SkipJsonSchema[None] = (
        Field(None, description="Exact module key.")
    )
    chapter_min: Annotated[StrictInt, Field(ge=0, le=1000)] | SkipJsonSchema[None] = None
    chapter_max: Annotated[StrictInt, Field(ge=0, le=1000)] | SkipJsonSchema[None] = None
    lesson: Annotated[StrictInt, Field(ge=0, le=1000)] | SkipJsonSchema[None] = None
    proficiency_levels: (
        Annotated[list[ProficiencyLevel], Field(max_length=6)] | SkipJsonSchema[None]
    ) = Field(None, description="Any of these levels.")
    parent_doc_id: (
        Annotated[str, Storable, Field(min_length=1, max_length=500)] | SkipJsonSchema[None]
    ) = None

    @model_validator(mode="after")
    def _chapter_range_is_ordered(self) -> "SearchFilters":
        if (
            self.chapter_min is not None
            and self.chapter_max is not None
            and self.chapter_min > self.chapter_max
        ):
            raise ValueError("chapter_min must not be greater than chapter_max")
        return self


def build_filter(book_id: str, filters: SearchFilters | None = None) -> list[Condition]:
    """The conditions of a search: the book (a tenant guard), then each filter that is set."""
    f = filters or SearchFilters()
    must: list[Condition] = [Match("book_id", book_id)]
    if f.hardware_tier is not None:
        must.append(Range("hardware_tier", lte=f.hardware_tier))
    if f.module is not None:
        must.append(Match("module", f.module))
    if f.chapter_min is not None or f.chapter_max is not None:
        must.append(Range("chapter", gte=f.chapter_min, lte=f.chapter_max))
    if f.lesson is not None:
        must.append(Match("lesson", f.lesson))
    if f.proficiency_levels:
        must.append(MatchAny("proficiency_level", tuple(str(x) for x in f.proficiency_levels)))
    if f.parent_doc_id is not None:
        must.append(Match("doc_id", f.parent_doc_id))
    return must


@dataclass(frozen=True)
class SearchHit:
    """A retrieved chunk: its id, fused score, stored payload and dense similarity."""

    id: str
    score: float
    payload: dict[str, Any]
    dense_score: float = 0.0
    """Cosine similarity of the query and the chunk's dense vector."""
    dense_scores: tuple[float, ...] = ()
    """The same for each query text searched, in order (the first is `dense_score`)."""

    @property
    def url(self) -> str:
        """Page URL with the section's anchor."""
        return citation_url(self.payload)


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

        Several query texts (a question and its rewordings) are searched in one request to
        the index:
        each adds its own dense and BM25 candidates to the same fusion.
        """
        texts = [query] if isinstance(query, str) else query
        vectors = (
            self.model.embeddings.embed_documents(texts)
            if len(texts) > 1
            else [self.model.embeddings.embed_query(texts[0])]
        )
        queries = []
        for text, dense in zip(texts, vectors, strict=True):
            sparse = self.sparse.embed_query(text)
            queries.append(QueryVectors(dense, sparse.indices, sparse.values))
        points = self.index.hybrid_search(
            queries, build_filter(self.book_id, filters), max(k, candidates), k
        )
        matrix = np.asarray(vectors, dtype=np.float32)
        hits = []
        for p in points:
            cosines = _cosines(matrix, p.dense)
            hits.append(SearchHit(p.id, p.score, p.payload, cosines[0], cosines))
        return hits


def _cosines(queries: np.ndarray, stored: list[float] | None) -> tuple[float, ...]:
    """Cosine of each query and a point's dense vector (vectors are stored normalised)."""
    if stored is None:
        return (0.0,) * len(queries)
    return tuple(float(x) for x in queries @ np.asarray(stored, dtype=np.float32))


class UnknownBookError(LookupError):
    """No index of this book exists for the embedding model in use."""


class BookNotIngestedError(LookupError):
    """Nothing of the book has been ingested into its index yet."""

    def __init__(self, book_id: str) -> None:
        super().__init__(
            f"nothing of the book {book_id!r} has been ingested yet: run `bookrag ingest` "
            "(or POST /ingest_book), then ask again"
        )


def open_searcher(settings: Settings, model: EmbeddingModel, book_id: str) -> HybridSearcher:
    """A searcher over the index of `book_id`; `UnknownBookError` when no index of that book
    exists for this embedding model (`core.store.ingested_books`). Opens files: call it off
    the event loop."""
    if book_id not in ingested_books(settings, model):
        raise UnknownBookError(f"no book {book_id!r} has been ingested here")
    return HybridSearcher(open_index(settings, model, book_id), model, book_id)
