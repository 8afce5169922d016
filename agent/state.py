"""The graph's state: what a turn brings in, what the nodes work on, and what they decide."""

from typing import Annotated, Any, Literal, NotRequired

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict  # pydantic reads it on Python 3.11 (the API's schemas)


class Source(TypedDict):
    """A cited section, numbered as the answer cites it (`[n]`)."""

    n: int
    title: str
    heading: str
    url: str
    """Page URL with the section's anchor."""
    file_path: str
    chunk_id: str
    score: float


class Candidate(TypedDict):
    """A retrieved chunk as the state carries it (plain data, so checkpoints can store it)."""

    id: str
    """The chunk's point id in the index."""
    score: float
    """Hybrid retrieval's fused (reciprocal-rank) score."""
    dense_score: float
    """Cosine similarity of the question and the chunk's dense vector."""
    dense_scores: NotRequired[list[float]]
    """The same for every query text searched (the question first, then its parts)."""
    spoken_dense: NotRequired[float]
    """For a follow-up, the cosine of the chunk and the follow-up as the reader said it, with
    their previous question (absent for any other question)."""
    payload: dict[str, Any]
    """The chunk as stored: text, title, heading path, page URL, neighbouring parts..."""
    rerank_score: NotRequired[float]
    """The offline reranker's weighted score (absent when the reranker is `none`)."""
    signals: NotRequired[dict[str, float]]
    """The signals behind `rerank_score`, by name; offline grading reads them."""


class InputState(TypedDict, total=False):
    """What a caller passes for one turn."""

    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation so far (at most the session's window), ending with the question."""
    selected_text: str | None
    """Text the reader highlighted: when set, the answer uses only this text."""
    filters: dict[str, Any] | None
    """Reader filters (module, chapter range, lesson, hardware_tier, proficiency_levels, ...)."""
    page_title: str | None
    """Title of the page the reader is on: a question about "this lesson" is about that page."""


class State(InputState, total=False):
    """Everything the nodes read and write during a turn."""

    standalone_question: str
    """The last question rewritten to stand alone, using the conversation."""
    question_parts: list[str]
    """The parts of a question that asks several things, searched after it ([] for one)."""
    candidates: list[Candidate]
    """Retrieved chunks, best first after reranking."""
    documents: list[Candidate]
    """Chunks the grader kept as support for an answer."""
    rewrite_count: int
    """How many times the question was rewritten after finding nothing relevant."""
    answer: str
    """The final answer text."""
    sources: list[Source]
    """The sections the answer cites."""
    refusal_reason: str | None
    """Why the turn was refused: `off_book` (it asks about what the book never mentions) or
    `not_found` (nothing relevant, even after rewording)."""
    source_context: str | None
    """For a highlight answer: the selected text it was answered from."""
    degraded: bool
    """The LLM failed during this turn, so the rest of it ran offline (and the answer says so)."""


Route = Literal["highlight_answer", "condense"]
AfterGrade = Literal["answer", "rewrite", "refuse"]
