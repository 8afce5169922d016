"""The offline reranker: a weighted sum of signals that each catch what the others miss.

No cross-encoder can be installed offline, so candidates from hybrid retrieval are rescored by
- `fused`: Qdrant's reciprocal-rank fusion score (dense + BM25 agreement),
- `dense`: cosine of question and chunk embeddings,
- `heading`: IDF-weighted share of the question's topic terms found in the title and headings
  (a section titled with the asked term is usually the one that answers it),
- `text`: the same share over the chunk's text,
- `intent`: a structural question ("learning objectives", "next steps") meets a section of that
  name; a request for code meets a code-heavy section,
- `neighbour`: the chunk's previous or next chunk was retrieved too (a section, not a stray
  sentence, matches).
The weights were fitted on our humanoid-robotics question set and checked on other books.
"""

from dataclasses import dataclass, field

from agent.text import asks_for_code, structural_intent, terms, topic_terms
from agent.vocabulary import Vocabulary
from ingest.search import SearchHit


@dataclass(frozen=True)
class RerankWeights:
    """How much each signal counts."""

    fused: float = 1.0
    dense: float = 1.0
    heading: float = 0.6
    text: float = 0.4
    intent: float = 0.5
    neighbour: float = 0.1


@dataclass(frozen=True)
class Ranked:
    """A candidate with its reranking score and the signals behind it."""

    hit: SearchHit
    score: float
    signals: dict[str, float] = field(default_factory=dict)


def _intent_match(question: str, hit: SearchHit) -> float:
    wanted = structural_intent(question)
    heading = " ".join(hit.payload.get("heading_path", [])[1:]).lower()
    if wanted:
        return 1.0 if wanted.split()[-1].rstrip("s") in heading else 0.0
    if asks_for_code(question):
        return 1.0 if hit.payload.get("section_type") == "code_heavy" else 0.0
    return 0.0


def rerank(
    question: str,
    hits: list[SearchHit],
    vocabulary: Vocabulary,
    weights: RerankWeights | None = None,
) -> list[Ranked]:
    """Candidates reordered by the weighted signals, best first."""
    w = weights or RerankWeights()
    wanted = topic_terms(question)
    ids = {hit.id for hit in hits}
    top_fused = max((hit.score for hit in hits), default=1.0) or 1.0
    ranked = []
    for hit in hits:
        payload = hit.payload
        heading_terms = terms(
            " ".join([payload.get("title", ""), *payload.get("heading_path", [])])
        )
        signals = {
            "fused": hit.score / top_fused,
            "dense": hit.dense_score,
            "heading": vocabulary.coverage(wanted, heading_terms),
            "text": vocabulary.coverage(wanted, terms(payload.get("embedded_text", ""))),
            "intent": _intent_match(question, hit),
            "neighbour": float(
                payload.get("prev_chunk_id") in ids or payload.get("next_chunk_id") in ids
            ),
        }
        score = sum(getattr(w, name) * value for name, value in signals.items())
        ranked.append(Ranked(hit, score, signals))
    return sorted(ranked, key=lambda r: r.score, reverse=True)
