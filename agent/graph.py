"""The conversational graph: highlight-only answers, or retrieve → rerank → grade → answer.

```
START → prepare ─┬─ highlight_answer → END                      (reader selected text)
                 └─ condense → retrieve → rerank → grade ─┬─ answer → END
                                  ▲                       ├─ rewrite ─┘ (bounded)
                                  └───────────────────────┴─ refuse → END
```
Every node works with no LLM (rules, scores, extractive answers) and uses the LLM when one is
configured. Answers stream as custom events `{"event": "token", "text"}` followed by one
`{"event": "sources", "sources": [...]}`, on both paths.
"""

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
)
from langgraph.config import get_stream_writer
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent import extractive, llm
from agent.citations import CitationFilter
from agent.condense import condense_rules, topic_words
from agent.context import Context, context_of
from agent.grading import GradeThresholds, grade_offline, off_book
from agent.inputs import validate_turn
from agent.prompts import REFUSAL
from agent.rerank import rerank as rerank_candidates
from agent.resources import current_resources
from agent.sources import candidate_from, expand_fragments, hit_from, number_sources
from agent.state import AfterGrade, InputState, Route, Source, State
from agent.text import structural_intent
from agent.vocabulary import book_vocabulary
from ingest.search import SearchFilters

log = logging.getLogger("bookrag.agent")

DEGRADED_NOTE = (
    "(The language model is unavailable right now, so here are the passages of the book that "
    "answer your question.)\n\n"
)


def _emit_answer(pieces: list[str], sources: list[Source]) -> str:
    writer = get_stream_writer()
    for piece in pieces:
        writer({"event": "token", "text": piece})
    writer({"event": "sources", "sources": sources})
    return "".join(pieces).strip()


async def _chat_model(state: State) -> BaseChatModel | None:
    """The LLM, unless none is configured or it already failed during this turn."""
    return None if state.get("degraded") else (await current_resources()).chat_model


def _llm_failed(node: str, error: Exception) -> dict[str, Any]:
    log.warning("the LLM failed in %s, continuing offline: %s", node, error)
    return {"degraded": True}


def _history(state: State, runtime: Runtime[Context]) -> list[AnyMessage]:
    return list(state.get("messages", [])[:-1])[-context_of(runtime).history_window :]


async def prepare(state: State) -> dict[str, Any]:
    """Check the turn and reset the working fields left by a previous turn of the thread."""
    question, filters = validate_turn(state)
    return {
        "standalone_question": question,
        "filters": filters.model_dump(exclude_none=True),
        "candidates": [],
        "documents": [],
        "rewrite_count": 0,
        "answer": "",
        "sources": [],
        "refusal_reason": None,
        "source_context": None,
        "degraded": False,
    }


def route_turn(state: State) -> Route:
    """A turn with selected text is answered from that text alone."""
    return "highlight_answer" if (state.get("selected_text") or "").strip() else "condense"


