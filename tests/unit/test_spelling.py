"""Misspelt words read as the book spells them."""

import pytest

from agent.offline.initialisms import book_initialisms, declared_initialisms, shortens
from agent.offline.spelling import book_spelling, regional_variant
from agent.offline.text import negated, terms
from agent.retrieval.vocabulary import Vocabulary

BOOK_WORDS = {
    "launch": 12,
    "latch": 1,
    "gazebo": 9,
    "randomization": 4,
    "color": 3,
    "behaviour": 2,
    "stack": 5,
    "print": 8,
    "event": 6,
    "planner": 3,
}


WRITTEN_AS = {"createentityadapter": "createEntityAdapter"}
INITIALISMS = {
    "vslam": "Visual SLAM",
    "rcl": "ROS Client Library",
    "dom": "Document Object Model",
    "bag": "Based Action Generation",
    "ros": "Robot Operating System",
}
DECLARED = {"rtk": "Redux Toolkit", "slip": "Spring-Loaded Inverted Pendulum"}


def book(words: dict[str, int] = BOOK_WORDS) -> Vocabulary:
    words = {**words, **dict.fromkeys(WRITTEN_AS, 2), "ros": 9, "sim": 4, "real": 6}
    frequency = {term: count for word, count in words.items() for term in terms(word)}
    return Vocabulary(
        frequency,
        20,
        spellings=words,
        written_as=WRITTEN_AS,
        initialisms=INITIALISMS,
        declared_initialisms=DECLARED,
    )


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("what is a lanch file?", "what is a launch file?"),  # the most written of two
        ("How do I start Gazbo with ROS 2?", "How do I start Gazebo with ROS 2?"),
        ("whats domain randomisation", "what's domain randomization"),
        ("Which colour does the plannre draw?", "Which color does the planner draw?"),
        ("Why is the behavior odd?", "Why is the behaviour odd?"),  # the book is British
        ("What does createEnttyAdapter take?", "What does createEntityAdapter take?"),
        ("What does Gazbo do?", "What does Gazebo do?"),
        ("GAZBO or Isaac?", "GAZBO or Isaac?"),  # shouted: the book writes no such name
    ],
)
def test_a_misspelt_word_is_read_as_the_book_spells_it(question, read):
    assert book_spelling(question, book()) == read


@pytest.mark.parametrize(
    "question",
    [
        "Which stock is cheapest?",  # an English word the book never uses, not its "stack"
        "How does dprint compare?",  # another tool: a letter before the book's "print"
        "Does gevent work with it?",
        "What does `lanch` print?",  # the reader's literal text
        'What does "lanch" print?',
        "Is a lach enough?",  # too short to tell from other words
        "What is a launch file?",  # the book's own word
        "How do I use ros2-lanch?",  # part of a name
    ],
)
def test_a_word_that_is_not_a_misspelling_of_the_books_is_left_as_written(question):
    assert book_spelling(question, book()) == question


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("my planner doesnt start, why", "my planner doesn't start, why"),
        ("Whats a launch file? I cant find one", "What's a launch file? I can't find one"),
        ("Im stuck: the event wont print", "I'm stuck: the event won't print"),
        ("its launch file lets the planner print", "its launch file lets the planner print"),
        ("What does `dont` print?", "What does `dont` print?"),  # the reader's literal text
        ("Is dont-print a launch flag?", "Is dont-print a launch flag?"),  # part of a name
    ],
)
def test_a_contraction_typed_without_its_apostrophe_is_read_with_it(question, read):
    assert book_spelling(question, book()) == read


def test_a_contraction_read_with_its_apostrophe_says_not_and_weighs_nothing():
    typed = "my planner doesnt print"
    assert not negated(typed) and terms(typed) != terms("planner print")
    read = book_spelling(typed, book())
    assert negated(read) and terms(read) == terms("planner print")


