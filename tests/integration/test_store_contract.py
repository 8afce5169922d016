"""The store's contract, run against both implementations of `BookIndex`.

`edge` is the embedded engine (Qdrant Edge); `local-mode` is qdrant-client's local mode, the
stand-in for a Qdrant server (same client, same requests), since no server can run here.
"""

import datetime
import logging
import random
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from core.embeddings import EmbeddingModel
from core.store import (
    RRF_K,
    BookIndex,
    Match,
    MatchAny,
    PointData,
    QueryVectors,
    Range,
    StoreLockedError,
    close_qdrant,
    edge_root,
    ingested_books,
    open_index,
)
from core.store.edge import EdgeIndex

ENGINES = ["edge", "local-mode"]
DIMENSION = 8
MODEL = EmbeddingModel("contract-model", DIMENSION, embeddings=None)  # type: ignore[arg-type]


def unit(rng: random.Random) -> list[float]:
    vector = [rng.gauss(0, 1) for _ in range(DIMENSION)]
    norm = sum(v * v for v in vector) ** 0.5
    return [v / norm for v in vector]


def make_points(book: str = "test-book", count: int = 60, seed: int = 7) -> list[PointData]:
    """Points of three pages with varied metadata and distinct BM25 weights (no score ties)."""
    rng = random.Random(seed)
    points = []
    for n in range(count):
        terms = sorted(rng.sample(range(200), 6))
        payload = {
            "book_id": book,
            "doc_id": f"doc-{n % 3}",
            "file_path": f"page-{n % 3}.md",
            "document_fingerprint": f"fp-{n % 3}",
            "module": ["ros2", "isaac", "vla"][n % 3],
            "chapter": n % 5,
            "hardware_tier": 1 + n % 4,
            "proficiency_level": ["A1", "B1", "C1"][n % 3],
            "chunk_index": n // 3,
            "text": f"chunk {n}",
        }
        values = [round(rng.uniform(0.5, 3.0), 3) for _ in terms]
        points.append(PointData(str(uuid.uuid4()), payload, unit(rng), terms, values))
    return points


@pytest.fixture(params=ENGINES)
def index(request, make_settings) -> BookIndex:
    return open_index(make_settings(), MODEL, engine=request.param)


@pytest.fixture
def filled(index) -> tuple[BookIndex, list[PointData]]:
    points = make_points()
    index.ensure()
    assert index.upsert(points) == len(points)
    index.commit()
    return index, points


def a_query(seed: int = 3) -> QueryVectors:
    rng = random.Random(seed)
    return QueryVectors(unit(rng), sorted(rng.sample(range(200), 5)), [1.0] * 5)


def test_a_new_index_does_not_exist_until_ensured_and_then_is_empty(index):
    assert not index.exists()
    assert index.count() == 0
    assert index.stored_points("test-book") == {}
    assert index.hybrid_search([a_query()], [], 10, 5) == []
    index.ensure()
    index.ensure()
    assert index.exists() and index.count() == 0


def test_upserted_points_come_back_with_their_payload_and_fingerprint(filled):
    index, points = filled
    assert index.count() == len(points)
    first = points[0]
    (found,) = index.retrieve([first.id, str(uuid.uuid4())])
    assert found.id == first.id
    assert found.payload["text"] == first.payload["text"]
    assert len(found.payload["fingerprint"]) == 64
    stored = index.stored_points("test-book")
    assert set(stored) == {p.id for p in points}
    assert stored[first.id].file_path == "page-0.md"
    assert stored[first.id].document_fingerprint == "fp-0"
    assert index.stored_points("another-book") == {}


def test_upserting_the_same_id_replaces_the_point(filled):
    index, points = filled
    changed = PointData(points[0].id, {**points[0].payload, "text": "new"}, *_vectors(points[0]))
    index.upsert([changed])
    assert index.count() == len(points)
    assert index.retrieve([points[0].id])[0].payload["text"] == "new"


def _vectors(point: PointData) -> tuple:
    return point.dense, point.sparse_indices, point.sparse_values


