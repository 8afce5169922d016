"""Questions in several parts, and sections that take one place each in the ranking."""

import pytest
from langchain_core.messages import HumanMessage

from agent.offline.condense import condense_rules
from agent.offline.decompose import question_parts
from agent.offline.ranking import cover_parts, one_per_section
from agent.offline.text import terms
from agent.retrieval.vocabulary import Vocabulary
from agent.state import Candidate


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "What is the difference between a mutex and a semaphore?",
            ["mutex", "semaphore"],
        ),
        ("Tabs vs spaces for indentation?", ["Tabs", "spaces"]),
        (
            "How does the garbage collector find dead objects, and why does it pause threads?",
            [
                "How does the garbage collector find dead objects",
                "why does it pause threads",
            ],
        ),
        (
            "Which log levels exist and how do I change the default level for one module?",
            ["Which log levels exist", "how do I change the default level for one module"],
        ),
        (
            "Where are sessions stored? Can two servers share the session store?",
            ["Where are sessions stored", "Can two servers share the session store"],
        ),
        (
            "How do rate limiting and request queueing work together to protect the database?",
            ["rate limiting", "request queueing"],
        ),
        (
            "How do I rotate the log files daily and also keep the last week compressed?",
            ["How do I rotate the log files daily", "keep the last week compressed"],
        ),
        ("How is a mutex different from a semaphore?", ["mutex", "semaphore"]),
        ("How do green threads differ from OS threads?", ["green threads", "OS threads"]),
    ],
)
def test_a_question_that_asks_two_things_is_split_into_them(question, parts):
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("useQueue vs useJob vs useWorker?", ["useQueue", "useJob", "useWorker"]),
        ("Redis versus Postgres vs SQLite for the queue?", ["Redis", "Postgres", "SQLite"]),
        (
            "What's the difference between queues, topics and streams?",
            ["queues", "topics", "streams"],
        ),
    ],
)
def test_a_comparison_of_three_things_is_split_into_all_three(question, parts):
    assert question_parts(question) == parts


@pytest.mark.parametrize(
    "question",
    [
        "How does the garbage collector find dead objects?",
        # a scene-setting sentence before the question is not a part of its own
        "My build keeps failing on the lint step. How do I see which rule fails?",
        # nor is a clause of such a sentence: it sets the scene, it does not ask
        "Our workers share one queue, and each job carries its own retry budget. How do I "
        "stop a job that keeps failing from starving the others?",
        # "and" before a verb of the same subject goes on with the clause ("…and is kept…")
        "Which plugin formats SQL files and is maintained by the core team?",
        # a clause that names no topic is not a part either
        "Which config file wins over the others, and can I change that?",
        "How do read and write locks differ?",
    ],
)
def test_a_question_that_asks_one_thing_is_not_split(question):
    assert question_parts(question) == []


def test_a_last_sentence_that_repeats_an_earlier_one_is_still_read():
    question = "How do I rotate the log files daily? Keep old logs zipped. Keep old logs zipped."
    assert question_parts(question) == [
        "How do I rotate the log files daily",
        "Keep old logs zipped. Keep old logs zipped.",
    ]


def test_the_scene_leads_the_first_part_of_a_question_in_two_parts():
    question = (
        "Our workers share one queue, and each job carries a retry budget. How do I cap the "
        "retries, and where are failed jobs kept?"
    )
    assert question_parts(question) == [
        "Our workers share one queue, and each job carries a retry budget. How do I cap the "
        "retries",
        "where are failed jobs kept",
    ]


def test_a_condensed_follow_up_also_asks_about_the_earlier_topic():
    condensed = condense_rules(
        "How do I rotate them without downtime?", [HumanMessage("What are session tokens?")]
    )
    assert condensed == "How do I rotate them without downtime? (session tokens)"
    assert question_parts(condensed) == ["How do I rotate them without downtime", "session tokens"]
    comparison = "What is the difference between cookies and headers? (session tokens)"
    assert question_parts(comparison) == ["cookies (session tokens)", "headers (session tokens)"]
    assert question_parts("Why? (session tokens)") == []  # "Why" names nothing to search for
    # "it" is the earlier topic: the comparison's sides are that topic and the other thing
    differs = condense_rules(
        "How is it different from a cookie?", [HumanMessage("What are session tokens?")]
    )
    assert question_parts(differs) == ["session tokens", "cookie"]


