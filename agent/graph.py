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
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
)
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from agent import llm
from agent.citations import CitationFilter
from agent.context import Context, context_of
from agent.inputs import validate_turn
from agent.llm import LLMUnavailableError
from agent.offline import extractive
from agent.offline.condense import (
    about_the_page,
    appended_topic,
    condense_rules,
    refers_to_the_page,
    topic_words,
    with_earlier_topic,
)
from agent.offline.decompose import question_parts
from agent.offline.grading import (
    GradeThresholds,
    ask_coverage,
    foreign_features,
    grade_offline,
    naming_whole_topic,
    off_book,
    passing_names,
    unexplained_subject,
    unknown_share,
    unnamed_flags,
)
from agent.offline.ranking import (
    CROSS_MARGIN,
    cover_parts,
    one_per_section,
    rank_candidates,
    rerank_top,
)
from agent.offline.spelling import book_spelling
from agent.offline.text import answer_terms, long_question, structural_intent
from agent.output import AnswerStream
from agent.prompts import as_data, refusal
from agent.resources import current_resources
from agent.retrieval.named_pages import with_named_pages
from agent.retrieval.search import SearchFilters
from agent.retrieval.sources import (
    candidate_from,
    expand_fragments,
    follow_signposts,
    number_sources,
)
from agent.retrieval.vocabulary import Vocabulary, book_vocabulary
from agent.state import AfterGrade, Candidate, InputState, Route, Source, State
from core.safety import link_policy
from core.store import BookIndex
from core.structure import STRUCTURAL_SECTIONS

log = logging.getLogger("bookrag.agent")

DEGRADED_NOTE = (
    "(The language model is unavailable right now, so here are the passages that answer your "
    "question.)\n\n"
)

T = TypeVar("T")


async def with_llm_or_offline(
    state: State,
    node: str,
    llm_call: Callable[[BaseChatModel], Awaitable[T]],
    offline_call: Callable[[bool], T],
) -> tuple[T, dict[str, Any]]:
    """`llm_call(model)` when an LLM is configured and working, else `offline_call(llm_down)`.

    `llm_down` says whether an LLM is configured but failed during this turn, so an answer can
    say so. When it fails here (`LLMUnavailableError`), the changes returned with the result
    mark the turn `degraded`, and the rest of it runs offline; any other error is raised.
    """
    model = (await current_resources()).chat_model
    if model is None:
        return offline_call(False), {}
    if state.get("degraded"):
        return offline_call(True), {}
    try:
        return await llm_call(model), {}
    except LLMUnavailableError as error:
        log.warning("the LLM failed in %s, continuing offline: %s", node, error)
        return offline_call(True), {"degraded": True}


def _final(text: str, sources: list[Source]) -> dict[str, Any]:
    return {"answer": text, "sources": sources, "messages": [AIMessage(text)]}


def _emit_answer(
    out: AnswerStream, pieces: list[str], sources: list[Source], llm_down: bool = False
) -> dict[str, Any]:
    """Stream an answer written offline, and its sources; first say so if the LLM is down."""
    for piece in [DEGRADED_NOTE, *pieces] if llm_down else pieces:
        out.write(piece)
    return _final(out.close(sources), sources)


async def _answer_stream() -> AnswerStream:
    """A stream for this turn's answer, filtered by the deployment's link policy."""
    return AnswerStream(link_policy((await current_resources()).settings))


def _history(state: State, runtime: Runtime[Context]) -> list[AnyMessage]:
    return list(state.get("messages", [])[:-1])[-context_of(runtime).history_window :]