def test_deleted_points_are_gone(filled):
    index, points = filled
    assert index.delete([p.id for p in points[:10]]) == 10
    index.commit()
    assert index.count() == len(points) - 10
    assert index.retrieve([points[0].id]) == []
    assert index.delete([]) == 0


def test_points_of_a_page_and_selected_fields(filled):
    index, points = filled
    page = index.document_points("test-book", "doc-1")
    assert {p.id for p in page} == {p.id for p in points if p.payload["doc_id"] == "doc-1"}
    narrow = list(index.points([Match("module", "isaac")], ["file_path"]))
    assert narrow and all(p.payload == {"file_path": "page-1.md"} for p in narrow)
    bare = list(index.points(fields=()))
    assert len(bare) == len(points) and all(p.payload == {} for p in bare)


def on_page_2(payload: dict) -> bool:
    return payload["doc_id"] == "doc-2"


def test_filters_hold_for_every_hit(filled):
    index, _ = filled
    cases = [
        ([Match("module", "vla")], lambda p: p["module"] == "vla"),
        ([Range("hardware_tier", lte=2)], lambda p: p["hardware_tier"] <= 2),
        ([Range("chapter", gte=1, lte=3)], lambda p: 1 <= p["chapter"] <= 3),
        ([MatchAny("proficiency_level", ("A1", "C1"))], lambda p: p["proficiency_level"] != "B1"),
        ([Match("doc_id", "doc-2")], on_page_2),
        ([Match("book_id", "test-book"), Match("doc_id", "doc-2")], on_page_2),
    ]  # fmt: skip
    for conditions, holds in cases:
        hits = index.hybrid_search([a_query()], conditions, 40, 40)
        assert hits and all(holds(hit.payload) for hit in hits), conditions
    assert index.hybrid_search([a_query()], [Match("book_id", "another-book")], 40, 10) == []
    assert index.hybrid_search([a_query()], [Match("module", "nope")], 40, 10) == []


def test_fusion_is_reciprocal_rank_with_k_2_and_carries_dense_vectors(filled):
    index, points = filled
    target = points[5]  # its own vectors: first by dense and by BM25 alike
    query = QueryVectors(target.dense, target.sparse_indices, [1.0] * len(target.sparse_indices))
    hits = index.hybrid_search([query], [], 10, 3)
    assert hits[0].id == target.id
    assert hits[0].score == pytest.approx(2 / RRF_K)
    assert hits[0].dense == pytest.approx(target.dense, abs=1e-6)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_both_engines_fuse_the_same_candidates_into_the_same_scores(make_settings):
    points = make_points(count=200, seed=11)
    queries = [a_query(1), a_query(2)]
    fused = []
    for engine in ENGINES:
        index = open_index(make_settings(), MODEL, engine=engine)
        index.ensure()
        index.upsert(points)
        index.commit()
        hits = index.hybrid_search(queries, [Range("hardware_tier", lte=3)], 20, 200)
        fused.append({hit.id: hit.score for hit in hits})
    edge, local = fused
    assert edge.keys() == local.keys()
    assert all(edge[i] == pytest.approx(local[i], abs=1e-6) for i in edge)


def test_payload_values_are_stored_as_json(index):
    index.ensure()
    (point,) = make_points(count=1)
    dated = PointData(
        point.id, {**point.payload, "date": datetime.date(2026, 1, 2)}, *_vectors(point)
    )
    index.upsert([dated])
    assert index.retrieve([point.id])[0].payload["date"] == "2026-01-02"


def test_dropping_removes_every_point(filled):
    index, _ = filled
    index.drop()
    assert not index.exists() and index.count() == 0
    index.ensure()
    assert index.count() == 0


def test_points_survive_closing_and_reopening(filled, make_settings):
    index, points = filled
    close_qdrant()
    again = open_index(make_settings(), MODEL, engine=index.engine)  # type: ignore[arg-type]
    assert again.count() == len(points)
    assert set(again.stored_points("test-book")) == {p.id for p in points}


