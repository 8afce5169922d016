"""The LLM steps of the graph. Inner calls carry the tags `nostream` (which LangGraph's
`messages` stream mode honours) and `langsmith:nostream` (LangSmith's), so only answers stream.

Replies are parsed from plain text (lists of excerpt numbers) rather than tool calls, so any
OpenAI-compatible server works, including ones without function calling. The grader judges all
candidates in one call, so grading costs one round trip, not one per chunk. A call that fails
raises `LLMUnavailableError`, which the graph answers by running the rest of the turn offline.
"""

import re
from collections.abc import AsyncIterator, Sequence

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import Runnable

from agent.offline.decompose import as_parts
from agent.prompts import as_data

NUMBER = re.compile(r"\d+")
LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")


class LLMUnavailableError(RuntimeError):
    """The chat model failed before it produced any of its reply."""


def _quiet(model: BaseChatModel) -> Runnable[LanguageModelInput, BaseMessage]:
    return model.with_config(tags=["nostream", "langsmith:nostream"])


async def _ask(model: BaseChatModel, messages: list[BaseMessage]) -> str:
    """The model's whole reply, not streamed; any failure is an `LLMUnavailableError`."""
    try:
        reply = await _quiet(model).ainvoke(messages)
    except Exception as error:
        raise LLMUnavailableError(str(error)) from error
    return reply.text


async def condense_with_llm(
    model: BaseChatModel, prompt: str, history: Sequence[AnyMessage], question: str
) -> str:
    """A standalone form of `question` written by the LLM from the conversation."""
    transcript = "\n".join(f"{m.type}: {m.text}" for m in history)
    reply = await _ask(
        model,
        [
            SystemMessage(prompt),
            HumanMessage(f"Conversation:\n{transcript}\n\nLast question: {question}"),
        ],
    )
    return reply.strip() or question


async def grade_with_llm(
    model: BaseChatModel, prompt: str, question: str, excerpts: Sequence[str]
) -> list[bool]:
    """For each excerpt, whether the LLM judges it relevant: one call for all of them."""
    if not excerpts:
        return []
    reply = await _ask(
        model,
        [SystemMessage(prompt), HumanMessage(f"Question: {question}\n\n{_numbered(excerpts)}")],
    )
    chosen = {int(n) - 1 for n in NUMBER.findall(reply)}
    return [index in chosen for index in range(len(excerpts))]


def _numbered(excerpts: Sequence[str]) -> str:
    return "\n\n".join(f"[{i + 1}] {as_data(text)}" for i, text in enumerate(excerpts))


async def rewrite_with_llm(model: BaseChatModel, prompt: str, question: str) -> str:
    """A better search query for `question`."""
    reply = await _ask(model, [SystemMessage(prompt), HumanMessage(question)])
    return reply.strip() or question


async def decompose_with_llm(model: BaseChatModel, prompt: str, question: str) -> list[str]:
    """The questions `question` asks, one per line of the LLM's reply (at most three); [] when
    it asks one thing."""
    reply = await _ask(model, [SystemMessage(prompt), HumanMessage(question)])
    lines = [LIST_MARKER.sub("", line).strip() for line in reply.splitlines()]
    return as_parts([line for line in lines if line])


async def rerank_with_llm(
    model: BaseChatModel, prompt: str, question: str, excerpts: Sequence[str]
) -> list[int]:
    """Indexes of `excerpts`, best first, as the LLM orders them; unnamed ones keep their order."""
    reply = await _ask(
        model,
        [SystemMessage(prompt), HumanMessage(f"Question: {question}\n\n{_numbered(excerpts)}")],
    )
    order: list[int] = []
    for number in NUMBER.findall(reply):
        index = int(number) - 1
        if 0 <= index < len(excerpts) and index not in order:
            order.append(index)
    return order + [i for i in range(len(excerpts)) if i not in order]


async def stream_reply(model: BaseChatModel, messages: Sequence[BaseMessage]) -> AsyncIterator[str]:
    """The model's reply, piece by piece."""
    async for chunk in model.astream(list(messages)):
        if chunk.text:
            yield chunk.text
