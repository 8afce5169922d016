"""Checks on a turn before the graph works on it; failures are `InvalidTurnError`s for people."""

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import HumanMessage
from pydantic import ValidationError

from agent.retrieval.search import SearchFilters

MAX_QUESTION_CHARS = 4_000
MAX_SELECTION_CHARS = 20_000
MAX_PAGE_TITLE_CHARS = 300


class InvalidTurnError(ValueError):
    """The turn cannot be answered as given; the message says what to change."""


def validate_turn(state: Mapping[str, Any]) -> tuple[str, SearchFilters]:
    """The turn's question (stripped) and parsed filters, or an `InvalidTurnError`."""
    messages = state.get("messages") or []
    if not messages or not isinstance(messages[-1], HumanMessage):
        raise InvalidTurnError("the turn must end with the reader's question (a human message)")
    question = messages[-1].text.strip()
    if not question:
        raise InvalidTurnError("the question is empty; ask something about the book")
    if len(question) > MAX_QUESTION_CHARS:
        raise InvalidTurnError(
            f"the question is {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}"
        )
    selection = state.get("selected_text") or ""
    if len(selection) > MAX_SELECTION_CHARS:
        raise InvalidTurnError(
            f"the selected text is {len(selection):,} characters; "
            f"the limit is {MAX_SELECTION_CHARS:,}"
        )
    page_title = state.get("page_title") or ""
    if not isinstance(page_title, str) or len(page_title) > MAX_PAGE_TITLE_CHARS:
        raise InvalidTurnError(
            f"page_title must be text of at most {MAX_PAGE_TITLE_CHARS} characters"
        )
    try:
        filters = SearchFilters.model_validate(state.get("filters") or {})
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "filters"
        raise InvalidTurnError(f"invalid filter {where}: {problem['msg']}") from None
    return question, filters