async def prepare(state: State) -> dict[str, Any]:
    """Check the turn and reset the working fields left by a previous turn of the thread."""
    question, filters = validate_turn(state)
    return {
        "standalone_question": question,
        "filters": filters.model_dump(exclude_none=True),
        "question_parts": [],
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
    prompt = context_of(runtime).highlight_prompt
    out = await _answer_stream()
    result, changes = await with_llm_or_offline(
        state,
        "highlight_answer",
        lambda model: _highlight_with_llm(model, out, prompt, selection, question),
        lambda llm_down: _emit_answer(
            out, [extractive.answer_from_selection(question, selection)], [], llm_down
        ),
    )
    return {**result, **changes, "source_context": selection}


async def _highlight_with_llm(
    model: BaseChatModel, out: AnswerStream, prompt: str, selection: str, question: str
) -> dict[str, Any]:
    system = prompt.format(selected_text=as_data(selection))
    await _stream_reply(model, [SystemMessage(system), HumanMessage(question)], out)
    return _final(out.close([]), [])


async def condense(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Rewrite a follow-up as a standalone question using the recent conversation; a question
    about "this lesson" is about the page the reader is on, whatever was asked before."""
    question = state["standalone_question"]
    on_page = about_the_page(question, state.get("page_title"))
    if on_page:
        return {"standalone_question": on_page}
    history = _history(state, runtime)
    if not history:
        return {}
    ctx = context_of(runtime)
    standalone, changes = await with_llm_or_offline(
        state,
        "condense",
        lambda model: llm.condense_with_llm(model, ctx.condense_prompt, history, question),
        # None: condense offline below, where the book's vocabulary can be read off the event loop
        lambda _: None,
    )
    if standalone is None:
        index = (await current_resources()).searcher.index
        standalone = await asyncio.to_thread(_condensed_offline, question, history, index, ctx)
    return {"standalone_question": standalone, **changes}


def _condensed_offline(
    question: str, history: list[AnyMessage], index: BookIndex, thresholds: GradeThresholds
) -> str:
    """`condense_rules`; and a question that reads as complete but off-book on its own is read
    as a follow-up when that is not off-book: "what should I vary for control?" after "What is
    domain randomization?", in a book that never writes "vary", is about the conversation's
    topic, which its words alone do not carry."""
    condensed = condense_rules(question, history)
    if condensed != question:
        return condensed
    vocabulary = book_vocabulary(index)
    if not off_book(question, vocabulary, thresholds):
        return question
    follow_up = with_earlier_topic(question, history)
    return question if off_book(follow_up, vocabulary, thresholds) else follow_up


async def retrieve(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Hybrid search with the reader's filters, for the question with its misspelt words read
    as the book spells them (so ranking, grading and the answer read it so too); structural
    questions also search by section, a follow-up condensed by rules also by its topic words
    alone and as the reader said it after their previous question, and a page the question
    names by its name is searched again on its own."""
    ctx = context_of(runtime)
    searcher = (await current_resources()).searcher
    question = state["standalone_question"]
    if ctx.book_spelling:
        question = await asyncio.to_thread(_spelled, question, searcher.index)
    filters = SearchFilters.model_validate(state.get("filters") or {})
    parts, changes = await _parts(state, ctx, question)
    queries = [question, *parts]  # parts first: `cover_parts` expects so
    intent = structural_intent(question)
    topic = " ".join(topic_words(question))
    if intent and ctx.structural_expansion:
        names = ", ".join(STRUCTURAL_SECTIONS[intent])  # how books title such a section
        queries.append(f"{intent} ({names}): {topic}")
    own, earlier = appended_topic(question)
    spoken = _spoken_follow_up(state, runtime, own) if earlier else ""
    if earlier:  # a follow-up says little: its topic words alone, and as the reader said it
        queries.extend(text for text in (topic, spoken) if text)
    hits = await asyncio.to_thread(searcher.search, queries, ctx.candidates, filters)
    hits = await asyncio.to_thread(with_named_pages, searcher, question, hits, filters)
    candidates = [candidate_from(hit) for hit in hits]
    return {
        "standalone_question": question,
        "candidates": _with_spoken_dense(candidates, len(queries)) if spoken else candidates,
        "question_parts": parts,
        **changes,
    }


def _spoken_follow_up(state: State, runtime: Runtime[Context], own: str) -> str:
    """A follow-up as the reader said it, with their previous question: "do i get to choose
    what it does? what am i supposed to build for the module 1 capstone?" reads as sentences
    to the embedding model, where the condensed form's keywords ("(supposed build module 1
    capstone)") do not. The follow-up comes first, so a long previous question is what the
    model's input limit cuts. Empty for a question about the page the reader is on, whose
    topic is the page's title, not the conversation's."""
    if refers_to_the_page(own):
        return ""
    earlier = [m.text for m in _history(state, runtime) if isinstance(m, HumanMessage)]
    return f"{own} {earlier[-1]}" if earlier else ""


def _with_spoken_dense(candidates: list[Candidate], searched: int) -> list[Candidate]:
    """Each candidate with the cosine of the follow-up as the reader said it (the last of the
    `searched` texts), which the grader's embedding floor also accepts; a page searched on its
    own (`with_named_pages`) has no such cosine."""
    return [
        {**c, "spoken_dense": c["dense_scores"][-1]}
        if len(c.get("dense_scores", [])) == searched
        else c
        for c in candidates
    ]


def _spelled(question: str, index: BookIndex) -> str:
    """`book_spelling` with the index's vocabulary (read in a thread: the first read loads it)."""
    return book_spelling(question, book_vocabulary(index))


async def _parts(state: State, ctx: Context, question: str) -> tuple[list[str], dict[str, Any]]:
    """The question's parts: by the LLM when the context asks for it, else by grammar."""
    if ctx.decomposer != "llm":
        return question_parts(question), {}
    return await with_llm_or_offline(
        state,
        "decompose",
        lambda model: llm.decompose_with_llm(model, ctx.decompose_prompt, question),
        lambda _: question_parts(question),
    )


async def rerank(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Put the section that answers first; optionally let the LLM order the top ones."""
    ctx = context_of(runtime)
    if ctx.reranker == "none":
        return {}
    resources = await current_resources()
    question = state["standalone_question"]
    vocabulary = await asyncio.to_thread(book_vocabulary, resources.searcher.index)
    parts = state.get("question_parts", [])
    cross_candidates = resources.settings.cross_encoder_candidates
    ranked = await asyncio.to_thread(
        _offline_order, question, state["candidates"], parts, vocabulary, cross_candidates, ctx
    )
    if ctx.reranker != "llm" or not ranked:
        return {"candidates": ranked}
    top = ranked[: ctx.top_k * 2]
    texts = [c["payload"].get("text", "") for c in top]
    order, changes = await with_llm_or_offline(
        state,
        "rerank",
        lambda model: llm.rerank_with_llm(model, ctx.rerank_prompt, question, texts),
        lambda _: list(range(len(top))),  # the offline order
    )
    return {"candidates": [top[i] for i in order] + ranked[len(top) :], **changes}


async def grade(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """Keep only the candidates that support an answer to the standalone question."""
    ctx = context_of(runtime)
    index = (await current_resources()).searcher.index
    question = state["standalone_question"]
    candidates = state["candidates"][: ctx.top_k * 2]
    texts = [c["payload"].get("text", "") for c in candidates]
    verdicts, changes = await with_llm_or_offline(
        state,
        "grade",
        lambda model: llm.grade_with_llm(model, ctx.grade_prompt, question, texts),
        # None: grade offline below, where the book's vocabulary can be read off the event loop
        lambda _: None,
    )
    kept = (
        [c for c, ok in zip(candidates, verdicts, strict=True) if ok]
        if verdicts is not None
        else await _kept_offline(question, candidates, index, ctx)
    )
    if kept is None:  # off-book: rewording cannot help
        return {"documents": [], "refusal_reason": "off_book", **changes}
    documents = await asyncio.to_thread(_readable, kept[: answer_sources(question, ctx)], index)
    return {"documents": documents, **changes}


def _readable(documents: list[Candidate], index: BookIndex) -> list[Candidate]:
    """The kept chunks as an answer reads them: a signpost as the section it points to, a part
    of a split section with its neighbouring parts. Reads the index: call it off the loop."""
    return expand_fragments(follow_signposts(documents, index), index)


def answer_sources(question: str, ctx: Context) -> int:
    """How many kept candidates the answer reads: `top_k`, and half as many again for a long
    question (`long_question`: a scene and several asks), so 6 by default. Offline, shipped
    weights, against `top_k` for every question (and with the extractive answer keeping what
    the first four say: `WEIGHING_SOURCES`, `LONG_QUESTION_UNITS`): citation hit 0.791 / 0.723 /
    0.767 -> 0.811 / 0.753 / 0.790 and fact recall 0.743 / 0.699 / 0.610 -> 0.755 / 0.711 /
    0.621 (humanoid / Redux / Prettier), off-book refusals unchanged (they are judged on the
    candidates before this cut)."""
    return ctx.top_k + (ctx.top_k // 2 if long_question(question) else 0)


def _offline_order(
    question: str,
    candidates: list[Candidate],
    parts: list[str],
    vocabulary: Vocabulary,
    cross_candidates: int,
    ctx: Context,
) -> list[Candidate]:
    """The reranker's order, the first few read by the cross-encoder, each part of the
    question given its places (CPU-bound: run it in a thread, off the event loop)."""
    weights = ctx.ranking_weights()
    ranked = rerank_top(
        question,
        rank_candidates(question, candidates, vocabulary, weights),
        cross_candidates,
        ctx.cross_weight,
    )
    return one_per_section(cover_parts(ranked, parts, vocabulary, weights))


async def _kept_offline(
    question: str, candidates: list[Candidate], index: BookIndex, thresholds: GradeThresholds
) -> list[Candidate] | None:
    """The candidates the offline grader keeps, in their order; None for an off-book question.
    The book's vocabulary is read, and the grading done, in threads, off the event loop."""
    vocabulary = await asyncio.to_thread(book_vocabulary, index)
    return await asyncio.to_thread(_graded, question, candidates, vocabulary, thresholds)


def _graded(
    question: str, candidates: list[Candidate], vocabulary: Vocabulary, thresholds: GradeThresholds
) -> list[Candidate] | None:
    """`_kept_offline`'s verdict. It reads the signals `rerank` stored; with the reranker
    `none` there are none, so they are computed here."""
    if off_book(question, vocabulary, thresholds):
        return None
    ranked = (
        candidates
        if all("signals" in c for c in candidates)
        else rank_candidates(question, candidates, vocabulary)
    )
    asked = ask_coverage(question, ranked, vocabulary)
    known = 1.0 - unknown_share(question, vocabulary)
    named = naming_whole_topic(question, ranked, vocabulary)
    passing = {c["id"] for c in grade_offline(ranked, thresholds, asked, known, named)}
    kept = [c for c in candidates if c["id"] in passing]
    if kept and (
        passing_names(question, vocabulary, kept)
        or foreign_features(question, vocabulary, kept)
        or unnamed_flags(question, kept)
        or unexplained_subject(question, vocabulary, kept)
    ):
        return None
    return kept


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
    """A new search query for the same question. Offline, a question asked in a conversation
    that was read on its own is read as a follow-up of it ("Which size should I use on a
    Jetson?" after "What is Whisper?"): nothing in the book answered it alone, and a question
    can lean on the turn before without a pronoun. Otherwise its topic words alone."""
    question = state["standalone_question"]
    prompt = context_of(runtime).rewrite_prompt
    query, changes = await with_llm_or_offline(
        state,
        "rewrite",
        lambda model: llm.rewrite_with_llm(model, prompt, question),
        lambda _: _rewritten_offline(question, _history(state, runtime)),
    )
    count = state.get("rewrite_count", 0) + 1
    return {"standalone_question": query, "rewrite_count": count, **changes}


def _rewritten_offline(question: str, history: list[AnyMessage]) -> str:
    """`rewrite`'s query without an LLM: the question as a follow-up of the conversation when
    it was read on its own and there is an earlier topic; else its topic words."""
    if not appended_topic(question)[1]:
        follow_up = with_earlier_topic(question, history)
        if follow_up != question:
            return follow_up
    return " ".join(topic_words(question)) or question


async def answer(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    """A cited answer from the graded documents (LLM, or extractive without one).

    If the LLM failed earlier in the turn, or fails before its first token here, the answer is
    extractive and says so; a failure mid-answer is raised, so the caller never stores half an
    answer as a complete one.
    """
    out = await _answer_stream()
    index = (await current_resources()).searcher.index
    vocabulary = await asyncio.to_thread(book_vocabulary, index)
    result, changes = await with_llm_or_offline(
        state,
        "answer",
        lambda model: _answer_with_llm(model, out, state, runtime),
        lambda llm_down: _answer_extractively(out, state, vocabulary, llm_down),
    )
    return {**result, **changes}


def _answer_extractively(
    out: AnswerStream, state: State, vocabulary: Vocabulary, llm_down: bool
) -> dict[str, Any]:
    documents = state["documents"]
    texts = [d["payload"]["text"] for d in documents]
    headings = [d["payload"].get("heading", "") for d in documents]
    titles = [d["payload"].get("title", "") for d in documents]
    question = state["standalone_question"]
    everyday = vocabulary.everyday(answer_terms(question))
    structural = frozenset(
        i
        for i, d in enumerate(documents)
        if d["payload"].get("section_type") == "structural"
        and not extractive.states_requirements(question, headings[i], titles[i], texts[i], everyday)
    )
    excerpts = extractive.select_excerpts(
        question, texts, headings, everyday, structural, sure_of_best_source(state), titles
    )
    order = list(dict.fromkeys(e.document for e in excerpts))
    numbers = {document: n for n, document in enumerate(order, start=1)}
    sources = number_sources([documents[i] for i in order], out.policy.site_url)
    return _emit_answer(out, extractive.compose(excerpts, numbers), sources, llm_down)


def sure_of_best_source(state: State) -> bool:
    """Whether the reranker is sure of the best source: the cross-encoder read it as answering
    (a positive logit), or it leads every other candidate by `CROSS_MARGIN` (so far that the
    cross-encoder did not need to read it)."""
    documents = state["documents"]
    if not documents:
        return False
    best = documents[0]
    others = [c.get("rerank_score", 0.0) for c in state["candidates"] if c["id"] != best["id"]]
    lead = best.get("rerank_score", 0.0) - max(others, default=0.0)
    return best.get("signals", {}).get("cross", 0.0) > 0 or lead >= CROSS_MARGIN


async def _answer_with_llm(
    model: BaseChatModel, out: AnswerStream, state: State, runtime: Runtime[Context]
) -> dict[str, Any]:
    ctx = context_of(runtime)
    sources = number_sources(state["documents"], out.policy.site_url)
    listing = "\n\n".join(
        f"[{s['n']}] {s['title']} › {s['heading']}\n{as_data(d['payload']['text'])}"
        for s, d in zip(sources, state["documents"], strict=True)
    )
    book_title = ctx.book_title or (await current_resources()).settings.docs_name
    system = ctx.answer_prompt.format(book_title=book_title, sources=listing)
    question = HumanMessage(state["standalone_question"])
    messages = [SystemMessage(system), *_history(state, runtime), question]
    guard = CitationFilter({s["n"] for s in sources})
    await _stream_reply(model, messages, out, guard)
    cited = [s for s in sources if s["n"] in guard.cited] or sources
    return _final(out.close(cited), cited)


async def _stream_reply(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    out: AnswerStream,
    guard: CitationFilter | None = None,
) -> None:
    """Stream the LLM's reply into `out` (through `guard`, if any).

    Raises `LLMUnavailableError` when the model fails before any of its reply was produced.
    """
    produced = False
    try:
        async for piece in llm.stream_reply(model, messages):
            produced = True
            out.write(guard.feed(piece) if guard else piece)
    except Exception as error:
        if produced:
            raise
        raise LLMUnavailableError(str(error)) from error
    if guard:
        out.write(guard.flush())


async def refuse(state: State) -> dict[str, Any]:
    """Say honestly that the book does not cover this; name the nearest pages, uncited."""
    nearest = list(
        dict.fromkeys(c["payload"].get("title", "") for c in state.get("candidates", [])[:3])
    )
    text = refusal((await current_resources()).settings.docs_name)
    if nearest:
        text += " The closest pages are: " + "; ".join(t for t in nearest if t) + "."
    reason = state.get("refusal_reason") or "not_found"
    return {**_emit_answer(await _answer_stream(), [text], []), "refusal_reason": reason}


def _query_side() -> StateGraph[State, Context, InputState, State]:
    """A builder holding the query side both graphs share: prepare, condense → retrieve → rerank."""
    query_side = StateGraph(State, context_schema=Context, input_schema=InputState)
    for node in (prepare, condense, retrieve, rerank):
        query_side.add_node(node)
    query_side.add_edge(START, "prepare")
    query_side.add_edge("condense", "retrieve")
    query_side.add_edge("retrieve", "rerank")
    return query_side


builder = _query_side()
builder.add_node(highlight_answer)
builder.add_node(grade)
builder.add_node(rewrite)
builder.add_node(answer)
builder.add_node(refuse)
builder.add_conditional_edges("prepare", route_turn)
builder.add_edge("highlight_answer", END)
builder.add_edge("rerank", "grade")
builder.add_conditional_edges("grade", route_after_grade)
builder.add_edge("rewrite", "retrieve")
builder.add_edge("answer", END)
builder.add_edge("refuse", END)

graph = builder.compile(name="bookrag")

query_graph = (
    _query_side()
    .add_edge("prepare", "condense")
    .add_edge("rerank", END)
    .compile(name="bookrag-query")
)
"""The graph's query side alone (condense → retrieve → rerank), for retrieval evaluation."""
