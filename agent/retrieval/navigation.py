"""Reading around a chunk: its neighbours along the prev/next chain, or its whole page."""

import uuid

from agent.retrieval.search import SearchHit
from core.store import BookIndex


def _is_point_id(chunk_id: str) -> bool:
    try:
        uuid.UUID(chunk_id)
    except ValueError:
        return False
    return True


def chunk(index: BookIndex, book_id: str, chunk_id: str) -> SearchHit | None:
    """One chunk of the book by id, or None."""
    if not _is_point_id(chunk_id):
        return None
    points = index.retrieve([chunk_id])
    if not points or points[0].payload.get("book_id") != book_id:
        return None
    return SearchHit(points[0].id, 1.0, points[0].payload)


def chunk_with_neighbours(
    index: BookIndex, book_id: str, chunk_id: str, before: int, after: int
) -> list[SearchHit]:
    """The chunk and up to `before`/`after` neighbours, in reading order; [] if unknown."""
    current = chunk(index, book_id, chunk_id)
    if current is None:
        return []
    previous: list[SearchHit] = []
    link = current.payload.get("prev_chunk_id")
    while link and len(previous) < before and (found := chunk(index, book_id, link)):
        previous.insert(0, found)
        link = found.payload.get("prev_chunk_id")
    following: list[SearchHit] = []
    link = current.payload.get("next_chunk_id")
    while link and len(following) < after and (found := chunk(index, book_id, link)):
        following.append(found)
        link = found.payload.get("next_chunk_id")
    return [*previous, current, *following]


def document_chunks(index: BookIndex, book_id: str, doc_id: str) -> list[SearchHit]:
    """Every chunk of a page in reading order; [] if the page is unknown."""
    points = index.document_points(book_id, doc_id)
    hits = [SearchHit(point.id, 1.0, point.payload) for point in points]
    return sorted(hits, key=lambda hit: hit.payload.get("chunk_index", 0))