async def highlight_answer(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Answer only from the reader's selection: no retrieval, no embeddings."""
    selection = (state.get("selected_text") or "").strip()
    question = state["standalone_question"]
    model = await _chat_model(state)
    if model is not None:
        system = context_of(runtime).highlight_prompt.format(selected_text=selection)
        messages = [SystemMessage(system), HumanMessage(question)]
        try:
            text = await _stream_reply(model, messages)
        except LLMUnavailableError as error:
            log.warning("the LLM failed in highlight_answer, answering offline: %s", error)
        else:
            get_stream_writer()({"event": "sources", "sources": []})
            return {**_final(text, []), "source_context": selection}
    pieces = [extractive.answer_from_selection(question, selection)]
    if model is not None:
        pieces.insert(0, DEGRADED_NOTE)
    return {**_final(_emit_answer(pieces, []), []), "source_context": selection}


async def condense(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Rewrite a follow-up as a standalone question using the recent conversation."""
    question = state["standalone_question"]
    history = _history(state, runtime)
    if not history:
        return {}
    model = await _chat_model(state)
    if model is not None:
        prompt = context_of(runtime).condense_prompt
        try:
            return {
                "standalone_question": await llm.condense_with_llm(model, prompt, history, question)
            }
        except Exception as error:
            return {
                **_llm_failed("condense", error),
                "standalone_question": condense_rules(question, history),
            }
    return {"standalone_question": condense_rules(question, history)}


async def retrieve(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Hybrid search with the reader's filters; structural questions also search by section."""
    ctx = context_of(runtime)
    searcher = (await current_resources()).searcher
    question = state["standalone_question"]
    filters = SearchFilters.model_validate(state.get("filters") or {})
    queries = [question]
    intent = structural_intent(question)
    if intent and ctx.structural_expansion:
        queries.append(f"{intent}: {' '.join(topic_words(question))}")
    hits = await asyncio.to_thread(searcher.search, queries, ctx.candidates, filters)
    return {"candidates": [candidate_from(hit) for hit in hits]}


async def rerank(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Put the section that answers first; optionally let the LLM order the top ones."""
    ctx = context_of(runtime)
    if ctx.reranker == "none":
        return {}
    resources = await current_resources()
    question = state["standalone_question"]
    vocabulary = await asyncio.to_thread(book_vocabulary, resources.searcher.index)
    ranked = rerank_candidates(question, [hit_from(c) for c in state["candidates"]], vocabulary)
    model = await _chat_model(state)
    failed: dict[str, Any] = {}
    if ctx.reranker == "llm" and model is not None and ranked:
        top = ranked[: ctx.top_k * 2]
        texts = [r.hit.payload.get("text", "") for r in top]
        try:
            order = await llm.rerank_with_llm(model, ctx.rerank_prompt, question, texts)
        except Exception as error:  # keep the offline order
            failed = _llm_failed("rerank", error)
        else:
            ranked = [top[i] for i in order] + ranked[len(top) :]
    candidates = [candidate_from(r.hit, rerank_score=r.score, signals=r.signals) for r in ranked]
    return {"candidates": candidates, **failed}


async def grade(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Keep only the candidates that support an answer to the standalone question."""
    resources = await current_resources()
    ctx = context_of(runtime)
    question = state["standalone_question"]
    candidates = state["candidates"][: ctx.top_k * 2]
    model = await _chat_model(state)
    failed: dict[str, Any] = {}
    verdicts: list[bool] | None = None
    if model is not None:
        texts = [c["payload"].get("text", "") for c in candidates]
        try:
            verdicts = await llm.grade_with_llm(model, ctx.grade_prompt, question, texts)
        except Exception as error:  # grade offline instead
            failed = _llm_failed("grade", error)
    if verdicts is not None:
        kept = [c for c, ok in zip(candidates, verdicts, strict=True) if ok]
    else:
        vocabulary = await asyncio.to_thread(book_vocabulary, resources.searcher.index)
        thresholds = GradeThresholds(ctx.min_text_coverage, ctx.min_dense, ctx.max_unknown_share)
        if off_book(question, vocabulary, thresholds):  # rewording cannot help
            return {"documents": [], "refusal_reason": "off_book", **failed}
        ranked = rerank_candidates(question, [hit_from(c) for c in candidates], vocabulary)
        passing = {r.hit.id for r in grade_offline(ranked, thresholds)}
        kept = [c for c in candidates if c["id"] in passing]
    documents = await asyncio.to_thread(
        expand_fragments, kept[: ctx.top_k], resources.searcher.index
    )
    return {"documents": documents, **failed}


def route_after_grade(state: State, runtime: Runtime[Context]) -> AfterGrade:
    """Answer if anything relevant was found; else rewrite once (bounded), then refuse.

    An off-book question is refused at once: no rewording makes the book cover it.
    """
    if state.get("documents"):
        return "answer"
    if state.get("refusal_reason"):
        return "refuse"
    if state.get("rewrite_count", 0) < context_of(runtime).max_rewrites:
        return "rewrite"
    return "refuse"


async def rewrite(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """A new search query for the same question."""
    question = state["standalone_question"]
    model = await _chat_model(state)
    counted = {"rewrite_count": state.get("rewrite_count", 0) + 1}
    if model is not None:
        try:
            query = await llm.rewrite_with_llm(model, context_of(runtime).rewrite_prompt, question)
        except Exception as error:
            query = " ".join(topic_words(question)) or question
            return {"standalone_question": query, **counted, **_llm_failed("rewrite", error)}
        return {"standalone_question": query, **counted}
    return {"standalone_question": " ".join(topic_words(question)) or question, **counted}


class LLMUnavailableError(RuntimeError):
    """The chat model failed before it produced any of the answer."""


async def answer(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """A cited answer from the graded documents (LLM, or extractive without one).

    If the LLM failed earlier in the turn, or fails before its first token here, the answer is
    extractive and says so; a failure mid-answer is raised, so the caller never stores half an
    answer as a complete one.
    """
    if state.get("degraded"):
        return _answer_extractively(state, note=DEGRADED_NOTE)
    model = (await current_resources()).chat_model
    if model is not None:
        try:
            return await _answer_with_llm(model, state, runtime)
        except LLMUnavailableError as error:
            log.warning("the LLM failed in answer, answering offline: %s", error)
            return _answer_extractively(state, note=DEGRADED_NOTE)
    return _answer_extractively(state)


def _final(text: str, sources: list[Source]) -> dict[str, Any]:
    return {"answer": text, "sources": sources, "messages": [AIMessage(text)]}


def _answer_extractively(state: State, note: str = "") -> dict[str, Any]:
    documents = state["documents"]
    texts = [d["payload"]["text"] for d in documents]
    headings = [d["payload"].get("heading", "") for d in documents]
    excerpts = extractive.select_excerpts(state["standalone_question"], texts, headings)
    order = list(dict.fromkeys(e.document for e in excerpts))
    numbers = {document: n for n, document in enumerate(order, start=1)}
    sources = number_sources([documents[i] for i in order])
    pieces = (
        [note, *extractive.compose(excerpts, numbers)]
        if note
        else extractive.compose(excerpts, numbers)
    )
    return _final(_emit_answer(pieces, sources), sources)


async def _answer_with_llm(
    model: BaseChatModel, state: State, runtime: Runtime[Context]
) -> dict[str, Any]:
    ctx = context_of(runtime)
    sources = number_sources(state["documents"])
    listing = "\n\n".join(
        f"[{s['n']}] {s['title']} › {s['heading']}\n{d['payload']['text']}"
        for s, d in zip(sources, state["documents"], strict=True)
    )
    system = ctx.answer_prompt.format(book_title=ctx.book_title, sources=listing)
    question = HumanMessage(state["standalone_question"])
    messages = [SystemMessage(system), *_history(state, runtime), question]
    guard = CitationFilter({s["n"] for s in sources})
    text = await _stream_reply(model, messages, guard)
    cited = [s for s in sources if s["n"] in guard.cited] or sources
    get_stream_writer()({"event": "sources", "sources": cited})
    return _final(text, cited)


async def _stream_reply(
    model: BaseChatModel, messages: Sequence[BaseMessage], guard: CitationFilter | None = None
) -> str:
    """Stream the LLM's reply as token events (through `guard`, if any) and return it.

    Raises `LLMUnavailableError` when the model fails before its first token.
    """
    writer = get_stream_writer()
    pieces: list[str] = []
    try:
        async for piece in llm.stream_reply(model, messages):
            shown = guard.feed(piece) if guard else piece
            if shown:
                writer({"event": "token", "text": shown})
                pieces.append(shown)
    except Exception as error:
        if pieces:
            raise
        raise LLMUnavailableError(str(error)) from error
    rest = guard.flush() if guard else ""
    if rest:
        writer({"event": "token", "text": rest})
    return "".join([*pieces, rest]).strip()


async def refuse(state: State) -> dict[str, Any]:
    """Say honestly that the book does not cover this; name the nearest chapters, uncited."""
    nearest = list(
        dict.fromkeys(c["payload"].get("title", "") for c in state.get("candidates", [])[:3])
    )
    text = REFUSAL
    if nearest:
        text += " The closest chapters are: " + "; ".join(t for t in nearest if t) + "."
    reason = state.get("refusal_reason") or "not_found"
    return {**_final(_emit_answer([text], []), []), "refusal_reason": reason}


builder = StateGraph(State, context_schema=Context, input_schema=InputState)
builder.add_node(prepare)
builder.add_node(highlight_answer)
builder.add_node(condense)
builder.add_node(retrieve)
builder.add_node(rerank)
builder.add_node(grade)
builder.add_node(rewrite)
builder.add_node(answer)
builder.add_node(refuse)
builder.add_edge(START, "prepare")
builder.add_conditional_edges("prepare", route_turn)
builder.add_edge("highlight_answer", END)
builder.add_edge("condense", "retrieve")
builder.add_edge("retrieve", "rerank")
builder.add_edge("rerank", "grade")
builder.add_conditional_edges("grade", route_after_grade)
builder.add_edge("rewrite", "retrieve")
builder.add_edge("answer", END)
builder.add_edge("refuse", END)

graph = builder.compile(name="bookrag")

query_builder = StateGraph(State, context_schema=Context, input_schema=InputState)
for node in (prepare, condense, retrieve, rerank):
    query_builder.add_node(node)
query_builder.add_edge(START, "prepare")
query_builder.add_edge("prepare", "condense")
query_builder.add_edge("condense", "retrieve")
query_builder.add_edge("retrieve", "rerank")
query_builder.add_edge("rerank", END)

query_graph = query_builder.compile(name="bookrag-query")
"""The graph's query side alone (condense → retrieve → rerank), for retrieval evaluation."""