def test_books_have_separate_indexes_and_are_listed(make_settings):
    settings = make_settings()
    for book in ("book-a", "book-b"):
        index = open_index(settings, MODEL, book)
        index.ensure()
        index.upsert(make_points(book, count=5))
    assert ingested_books(settings, MODEL) == ["book-a", "book-b"]
    a = open_index(settings, MODEL, "book-a")
    assert a.book_id == "book-a" and a.count() == 5
    assert a.stored_points("book-b") == {}
    assert (
        ingested_books(settings.model_copy(update={"data_dir": Path("/nonexistent")}), MODEL) == []
    )


def test_an_edge_shard_open_in_another_process_is_a_clear_error(make_settings, tmp_path):
    settings = make_settings()
    index = open_index(settings, MODEL)
    index.ensure()
    close_qdrant()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_SHARD, str(settings.data_dir)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(StoreLockedError, match="in use by another bookrag process"):
            open_index(settings, MODEL)
    finally:
        holder.kill()
        holder.wait()


HOLD_SHARD = """
import sys, time
from pathlib import Path
from core.embeddings import EmbeddingModel
from core.settings import Settings
from core.store import open_index
settings = Settings(_env_file=None, data_dir=Path(sys.argv[1]), book_id="test-book")
open_index(settings, EmbeddingModel("contract-model", 8, None))
print("open", flush=True)
time.sleep(60)
"""


def test_an_index_made_by_local_mode_is_upgraded_once_with_one_line(make_settings, caplog):
    settings = make_settings()
    points = make_points(count=40)
    old = open_index(settings, MODEL, engine="local-mode")
    old.ensure()
    old.upsert(points)
    before = {hit.id: hit.score for hit in old.hybrid_search([a_query()], [], 20, 40)}
    close_qdrant()
    with caplog.at_level(logging.WARNING, logger="bookrag.store"):
        index = open_index(settings, MODEL)
        again = open_index(settings, MODEL)
    lines = [r.getMessage() for r in caplog.records if r.name == "bookrag.store"]
    assert len(lines) == 1 and "nothing re-embedded" in lines[0] and "40 stored points" in lines[0]
    assert isinstance(index, EdgeIndex) and again.count() == 40
    assert (edge_root(settings) / index.name / "book.json").is_file()
    assert index.stored_points("test-book") == old_stored(settings, points)
    after = {hit.id: hit.score for hit in index.hybrid_search([a_query()], [], 20, 40)}
    assert after.keys() == before.keys()
    assert all(after[i] == pytest.approx(before[i], abs=1e-6) for i in after)


def old_stored(settings, points: list[PointData]) -> dict:
    close_qdrant()
    stored = open_index(settings, MODEL, engine="local-mode").stored_points("test-book")
    close_qdrant()
    assert len(stored) == len(points)
    return stored


def test_the_next_ingest_after_an_upgrade_finds_every_point_current(
    make_settings, sample_docs, caplog
):
    from core.embeddings import make_embedding_model
    from core.store import use_embedded_engine
    from ingest.recorded import run_ingest

    settings = make_settings()
    use_embedded_engine("local-mode")
    try:
        first = run_ingest(settings)
    finally:
        use_embedded_engine("edge")
        close_qdrant()
    with caplog.at_level(logging.WARNING, logger="bookrag.store"):
        again = run_ingest(settings)
    assert any("rebuilt it as a Qdrant Edge shard" in r.getMessage() for r in caplog.records)
    assert (again.embedded, again.upserted, again.deleted) == (0, 0, 0)
    assert again.skipped_unchanged == first.total_chunks
    index = open_index(settings, make_embedding_model(settings))
    assert isinstance(index, EdgeIndex) and index.count() == first.total_chunks


def test_a_qdrant_url_selects_the_server_engine(make_settings):
    from core.store import engine_of
    from core.store.server import ServerIndex

    served = make_settings(qdrant_url="http://127.0.0.1:9")
    assert engine_of(served) == "server" and engine_of(make_settings()) == "edge"
    index = open_index(served, MODEL)
    assert isinstance(index, ServerIndex) and index.engine == "server"
    assert index.location == "http://127.0.0.1:9"
    with pytest.raises(ValueError, match="QDRANT_URL"):
        open_index(make_settings(), MODEL, engine="server")
