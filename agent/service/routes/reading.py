"""Reading the books without answering: `/books`, `/search`, `/context/{chunk_id}`,
`/document/{doc_id}`."""

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Query

from agent.retrieval.navigation import chunk_with_neighbours, document_chunks
from agent.retrieval.search import SearchFilters, SearchHit
from agent.service.deps import BookDep, LifecycleDep, RateLimited
from agent.service.errors import ApiError
from agent.service.routes import error_responses
from agent.service.schemas import BookList, ChunkList, SearchQuery, SearchResponse, SearchResult
from core.citation import citation_url
from core.safety import SafeMarkdown, escape_text, link_policy
from core.settings import Settings

router = APIRouter(tags=["reading"], dependencies=[RateLimited])


def search_result(hit: SearchHit, settings: Settings) -> SearchResult:
    """A chunk as the API shows it: its text through the output filter, its title and
    headings escaped, its URL encoded on the site's current address."""
    p = hit.payload
    heading = p.get("heading")
    return SearchResult(
        chunk_id=hit.id,
        text=SafeMarkdown(link_policy(settings)).filter(p.get("text", "")),
        score=min(1.0, max(0.0, hit.dense_score)),
        source_file=p.get("file_path", ""),
        url=citation_url(p, settings.site_url),
        title=escape_text(p.get("title", "")),
        section_title=escape_text(heading) if heading is not None else None,
        heading_path=[escape_text(part) for part in p.get("heading_path", [])],
        module=p.get("module"),
        chapter=p.get("chapter"),
        lesson=p.get("lesson"),
        hardware_tier=p.get("hardware_tier"),
        proficiency_level=p.get("proficiency_level"),
        chunk_index=p.get("chunk_index", 0),
        total_chunks=p.get("total_chunks", 1),
        parent_doc_id=p.get("doc_id", ""),
        prev_chunk_id=p.get("prev_chunk_id"),
        next_chunk_id=p.get("next_chunk_id"),
    )


@router.get("/books", responses=error_responses())
async def books(lifecycle: LifecycleDep) -> BookList:
    """The books this server answers from: each one ingested beside the configured book, with
    the same embedding model. Name one with `book_id`."""
    return BookList(books=await lifecycle.books(), default=lifecycle.settings.book_id)


@router.post("/search", responses=error_responses(not_found="No such book."))
async def search(body: SearchQuery, lifecycle: LifecycleDep) -> SearchResponse:
    """Hybrid (dense + BM25) search with the reader's filters; results best first."""
    resources = await lifecycle.answerable_book(body.book_id)
    settings = resources.settings
    filters = SearchFilters.model_validate(
        body.model_dump(include=set(SearchFilters.model_fields), exclude_none=True)
    )
    searcher = resources.searcher
    hits = await asyncio.to_thread(searcher.search, body.text, body.limit, filters)
    return SearchResponse(
        query=body.text,
        results=[search_result(hit, settings) for hit in hits],
        total_found=len(hits),
        hardware_tier_filter=body.hardware_tier,
        module_filter=body.module,
        book_id=settings.book_id,
    )


@router.get("/context/{chunk_id}", responses=error_responses(not_found="No such chunk or book."))
async def context(
    chunk_id: Annotated[str, Path(max_length=100)],
    resources: BookDep,
    prev: Annotated[int, Query(ge=0, le=20)] = 1,
    next: Annotated[int, Query(ge=0, le=20)] = 1,
) -> ChunkList:
    """A chunk with `prev` chunks before it and `next` after it, in reading order."""
    settings = resources.settings
    index, book_id = resources.searcher.index, settings.book_id
    hits = await asyncio.to_thread(chunk_with_neighbours, index, book_id, chunk_id, prev, next)
    if not hits:
        raise ApiError(404, "unknown_chunk", f"no chunk {chunk_id!r} in this book")
    return ChunkList(chunks=[search_result(hit, settings) for hit in hits])


@router.get(
    "/document/{parent_doc_id:path}", responses=error_responses(not_found="No such page or book.")
)
async def document(
    parent_doc_id: Annotated[str, Path(max_length=500)],
    resources: BookDep,
) -> ChunkList:
    """Every chunk of a page, in reading order."""
    settings = resources.settings
    index, book_id = resources.searcher.index, settings.book_id
    hits = await asyncio.to_thread(document_chunks, index, book_id, parent_doc_id)
    if not hits:
        raise ApiError(404, "unknown_document", f"no page {parent_doc_id!r} in this book")
    return ChunkList(chunks=[search_result(hit, settings) for hit in hits])
