"""Sections of the pages a question names by their name.

"What arguments does createStore take?" names a page (`createStore`) and asks for one of its
sections (Arguments). One search over the whole book ranks the sections that say
"createStore" most often, and the page's own Arguments section, which says it once, may not
be among the candidates at all. So when a page's name (its title, H1 or sidebar label) is
spelled out in the question, the question is searched again within that page, and its best
sections join the candidates; the reranker then weighs them like any other.
"""

from agent.offline.text import terms, topic_terms
from agent.retrieval.search import HybridSearcher, SearchFilters, SearchHit
from agent.retrieval.sources import page_names

MAX_NAMED_PAGES = 2
SECTIONS_PER_PAGE = 3


def names_page(question_terms: frozenset[int], payload: dict) -> bool:
    """Whether every term of one of the page's names is in the question."""
    return any(
        (page_terms := terms(name)) and page_terms <= question_terms for name in page_names(payload)
    )


def named_pages(question: str, hits: list[SearchHit]) -> list[str]:
    """The pages among `hits` (by `doc_id`, best first) that the question names, at most two."""
    wanted = topic_terms(question)
    pages: list[str] = []
    for hit in hits:
        doc_id = str(hit.payload.get("doc_id", ""))
        if doc_id and doc_id not in pages and names_page(wanted, hit.payload):
            pages.append(doc_id)
            if len(pages) == MAX_NAMED_PAGES:
                break
    return pages


def joined(hits: list[SearchHit], page_hits: list[SearchHit]) -> list[SearchHit]:
    """`hits` and the page searches' hits they lack, the latter at the pool's lowest fused
    score: a search within one page ranks its sections against each other only."""
    known = {hit.id for hit in hits}
    floor = min((hit.score for hit in hits), default=0.0)
    return hits + [
        SearchHit(hit.id, floor, hit.payload, hit.dense_score, hit.dense_scores)
        for hit in page_hits
        if hit.id not in known
    ]


def with_named_pages(
    searcher: HybridSearcher, question: str, hits: list[SearchHit], filters: SearchFilters
) -> list[SearchHit]:
    """`hits` and the best sections of the pages the question names (none when the reader's
    filters already keep one page)."""
    if filters.parent_doc_id is not None:
        return hits
    for page in named_pages(question, hits):
        within = filters.model_copy(update={"parent_doc_id": page})
        hits = joined(hits, searcher.search(question, SECTIONS_PER_PAGE, within))
    return hits
