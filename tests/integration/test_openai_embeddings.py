"""The production embedding path: `EMBEDDINGS=openai:...` against an OpenAI-compatible stub."""

import uuid

from agent.retrieval.search import HybridSearcher
from core.embeddings import make_embedding_model
from core.store import open_index
from ingest.recorded import run_ingest
from tests.fakes import STUB_EMBEDDING_DIMENSION, stub_openai


def test_ingest_and_search_with_openai_compatible_embeddings(make_settings, sample_docs):
    name = f"stub-embedder-{uuid.uuid4().hex[:8]}"  # a new model: the shared cache knows nothing
    with stub_openai(verdict="", answer_chunks=[]) as server:
        settings = make_settings(
            embeddings=f"openai:{name}",
            embeddings_dimension=STUB_EMBEDDING_DIMENSION,
            openai_base_url=server.base_url,
            openai_api_key="test-key",
        )
        summary = run_ingest(settings)
        model = make_embedding_model(settings)
        index = open_index(settings, model)
        hits = HybridSearcher(index, model, settings.book_id).search("Quality of Service QoS", k=3)
        again = run_ingest(settings)
    assert index.name == f"test-book--openai-{name}-{STUB_EMBEDDING_DIMENSION}"
    assert summary.embedded == summary.total_chunks > 0
    assert again.embedded == 0 and again.upserted == 0
    embedded_inputs = sum(len(r["input"]) for r in server.requests if "input" in r)
    assert embedded_inputs >= summary.total_chunks
    assert hits and len(hits) == 3
    assert any(hit.payload["anchor"] == "qos" for hit in hits)  # BM25 still finds the term
