"""Which pages a question names, and how their sections join the candidates."""

from agent.offline.text import topic_terms
from agent.retrieval.named_pages import joined, named_pages, names_page
from agent.retrieval.search import SearchHit


def hit(chunk_id: str, doc_id: str, title: str, score: float = 0.5) -> SearchHit:
    return SearchHit(chunk_id, score, {"doc_id": doc_id, "title": title, "heading_path": [title]})


def test_a_page_is_named_when_all_of_one_of_its_names_is_in_the_question():
    asked = topic_terms("What arguments does createStore take?")
    assert names_page(asked, {"title": "createStore"})
    assert names_page(asked, {"title": "Store API", "sidebar_label": "createStore"})
    assert not names_page(asked, {"title": "Configuring Your Store"})
    assert not names_page(asked, {"title": ""})


def test_a_page_is_named_by_the_words_of_its_slug_too():
    # readers see the slug in the address bar and in links: "typed linting" names the page
    # titled "Linting with Type Information" whose id is typed-linting
    asked = topic_terms("How do I enable typed linting in my config?")
    page = {"title": "Linting with Type Information", "doc_id": "getting-started/typed-linting"}
    assert names_page(asked, page)
    assert names_page(asked, {"title": "Setup", "doc_id": "guides/Typed_Linting"})
    assert not names_page(asked, {"title": "Linting with Type Information", "doc_id": "rules"})


def test_named_pages_are_the_first_two_distinct_ones_among_the_hits():
    hits = [
        hit("1", "guide", "Store Guide"),
        hit("2", "api-store", "createStore"),
        hit("3", "api-store", "createStore"),
        hit("4", "api-slice", "createSlice"),
        hit("5", "api-reducer", "createReducer"),
    ]
    question = "Do createStore, createSlice and createReducer take the same arguments?"
    assert named_pages(question, hits) == ["api-store", "api-slice"]
    assert named_pages("How do I set up a store?", hits) == []


def test_sections_from_a_page_search_join_at_the_pools_lowest_score_without_repeats():
    pool = [hit("1", "guide", "Guide", 0.9), hit("2", "api", "createStore", 0.3)]
    within = [hit("2", "api", "createStore", 0.8), hit("3", "api", "createStore", 0.7)]
    merged = joined(pool, within)
    assert [h.id for h in merged] == ["1", "2", "3"]
    assert merged[1].score == 0.3 and merged[2].score == 0.3
