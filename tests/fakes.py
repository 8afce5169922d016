"""Test doubles for what cannot run here (an LLM), and spies that wrap real parts."""

import hashlib
import json
import math
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import Field

from agent import prompts
from agent.resources import Resources
from agent.retrieval.search import HybridSearcher, SearchHit


class CountingEmbeddings(Embeddings):
    """The real embedding model, counting how often it is asked."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self.inner.embed_query(text)


class FlakyEmbeddings(Embeddings):
    """The real model behind a service that fails its first `failures` document calls and can
    be held at a gate (an unset `threading.Event`) to keep a run in `embed_documents`."""

    def __init__(self, inner: Embeddings, failures: int = 0) -> None:
        self.inner = inner
        self.failures = failures
        self.gate = threading.Event()
        self.gate.set()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.gate.wait(timeout=120)
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the embedding service is unreachable")
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def with_embeddings(resources: Resources, embeddings: Embeddings) -> Resources:
    """The same resources with another embeddings object behind the same model id."""
    real = resources.searcher
    model = type(real.model)(real.model.model_id, real.model.dimension, embeddings)
    searcher = type(real)(real.index, model, real.book_id)
    return Resources(resources.settings, searcher, resources.chat_model)


class CountingSearcher(HybridSearcher):
    """The real hybrid searcher, counting its searches and keeping the texts it searched."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.searches = 0
        self.texts: list[str] = []

    def search(self, query, *args, **kwargs) -> list[SearchHit]:  # type: ignore[no-untyped-def]
        self.searches += 1
        self.texts += [query] if isinstance(query, str) else query
        return super().search(query, *args, **kwargs)


def spied(resources: Resources) -> tuple[Resources, CountingSearcher, CountingEmbeddings]:
    """The same resources with counting searcher and embeddings."""
    real = resources.searcher
    embeddings = CountingEmbeddings(real.model.embeddings)
    model = type(real.model)(real.model.model_id, real.model.dimension, embeddings)
    searcher = CountingSearcher(real.index, model, real.book_id)
    return Resources(resources.settings, searcher, None), searcher, embeddings


class _ChatCompletions(BaseHTTPRequestHandler):
    """`POST /v1/chat/completions` and `/v1/embeddings` of an OpenAI-compatible server.

    Non-streaming calls (the grader) get `server.verdict`; streaming calls (the answer) get
    `server.answer_chunks` as server-sent events, one chunk per event.
    """

    server: "StubOpenAIServer"

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length))
        self.server.requests.append(body)
        if self.path.endswith("/embeddings"):
            self._send_json(_embeddings_reply(body))
            return
        model = body.get("model", "stub")
        if not body.get("stream"):
            reply = {
                "id": "c1", "object": "chat.completion", "created": 0, "model": model,
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": self.server.verdict}}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }  # fmt: skip
            self._send_json(reply)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for count, piece in enumerate(self.server.answer_chunks):
            if count:
                time.sleep(self.server.chunk_interval)
            chunk = {
                "id": "c2", "object": "chat.completion.chunk", "created": 0, "model": model,
                "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}],
            }  # fmt: skip
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")

    def _send_json(self, reply: dict) -> None:
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


STUB_EMBEDDING_DIMENSION = 8


def _embeddings_reply(body: dict) -> dict:
    """`POST /v1/embeddings`: a deterministic unit vector per input, from the text's hash."""
    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    data = []
    for index, text in enumerate(texts):
        digest = hashlib.sha256(str(text).encode()).digest()
        vector = [byte - 127.5 for byte in digest[:STUB_EMBEDDING_DIMENSION]]
        norm = math.sqrt(sum(v * v for v in vector))
        data.append(
            {"object": "embedding", "index": index, "embedding": [v / norm for v in vector]}
        )
    return {"object": "list", "data": data, "model": body.get("model", "stub"),
            "usage": {"prompt_tokens": 1, "total_tokens": 1}}  # fmt: skip


class StubOpenAIServer(ThreadingHTTPServer):
    """A loopback OpenAI-compatible chat server, so the real client code runs in tests."""

    request_queue_size = 64  # parallel clients; the default backlog of 5 drops connections

    def __init__(self, verdict: str, answer_chunks: list[str], chunk_interval: float = 0.0) -> None:
        super().__init__(("127.0.0.1", 0), _ChatCompletions)
        self.verdict = verdict
        self.answer_chunks = answer_chunks
        self.chunk_interval = chunk_interval
        """Seconds between answer chunks after the first (which is sent at once)."""
        self.requests: list[dict] = []

    @property
    def base_url(self) -> str:
        """The `/v1` base URL clients are given."""
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@contextmanager
def stub_openai(
    verdict: str, answer_chunks: list[str], chunk_interval: float = 0.0
) -> Iterator[StubOpenAIServer]:
    """Run a stub server on a free loopback port for the duration of a test."""
    server = StubOpenAIServer(verdict, answer_chunks, chunk_interval)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


class ScriptedChatModel(BaseChatModel):
    """A chat model that answers each kind of graph call plausibly and records every call.

    Grading keeps every excerpt, condensing returns the last question unchanged, and the answer
    is `answer`, streamed word by word. `fail_after_words` makes the answer stream raise after
    that many words (0: before the first one); `down` makes every call fail.
    """

    answer: str = "The book explains this [1]."
    fail_after_words: int | None = None
    down: bool = False
    calls: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def answer_calls(self) -> list[list[BaseMessage]]:
        """The calls that wrote an answer (their system prompt is the answer prompt)."""
        opening = prompts.ANSWER_SYSTEM.split("{")[0]
        return [call for call in self.calls if call[0].text.startswith(opening)]

    def _reply(self, messages: list[BaseMessage]) -> str:
        system = messages[0].text
        if system == prompts.GRADE_SYSTEM:
            return ", ".join(str(n) for n in range(1, 21))
        if system == prompts.CONDENSE_SYSTEM:
            return messages[-1].text.rsplit("Last question:", 1)[-1].strip()
        return self.answer

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                  **kwargs: Any) -> ChatResult:  # fmt: skip
        self.calls.append(list(messages))
        if self.down:
            raise ConnectionError("the language model is unreachable")
        return ChatResult(generations=[ChatGeneration(message=AIMessage(self._reply(messages)))])

    def _stream(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None,
                **kwargs: Any) -> Iterator[ChatGenerationChunk]:  # fmt: skip
        self.calls.append(list(messages))
        for count, word in enumerate(self._reply(messages).split(" ")):
            if count == self.fail_after_words or self.down:
                raise ConnectionError("the language model went away")
            yield ChatGenerationChunk(message=AIMessageChunk(content=word + " "))
