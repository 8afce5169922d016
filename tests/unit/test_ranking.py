"""The offline reranker: which sections a question's intent moves up or down."""

from agent.offline.ranking import rank_candidates
from agent.offline.text import terms
from agent.retrieval.vocabulary import Vocabulary
from agent.state import Candidate


def section(chunk_id: str, heading: str, section_type: str, text: str) -> Candidate:
    return Candidate(
        id=chunk_id,
        score=1.0,
        dense_score=0.5,
        payload={
            "title": "Mixers",
            "heading_path": ["Mixers", heading],
            "section_type": section_type,
            "embedded_text": text,
        },
    )


def test_a_prerequisites_section_keeps_its_place_where_a_summary_gives_way():
    text = "Install the mixer firmware before the first batch."
    vocabulary = Vocabulary({t: 2 for t in terms(f"{text} dough")}, 50)
    candidates = [
        section("summary", "Summary", "structural", text),
        section("prerequisites", "Prerequisites", "structural", text),
        section("dough", "Kneading dough", "instructional", "Knead the dough for ten minutes."),
    ]
    ranked = rank_candidates("How do I install the mixer firmware?", candidates, vocabulary)
    signals = {c["id"]: c["signals"] for c in ranked}
    assert ranked[0]["id"] == "prerequisites"
    assert signals["prerequisites"]["intent"] == 0.0  # where setup steps live
    assert signals["summary"]["intent"] == -1.0  # repeats topics without explaining them
