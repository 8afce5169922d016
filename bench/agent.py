"""Answer latency at the humanoid corpus size: offline end to end, and the graph's own overhead
before the first answer token when an LLM is configured (a stub OpenAI-compatible server on
loopback that answers at once, so all measured time is ours).

Run: `python -m bench.agent` (after `bench.retrieval`, whose ingest it reuses).
"""

import asyncio
import statistics
import sys
import time

from langchain_core.messages import HumanMessage

from agent.context import Context
from agent.evaluation.metrics import load_questions
from agent.graph import graph
from agent.resources import Resources, build_resources, load_chat_model
from bench.search import percentile
from bench.setup import QUESTIONS, ingested_humanoid
from tests.fakes import stub_openai

ROUNDS = 2


async def first_token_ms(resources: Resources, question: str) -> tuple[float, float]:
    """Milliseconds to the first answer token, and to the end of the turn."""
    start = time.perf_counter()
    first = None
    async for event in graph.astream(
        {"messages": [HumanMessage(question)]},
        {"configurable": {"resources": resources}},
        context=Context(),
        stream_mode="custom",
    ):
        if first is None and event["event"] == "token":
            first = time.perf_counter()
    end = time.perf_counter()
    return ((first or end) - start) * 1000, (end - start) * 1000


def report(label: str, values: list[float]) -> None:
    """Print p50 and p95."""
    print(
        f"{label}: p50 {statistics.median(values):.0f} ms, p95 {percentile(values, 0.95):.0f} ms "
        f"({len(values)} turns)"
    )


async def measure(resources: Resources, questions: list[str]) -> tuple[list[float], list[float]]:
    """First-token and total times over every question, after a warm-up."""
    for question in questions[:3]:
        await first_token_ms(resources, question)
    firsts, totals = [], []
    for _ in range(ROUNDS):
        for question in questions:
            first, total = await first_token_ms(resources, question)
            firsts.append(first)
            totals.append(total)
    return firsts, totals


def main() -> int:
    """Print the latency numbers."""
    settings, _ = ingested_humanoid()
    questions = [
        q.question for q in load_questions(QUESTIONS / "humanoid_questions.jsonl") if not q.history
    ]
    offline = build_resources(settings)
    _, totals = asyncio.run(measure(offline, questions))
    report("offline ask, end to end", totals)
    with stub_openai(verdict="1, 2, 3", answer_chunks=["The book says", " so [1]."]) as server:
        llm_settings = settings.model_copy(
            update={"llm_model": "openai:gpt-4o-mini", "openai_base_url": server.base_url,
                    "openai_api_key": "bench"}
        )  # fmt: skip
        with_llm = build_resources(llm_settings, load_chat_model(llm_settings))
        firsts, _ = asyncio.run(measure(with_llm, questions))
    report("with an instant stub LLM, time to first answer token (graph + client)", firsts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
