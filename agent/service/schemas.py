"""Bodies and responses of the HTTP API, with their limits (the OpenAPI schema comes from here)."""

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, StringConstraints
from pydantic.json_schema import SkipJsonSchema

from agent.inputs import MAX_PAGE_TITLE_CHARS, MAX_QUESTION_CHARS, MAX_SELECTION_CHARS
from agent.retrieval.search import SearchFilters, without_null_defaults
from agent.state import Source
from core.storable import Storable


def _not_blank(text: str) -> str:
    """`text` unchanged, or a `ValueError` when it is only what Python's `str.strip` removes:
    the schema's own stripping leaves the information separators (U+001C to U+001F), which
    the graph, reading the question stripped, would find empty once the answer had started."""
    if not text.strip():
        raise ValueError("must hold more than whitespace and separators")
    return text


NotBlank = AfterValidator(_not_blank)

Question = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_QUESTION_CHARS),
    Storable,
    NotBlank,
    Field(description="The reader's question.", examples=["What is a ROS 2 node?"]),
]
SelectedText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_SELECTION_CHARS),
    Storable,
    NotBlank,
    Field(description="Text the reader highlighted; the answer uses only this text."),
]
PageTitle = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_PAGE_TITLE_CHARS),
    Storable,
    NotBlank,
    Field(
        description='Title of the page the reader is on: a question about "this lesson" or '
        '"this page" is about it.',
        examples=["Voice to Action: Speech, Planning and ROS 2"],
    ),
]

BookId = Annotated[
    str,
    StringConstraints(min_length=1, max_length=100),
    Storable,
    Field(description="The book to answer from (see `GET /books`); omitted = the configured book."),
]


class StrictModel(BaseModel):
    """A request body: unknown fields are errors, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


def _chat_schema(schema: dict[str, Any]) -> None:
    without_null_defaults(schema)
    schema["examples"] = [
        {"question": "What does the reliability QoS policy do?"},
        {"question": "And durability?", "session_id": "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b"},
    ]


class ChatRequest(StrictModel):
    """One turn of a conversation (the `/chat` routes).

    Optional fields accept null, but their schema does not say so (`SkipJsonSchema`): the
    LangServe playground draws its form from this schema and cannot draw a null type."""

    model_config = ConfigDict(json_schema_extra=_chat_schema)

    question: Question
    session_id: uuid.UUID | SkipJsonSchema[None] = Field(
        None,
        description="A session you own (send its token as `Authorization: Bearer`); "
        "omitted = a new session, whose id and token come back with the answer.",
    )
    selected_text: SelectedText | SkipJsonSchema[None] = None
    filters: SearchFilters | SkipJsonSchema[None] = None
    page_title: PageTitle | SkipJsonSchema[None] = None
    book_id: BookId | SkipJsonSchema[None] = None


class QueryRequest(StrictModel):
    """A question answered from the whole book."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"question": "How does a ROS 2 service differ?"}]}
    )

    question: Question
    session_id: uuid.UUID | None = Field(
        None,
        description="A session you own (send its token as `Authorization: Bearer`); "
        "omitted = a new session, whose id and token come back with the answer.",
    )
    filters: SearchFilters | None = None
    page_title: PageTitle | None = None
    top_k: StrictInt | None = Field(
        None,
        ge=1,
        le=10,
        description="Most sections to answer from (a long question reads half as many again).",
    )
    book_id: BookId | None = None


class QueryResponse(BaseModel):
    """A cited answer, or an honest refusal (`refused`, no sources)."""

    answer: str
    sources: list[Source]
    chunks_used: int
    session_id: uuid.UUID
    session_token: str | None = Field(
        None,
        description="Only when this answer started the session: the secret that owns it. "
        "Send it as `Authorization: Bearer` with every later use of the session.",
    )
    extractive: bool = Field(description="Answered from the book's own sentences, no model.")
    degraded: bool = Field(description="A configured model failed; the answer says so.")
    message_id: int = Field(description="The stored answer; rate it with `POST /feedback`.")
    refused: bool
    session_expired: bool = Field(
        description="The session had expired, so this answer started a fresh conversation."
    )


class HighlightRequest(StrictModel):
    """A question about the text the reader selected; nothing else is consulted."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "question": "What does this mean?",
                    "selected_text": "A node is a process that performs computation.",
                }
            ]
        }
    )

    question: Question
    selected_text: SelectedText


class HighlightResponse(BaseModel):
    """The answer and the selection it came from."""

    answer: str
    source_context: str


class SearchQuery(SearchFilters):
    """Hybrid search over the book with reader filters (all must hold)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"text": "QoS reliability", "hardware_tier": 2}]},
    )

    text: Annotated[str, Storable] = Field(min_length=3, max_length=MAX_QUESTION_CHARS)
    book_id: BookId | None = None
    limit: int = Field(5, ge=1, le=20)


