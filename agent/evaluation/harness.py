"""Evaluation through the graph: retrieval via its query side, answers via the whole graph.

Answer scores: `fact_recall` is the mean share of a question's `answer_facts` a reader finds in
its answer (compared as rendered, ignoring case: `agent.evaluation.visible`); `citation_hit`
the share of answered in-scope questions citing a gold or `also_in` section; `refusal_correct`
the share of out-of-scope questions refused; `false_refusal` the share of in-scope questions
refused; `highlight_only` the share of highlight answers whose terms come from the selection
(at least 90 %, allowing for joining words a model may add), or that say the selection lacks
the answer.
"""

import asyncio
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from agent.context import Context
from agent.evaluation.metrics import EvalQuestion, Retriever, hits_section, mean
from agent.evaluation.visible import states
from agent.graph import graph, query_graph
from agent.offline.extractive import NOT_IN_SELECTION
from agent.offline.text import terms
from agent.resources import Resources
from agent.retrieval.search import SearchHit
from agent.retrieval.sources import hit_from
from agent.state import InputState

SELECTION_SHARE = 0.9


def conversation(question: EvalQuestion) -> list[AnyMessage]:
    """The question's history and the question itself as chat messages."""
    history: list[AnyMessage] = [
        HumanMessage(turn.content) if turn.role == "user" else AIMessage(turn.content)
        for turn in question.history
    ]
    return [*history, HumanMessage(question.question)]


def query_state(
    question: EvalQuestion, resources: Resources, context: Context | None = None
) -> dict[str, Any]:
    """The graph's query side (condense, retrieve, rerank) run on one question line."""
    return asyncio.run(
        query_graph.ainvoke(
            {"messages": conversation(question)},
            config={"configurable": {"resources": resources}},
            context=context or Context(),
        )
    )


def graph_retriever(resources: Resources, context: Context | None = None) -> Retriever:
    """A retriever for `evaluate_retrieval` that condenses, retrieves and reranks."""

    def retrieve(question: EvalQuestion) -> list[SearchHit]:
        state = query_state(question, resources, context)
        return [hit_from(candidate) for candidate in state["candidates"]]

    return retrieve


def selection_only(answer: str, selection: str) -> bool:
    """Whether an answer says nothing beyond the selection (or says the selection lacks it)."""
    if answer == NOT_IN_SELECTION:
        return True
    said = terms(answer)
    return not said or len(said & terms(selection)) / len(said) >= SELECTION_SHARE


async def _answer(question: EvalQuestion, resources: Resources, context: Context) -> dict[str, Any]:
    state: InputState = {
        "messages": conversation(question),
        "selected_text": question.selected_text,
    }
    return await graph.ainvoke(state, {"configurable": {"resources": resources}}, context=context)


def evaluate_answers(
    questions: Sequence[EvalQuestion], resources: Resources, context: Context | None = None
) -> dict[str, Any]:
    """Run every question through the whole graph and score answers, citations and refusals."""
    per_question, scores = [], []
    for question in questions:
        result = asyncio.run(_answer(question, resources, context or Context()))
        answer, sources = result["answer"], result.get("sources", [])
        refused = bool(result.get("refusal_reason"))
        facts = [fact for fact in question.answer_facts if states(answer, fact)]
        scores.append(
            {
                "kind": question.kind,
                "facts": len(facts) / len(question.answer_facts) if question.answer_facts else None,
                "cited": _cites_gold(result, question) if question.gold and not refused else None,
                "refused": refused,
                "highlight_only": selection_only(answer, question.selected_text)
                if question.selected_text
                else None,
            }
        )
        per_question.append(
            {"id": question.id, "answer": answer, "refused": refused, "sources": sources}
        )
    return _answer_report(scores) | {"per_question": per_question}


def _cites_gold(result: dict[str, Any], question: EvalQuestion) -> bool:
    """Whether a cited chunk holds a gold (or `also_in`) section."""
    cited = {source["chunk_id"] for source in result.get("sources", [])}
    hits = [hit_from(d) for d in result.get("documents", []) if d["id"] in cited]
    return any(hits_section(hit, g) for hit in hits for g in [*question.gold, *question.also_in])


def _answer_report(scores: list[dict[str, Any]]) -> dict[str, Any]:
    in_scope = [s for s in scores if s["kind"] != "out_of_scope" and s["kind"] != "highlight"]
    off_book = [s for s in scores if s["kind"] == "out_of_scope"]

    def summary(group: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "n": len(group),
            "fact_recall": mean([s["facts"] for s in group if s["facts"] is not None]),
            "citation_hit": mean([float(s["cited"]) for s in group if s["cited"] is not None]),
            "refused": mean([float(s["refused"]) for s in group]),
        }

    kinds = sorted({s["kind"] for s in scores})
    return {
        "n": len(scores),
        "fact_recall": mean([s["facts"] for s in scores if s["facts"] is not None]),
        "citation_hit": mean([float(s["cited"]) for s in in_scope if s["cited"] is not None]),
        "refusal_correct": mean([float(s["refused"]) for s in off_book]),
        "false_refusal": mean([float(s["refused"]) for s in in_scope]),
        "highlight_only": mean(
            [float(s["highlight_only"]) for s in scores if s["highlight_only"] is not None]
        ),
        "by_kind": {kind: summary([s for s in scores if s["kind"] == kind]) for kind in kinds},
    }
