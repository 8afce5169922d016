"""Parsing what the LLM replies in the graph's steps."""

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from agent.llm import decompose_with_llm
from agent.prompts import DECOMPOSE_SYSTEM


@pytest.mark.parametrize(
    ("reply", "parts"),
    [
        ("one", []),
        ("How do I install it?", []),  # a single line is the question itself
        ("1. What is A?\n2) What is B?", ["What is A?", "What is B?"]),
        ("- Why A?\n\n* Why B?\n• Why C?\n- Why D?", ["Why A?", "Why B?", "Why C?"]),
    ],
)
async def test_the_decomposers_reply_gives_the_parts_of_a_question(reply, parts):
    model = FakeListChatModel(responses=[reply])
    assert await decompose_with_llm(model, DECOMPOSE_SYSTEM, "A and B?") == parts
