"""Hybrid search and the reader filters on the ingested sample book."""

import pytest
from pydantic import ValidationError

from agent.retrieval.search import HybridSearcher, SearchFilters, UnknownBookError, open_searcher
from core.embeddings import make_embedding_model
from core.store import ingested_books, open_index
from ingest.recorded import run_ingest


@pytest.fixture
def searcher(make_settings, sample_docs) -> HybridSearcher:
    settings = make_settings()
    run_ingest(settings)
    model = make_embedding_model(settings)
    return HybridSearcher(open_index(settings, model), model, settings.book_id)


def search(searcher: HybridSearcher, query: str = "how do robots perceive the world", **filters):
    return searcher.search(query, k=20, filters=SearchFilters(**filters))


def test_question_about_qos_finds_the_qos_section_first(searcher):
    hits = searcher.search("Which QoS policies decide whether messages are reliable?", k=5)
    assert hits[0].payload["anchor"] == "qos"
    assert hits[0].url.endswith("#qos")
    assert hits[0].payload["module"] == "ros2"


def test_hardware_tier_filter_returns_that_tier_or_lower(searcher):
    low = search(searcher, "GPU simulation and perception", hardware_tier=1)
    everything = search(searcher, "GPU simulation and perception", hardware_tier=4)
    assert low and all(hit.payload["hardware_tier"] <= 1 for hit in low)
    assert any(hit.payload["hardware_tier"] > 1 for hit in everything)


def test_module_filter_matches_exactly(searcher):
    hits = search(searcher, module="isaac")
    assert hits and {hit.payload["module"] for hit in hits} == {"isaac"}
    assert search(searcher, module="no-such-module") == []


def test_chapter_range_and_lesson_filters(searcher):
    hits = search(searcher, chapter_min=2, chapter_max=3)
    assert hits and {hit.payload["chapter"] for hit in hits} <= {2, 3}
    lesson_hits = search(searcher, lesson=2)
    assert lesson_hits and {hit.payload["lesson"] for hit in lesson_hits} == {2}


def test_proficiency_filter_is_any_of(searcher):
    levels = ["A1", "A2"]
    hits = search(searcher, proficiency_levels=levels)
    assert hits and {hit.payload["proficiency_level"] for hit in hits} <= set(levels)


def test_parent_doc_filter_keeps_one_page(searcher):
    doc_id = search(searcher)[0].payload["doc_id"]
    hits = search(searcher, parent_doc_id=doc_id)
    assert hits and {hit.payload["doc_id"] for hit in hits} == {doc_id}


def test_other_book_id_sees_nothing(searcher):
    searcher.book_id = "another-book"
    assert search(searcher) == []


@pytest.mark.parametrize(
    "bad",
    [
        {"chapter_min": 3, "chapter_max": 1},
        {"hardware_tier": 9},
        {"proficiency_levels": ["Z9"]},
        {"colour": "blue"},
    ],
)
def test_invalid_filters_are_rejected_with_a_reason(bad):
    with pytest.raises(ValidationError):
        SearchFilters(**bad)


def test_several_query_texts_are_fused_in_one_search(searcher):
    qos = searcher.search("Which QoS policies make delivery reliable?", k=1)[0]
    urdf = searcher.search("Which joint types does URDF have?", k=1)[0]
    both = searcher.search(
        ["Which QoS policies make delivery reliable?", "Which joint types does URDF have?"], k=4
    )
    assert {qos.id, urdf.id} <= {hit.id for hit in both}


def test_a_searcher_opens_any_ingested_book_and_refuses_unknown_ones(
    searcher, make_settings, sample_docs
):
    settings = make_settings()
    run_ingest(settings.model_copy(update={"book_id": "second-book"}))
    assert ingested_books(settings, searcher.model) == ["second-book", "test-book"]
    second = open_searcher(settings, searcher.model, "second-book")
    assert second.index.book_id == "second-book"
    hits = second.search("Which QoS policies decide whether messages are reliable?", k=3)
    assert hits and {hit.payload["book_id"] for hit in hits} == {"second-book"}
    with pytest.raises(UnknownBookError, match="no book 'third-book'"):
        open_searcher(settings, searcher.model, "third-book")
