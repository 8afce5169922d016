"""Evaluation through the graph: retrieval via its query side, answers via the whole graph."""

import asyncio

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from agent.context import Context
from agent.graph import query_graph
from agent.resources import Resources
from agent.sources import hit_from
from ingest.evaluation import EvalQuestion, Retriever
from ingest.search import SearchHit


def conversation(question: EvalQuestion) -> list[AnyMessage]:
    """The question's history and the question itself as chat messages."""
    history: list[AnyMessage] = [
        HumanMessage(turn.content) if turn.role == "user" else AIMessage(turn.content)
        for turn in question.history
    ]
    return [*history, HumanMessage(question.question)]


def graph_retriever(resources: Resources, context: Context | None = None) -> Retriever:
    """A retriever for `evaluate_retrieval` that condenses, retrieves and reranks."""

    def retrieve(question: EvalQuestion) -> list[SearchHit]:
        state = asyncio.run(
            query_graph.ainvoke(
                {"messages": conversation(question)},
                config={"configurable": {"resources": resources}},
                context=context or Context(),
            )
        )
        return [hit_from(candidate) for candidate in state["candidates"]]

    return retrieve