class SearchResult(BaseModel):
    """One chunk, with what a client needs to show it and to read around it."""

    chunk_id: str
    text: str
    score: float = Field(ge=0.0, le=1.0, description="Cosine similarity to the query (0-1).")
    source_file: str
    url: str
    title: str
    section_title: str | None
    heading_path: list[str]
    module: str | None
    chapter: int | None
    lesson: int | None
    hardware_tier: int | None
    proficiency_level: str | None
    chunk_index: int
    total_chunks: int
    parent_doc_id: str
    prev_chunk_id: str | None
    next_chunk_id: str | None


class SearchResponse(BaseModel):
    """Search results, best first."""

    query: str
    results: list[SearchResult]
    total_found: int
    hardware_tier_filter: int | None
    module_filter: str | None
    book_id: str


class ChunkList(BaseModel):
    """Chunks in reading order."""

    chunks: list[SearchResult]


class SessionCreated(BaseModel):
    """A new, empty session, and the secret that owns it (shown only now)."""

    session_id: uuid.UUID
    session_token: str = Field(
        description="Send as `Authorization: Bearer` to read, continue, rate or delete it."
    )
    created_at: datetime


class Message(BaseModel):
    """A stored message of a session."""

    id: int
    role: Literal["user", "assistant"]
    content: str
    sources: list[dict[str, Any]]
    status: Literal["complete", "failed"]
    created_at: datetime
    feedback_score: int | None = None


class SessionView(BaseModel):
    """A session and its messages, newest last."""

    session_id: uuid.UUID
    created_at: datetime
    last_active_at: datetime
    expired: bool
    messages: list[Message]


class FeedbackRequest(StrictModel):
    """A reader's rating of an answer."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "session_id": "1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b",
                    "message_id": 2,
                    "score": 1,
                    "comment": "Clear.",
                }
            ]
        }
    )

    session_id: uuid.UUID = Field(description="The session the answer belongs to.")
    message_id: int = Field(ge=1, le=2**63 - 1)
    score: Literal[-1, 1]
    comment: Annotated[str, Storable] | None = Field(None, max_length=2000)
    book_id: BookId | None = None


class BookList(BaseModel):
    """The books this server answers from."""

    books: list[str]
    default: str = Field(description="The book a request without `book_id` gets.")


class FeedbackStored(BaseModel):
    """The stored rating."""

    feedback_id: int
    message_id: int


class Health(BaseModel):
    """The process is up."""

    status: Literal["ok"]


class ReadyPart(BaseModel):
    """One dependency's state."""

    ok: bool
    detail: str


class Readiness(BaseModel):
    """Whether every dependency answers."""

    ready: bool
    parts: dict[str, ReadyPart]


class ErrorBody(BaseModel):
    """What went wrong, for people."""

    code: str
    message: str


class ErrorResponse(BaseModel):
    """Every error the API returns has this shape."""

    error: ErrorBody


class RunQueued(BaseModel):
    """The ingest run that serves the request."""

    run_id: str
    status: Literal["queued", "running", "completed", "failed"]


class WebhookIgnored(BaseModel):
    """A delivery that needs no ingest."""

    status: Literal["ignored", "pong"]
    reason: str | None = None


class IngestStep(BaseModel):
    """One step of a run: `load_documents`, `chunk_documents`, `embed_documents`,
    `upsert_chunks`."""

    name: str
    status: Literal["running", "completed", "failed"]
    attempts: int
    started_at: datetime | None
    ended_at: datetime | None
    error: str | None


class IngestRun(BaseModel):
    """An ingest run, its steps and its summary."""

    run_id: str
    status: Literal["queued", "running", "completed", "failed"]
    trigger: Literal["webhook", "manual", "cli"]
    branch: str | None
    commit: str | None
    full: bool
    requested_at: datetime
    started_at: datetime | None
    ended_at: datetime | None
    error: str | None
    summary: dict[str, Any] | None = Field(
        None,
        description="total_documents, total_chunks, embedded, skipped_unchanged, deleted, "
        "upserted, problems, status",
    )
    steps: list[IngestStep]


class IngestRunList(BaseModel):
    """The latest runs, newest first."""

    runs: list[IngestRun]
