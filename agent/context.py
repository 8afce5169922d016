"""Per-request knobs of the graph (its LangGraph context). Deployment settings are elsewhere."""

from dataclasses import dataclass, field, fields, replace
from typing import Literal

from langgraph.runtime import Runtime

from agent import prompts
from agent.offline.grading import GradeThresholds
from agent.offline.ranking import CROSS_WEIGHT, RerankWeights


@dataclass(kw_only=True)
class Context(GradeThresholds):
    """How one turn retrieves, grades and answers.

    The offline grader's thresholds are inherited from `GradeThresholds`, not nested, so a
    context sent as JSON (LangGraph's server, Studio) sets them like the other knobs.
    """

    top_k: int = 4
    """Most sources an answer to a question of typical length is built from; a long one (a scene
    and several asks) reads half as many again (`agent.graph.answer_sources`)."""
    candidates: int = 30
    """Chunks retrieved before reranking."""
    reranker: Literal["heuristic", "llm", "none"] = "heuristic"
    """`llm` adds a listwise LLM rerank of the top candidates when an LLM is configured;
    `none` keeps the retrieval order (for measuring what reranking adds)."""
    rerank_weights: dict[str, float] = field(default_factory=dict)
    """Weights of the offline reranker's signals by name (`RerankWeights`), replacing the
    shipped fit for those named; `bench.quality` sets weights fitted on other books."""
    cross_weight: float = CROSS_WEIGHT
    """How much the cross-encoder's reading of the first candidates counts (0: not read)."""
    decomposer: Literal["rules", "llm"] = "rules"
    """How a question in several parts is split before searching: by its grammar
    (`agent.offline.decompose`), or, with `llm` and an LLM configured, by the LLM (the rules
    when it fails)."""
    structural_expansion: bool = True
    """Also search by section name for questions about objectives, takeaways, next steps..."""
    book_spelling: bool = True
    """Read a question's misspelt words as the book spells them (`agent.offline.spelling`)."""
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

    def __post_init__(self) -> None:
        signals = {f.name for f in fields(RerankWeights)}
        unknown = sorted(set(self.rerank_weights) - signals)
        if unknown:
            raise ValueError(
                f"rerank_weights names no signal of the reranker: {', '.join(unknown)} "
                f"(its signals: {', '.join(sorted(signals))})"
            )

    def ranking_weights(self) -> RerankWeights:
        """The reranker's weights for this turn: the shipped fit, with `rerank_weights`."""
        return replace(RerankWeights(), **self.rerank_weights)


def context_of(runtime: Runtime[Context]) -> Context:
    """The run's context, or the defaults when the caller passed none."""
    return runtime.context or Context()