def candidate(chunk_id: str, heading: str, dense: float, part_dense: list[float]) -> Candidate:
    return Candidate(
        id=chunk_id,
        score=1.0,
        dense_score=dense,
        dense_scores=[dense, *part_dense],
        payload={"title": "Memory", "heading_path": ["Memory", heading], "embedded_text": heading},
    )


def test_the_parts_take_turns_behind_the_questions_best_section():
    words = "garbage collector dead objects pause threads finalizers heap sizing"
    vocabulary = Vocabulary({t: 2 for t in terms(words)}, 50)
    ranked = [
        candidate("a", "How the garbage collector finds dead objects", 0.8, [0.8, 0.3]),
        candidate("b", "Finalizers and dead objects", 0.7, [0.6, 0.2]),
        candidate("c", "Heap sizing for the garbage collector", 0.6, [0.5, 0.3]),
        candidate("d", "Why collection pauses threads", 0.4, [0.2, 0.9]),
    ]
    parts = ["How does the garbage collector find dead objects", "why does it pause threads"]
    order = [c["id"] for c in cover_parts(ranked, parts, vocabulary)]
    # "a" is the question's best; the parts then take turns: part one's next section "b",
    # part two's best "d", then part one's "c" (part two has no section left to place)
    assert order == ["a", "b", "d", "c"]
    assert [c["id"] for c in cover_parts(ranked, [], vocabulary)] == ["a", "b", "c", "d"]


def test_a_section_named_after_every_side_of_a_comparison_goes_first():
    vocabulary = Vocabulary({t: 2 for t in terms("mutex semaphore locks compared")}, 50)
    ranked = [
        candidate("a", "Using a mutex", 0.8, [0.9, 0.2]),
        candidate("b", "Semaphores", 0.7, [0.2, 0.9]),
        candidate("c", "Locks compared: mutex or semaphore?", 0.5, [0.5, 0.5]),
    ]
    order = [c["id"] for c in cover_parts(ranked, ["mutex", "semaphore"], vocabulary)]
    assert order == ["c", "a", "b"]  # "c" compares the two; each side then has its own
    # with no section naming both, the question's best stays first
    order = [c["id"] for c in cover_parts(ranked[:2], ["mutex", "semaphore"], vocabulary)]
    assert order == ["a", "b"]
    # one side in the page's title and the other in a heading is no name for both
    split = candidate("d", "Semaphore limits", 0.5, [0.5, 0.5])
    split["payload"] = {
        **split["payload"],
        "title": "Mutexes",
        "heading_path": ["Mutexes", "Semaphore limits"],
    }
    order = [c["id"] for c in cover_parts([*ranked[:2], split], ["mutex", "semaphore"], vocabulary)]
    assert order[0] == "a"


def test_a_page_named_after_both_sides_answers_with_its_first_teaching_section():
    def section(chunk_id: str, heading: str, index: int, kind: str = "prose") -> Candidate:
        return Candidate(
            id=chunk_id,
            score=1.0,
            dense_score=0.5,
            dense_scores=[0.5, 0.5, 0.5],
            payload={
                "doc_id": "locks",
                "title": "Mutexes and Semaphores",
                "heading_path": ["Mutexes and Semaphores", heading],
                "chunk_index": index,
                "section_type": kind,
            },
        )

    vocabulary = Vocabulary({t: 2 for t in terms("mutex semaphore")}, 50)
    ranked = [
        Candidate(id="x", score=1.0, dense_score=0.9, dense_scores=[0.9, 0.9, 0.1], payload={}),
        section("pre", "Prerequisites", 1, "structural"),  # names both, teaches nothing
        section("later", "Priority inversion", 4),
        section("first", "Two ways to wait", 2),
    ]
    order = [c["id"] for c in cover_parts(ranked, ["mutex", "semaphore"], vocabulary)]
    assert order[0] == "first"


def test_a_sections_second_chunk_makes_way_for_other_sections():
    def part(chunk_id: str, heading: str) -> Candidate:
        return Candidate(
            id=chunk_id,
            score=1.0,
            dense_score=0.5,
            payload={"doc_id": "memory", "heading_path": ["Memory", heading]},
        )

    ranked = [part("a1", "Heap"), part("a2", "Heap"), part("b", "Stack"), part("c", "Arenas")]
    assert [c["id"] for c in one_per_section(ranked)] == ["a1", "b", "c", "a2"]