@pytest.mark.parametrize(
    ("word", "other", "variant"),
    [
        ("randomise", "randomize", True),
        ("colour", "color", True),
        ("behavior", "behaviour", True),
        ("centre", "center", True),
        ("never", "newer", False),
        ("stock", "stack", False),
        ("sparse", "spare", False),
    ],
)
def test_regional_spellings_are_one_edit_of_a_known_kind(word, other, variant):
    assert regional_variant(word, other) is variant


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("what is vslam?", "what is Visual SLAM?"),
        ("How does VSLAM fix drift?", "How does Visual SLAM fix drift?"),
        ("Does rcl need a node?", "Does ROS Client Library need a node?"),
        ("When is the DOM updated?", "When is the Document Object Model updated?"),  # capitals
        ("ros2 bag play flags?", "ros2 bag play flags?"),  # an English word in lower case
        ("What is ROS?", "What is ROS?"),  # the book writes it
        ("What does `vslam` print?", "What does `vslam` print?"),  # the reader's literal text
        ("Is vslam-lite a launch flag?", "Is vslam-lite a launch flag?"),  # part of a name
    ],
)
def test_an_initialism_the_book_never_writes_is_read_as_its_run_of_names(question, read):
    assert book_spelling(question, book()) == read


def test_the_book_initialisms_are_runs_of_names_written_inside_sentences():
    chunks = [
        "Then launch Visual SLAM against the camera. It runs on the Robot Operating System.",
        "We fuse an IMU into Visual SLAM here.\n## Running The Pipeline\nStart Isaac Sim.",
        "Run Isaac Sim first. The Robot Operating System has a Domain Randomization Engine.",
        "- Running The Pipeline is a list item.\nThen open Isaac Sim.",
    ]
    initialisms = book_initialisms(chunks)
    assert initialisms["vslam"] == "Visual SLAM"  # an all-caps word counts whole
    assert initialisms["ros"] == "Robot Operating System"
    assert "is" not in initialisms and "os" not in initialisms  # two letters: too short
    assert "dre" not in initialisms  # written in one chunk only
    # a heading's, a list item's or a sentence's first word is capitalised whatever it is
    assert "rtp" not in initialisms and "vo" not in initialisms and "sis" not in initialisms
    assert "ifo" not in initialisms  # "IMU" alone is no run


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("what is sim2real?", "what is sim-to-real?"),
        ("Is Sim2Real hard?", "Is Sim-to-Real hard?"),
        ("ros2 launch files?", "ros2 launch files?"),  # a name with its version
        ("what is sim2wow?", "what is sim2wow?"),  # "wow" is not the book's word
        ("what is the2launch?", "what is the2launch?"),  # "the" is no word of its own
        ("Is `sim2real` a flag?", "Is `sim2real` a flag?"),  # the reader's literal text
    ],
)
def test_two_book_words_joined_by_a_digit_are_read_as_the_book_joins_them(question, read):
    assert book_spelling(question, book()) == read


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("what's rtk", "what's Redux Toolkit (rtk)"),
        ("What is RTK?", "What is Redux Toolkit (RTK)?"),
        ("RTK?", "Redux Toolkit (RTK)?"),
        ("What is SLIP?", "What is Spring-Loaded Inverted Pendulum (SLIP)?"),
        ("what is slip?", "what is slip?"),  # an English word in lower case
        ("what is RTK Query?", "what is RTK Query?"),  # another name that starts with it
        ("How do I add RTK to my app?", "How do I add RTK to my app?"),  # not asked alone
    ],
)
def test_an_initialism_the_book_declares_is_read_with_its_name_when_asked_alone(question, read):
    assert book_spelling(question, book()) == read


def test_the_book_declares_an_initialism_in_a_parenthesis_after_the_name_it_shortens():
    chunks = [
        "[Redux Toolkit](https://redux-toolkit.js.org) (RTK) is the standard approach.",
        '**Redux Toolkit** (also known as **"RTK"** for short) is our recommendation.',
        "We recommend Mock Service Worker (MSW) for tests, with the Spring-Loaded Model (SLM).",
        "Use Redux Toolkit (see below). Start Isaac Sim (GPU only). Run RTK Query (RTK, RTKQ).",
    ]
    declared = declared_initialisms(chunks)
    assert declared == {
        "rtk": "Redux Toolkit",
        "msw": "Mock Service Worker",
        "slm": "Spring-Loaded Model",  # written as the book writes it
    }


@pytest.mark.parametrize(
    ("initialism", "words", "shortened"),
    [
        ("RTK", ["Redux", "Toolkit"], True),  # a later letter of a word
        ("MSW", ["Mock", "Service", "Worker"], True),
        ("RT", ["Redux", "Toolkit", "Query"], False),  # every word gives a letter
        ("TR", ["Redux", "Toolkit"], False),  # in order
        ("RKT", ["Redux", "Toolkit"], False),  # each word from its first letter on
    ],
)
def test_an_initialism_shortens_a_name_by_each_words_first_letters_in_order(
    initialism, words, shortened
):
    assert shortens(initialism, words) is shortened
