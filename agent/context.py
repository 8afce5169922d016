"""Per-request knobs of the graph (its LangGraph context). Deployment settings are elsewhere."""

from dataclasses import dataclass, field
from typing import Literal

from langgraph.runtime import Runtime

from agent import prompts
from agent.offline.grading import GradeThresholds


@dataclass(kw_only=True)
class Context(GradeThresholds):
    """How one turn retrieves, grades and answers.

    The offline grader's thresholds are inherited from `GradeThresholds`, not nested, so a
    context sent as JSON (LangGraph's server, Studio) sets them like the other knobs.
    """

    top_k: int = 4
    """Most sources an answer is built from."""
    candidates: int = 30
    """Chunks retrieved before reranking."""
    reranker: Literal["heuristic", "llm", "none"] = "heuristic"
    """`llm` adds a listwise LLM rerank of the top candidates when an LLM is configured;
    `none` keeps the retrieval order (for measuring what reranking adds)."""
    decomposer: Literal["rules", "llm"] = "rules"
    """How a question in several parts is split before searching: by its grammar
    (`agent.offline.decompose`), or, with `llm` and an LLM configured, by the LLM (the rules
    when it fails)."""
    structural_expansion: bool = True
    """Also search by section name for questions about objectives, takeaways, next steps..."""
    max_rewrites: int = 1
    """Rewrites of a question that found nothing relevant, before refusing."""
    history_window: int = 10
    """Messages of the conversation used to understand a follow-up."""
    book_title: str | None = None
    """How prompts name the book; None: the deployment's `DOCS_NAME`."""
    answer_prompt: str = field(default=prompts.ANSWER_SYSTEM)
    highlight_prompt: str = field(default=prompts.HIGHLIGHT_SYSTEM)
    condense_prompt: str = field(default=prompts.CONDENSE_SYSTEM)
    grade_prompt: str = field(default=prompts.GRADE_SYSTEM)
    rewrite_prompt: str = field(default=prompts.REWRITE_SYSTEM)
    rerank_prompt: str = field(default=prompts.RERANK_SYSTEM)
    decompose_prompt: str = field(default=prompts.DECOMPOSE_SYSTEM)


def context_of(runtime: Runtime[Context]) -> Context:
    """The run's context, or the defaults when the caller passed none."""
    return runtime.context or Context()
