"""The bundled sentence encoder (the real model from its installed package)."""

import numpy as np
import pytest

import core.embeddings as embeddings_module
from core.embeddings import MiniLMEmbeddings, ModelFileError, make_embedding_model
from core.settings import Settings

QUESTION = "How do I make DDS resend messages that were lost?"
ANSWER = "Reliability QoS: with RELIABLE, the publisher resends lost samples until acknowledged."
ELSEWHERE = "Launch files start several nodes at once with their parameters."


def test_the_bundled_model_finds_the_passage_that_answers():
    model = make_embedding_model(Settings(embeddings="minilm"))
    query = np.array(model.embeddings.embed_query(QUESTION))
    documents = np.array(model.embeddings.embed_documents([ELSEWHERE, ANSWER]))
    assert documents.shape == (2, model.dimension)
    assert np.allclose(np.linalg.norm(documents, axis=1), 1.0, atol=1e-4)
    assert documents[1] @ query > documents[0] @ query


def test_a_model_file_that_is_not_the_pinned_one_is_refused(monkeypatch):
    monkeypatch.setattr(embeddings_module, "MINILM_MODEL_SHA256", "0" * 64)
    with pytest.raises(ModelFileError, match="expected 000000000000"):
        MiniLMEmbeddings().embed_query(QUESTION)


def test_an_unknown_model_name_lists_the_valid_ones():
    with pytest.raises(ValueError, match="'minilm' or 'openai:"):
        make_embedding_model(Settings(embeddings="bge-small"))
