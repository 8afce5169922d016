"""The offline reranker: which sections a question's intent moves up or down."""

from agent.offline.ranking import rank_candidates
from agent.offline.text import terms
from agent.retrieval.vocabulary import Vocabulary
from agent.state import Candidate


def section(chunk_id: str, heading: str | None, section_type: str, text: str) -> Candidate:
    """A candidate chunk of the "Mixers" page: its top (no heading) or a section of it."""
    return Candidate(
        id=chunk_id,
        score=1.0,
        dense_score=0.5,
        payload={
            "title": "Mixers",
            "heading_path": ["Mixers", *([heading] if heading else [])],
            "section_type": section_type,
            "text": text,
            "embedded_text": text,
        },
    )


def ranked_with_signals(
    question: str, candidates: list[Candidate], more_words: str = ""
) -> tuple[list[Candidate], dict[str, dict[str, float]]]:
    """`candidates` ranked for `question` over a vocabulary of their texts (and `more_words`),
    and each one's signals by id."""
    texts = " ".join(c["payload"]["text"] for c in candidates)
    vocabulary = Vocabulary({t: 2 for t in terms(f"{texts} {more_words}")}, 50)
    ranked = rank_candidates(question, candidates, vocabulary)
    return ranked, {c["id"]: c["signals"] for c in ranked}


def test_a_prerequisites_section_keeps_its_place_where_a_summary_gives_way():
    text = "Install the mixer firmware before the first batch."
    candidates = [
        section("summary", "Summary", "structural", text),
        section("prerequisites", "Prerequisites", "structural", text),
        section("dough", "Kneading dough", "instructional", "Knead the dough for ten minutes."),
    ]
    ranked, signals = ranked_with_signals("How do I install the mixer firmware?", candidates)
    assert ranked[0]["id"] == "prerequisites"
    assert signals["prerequisites"]["recap"] == 0.0  # where setup steps live
    assert signals["summary"]["recap"] == -1.0  # repeats topics without explaining them


def test_a_page_that_opens_with_what_youll_learn_answers_an_objectives_question():
    objectives = "Tip: What You\u2019ll Learn.\n\n- How to knead dough\n- How to proof a loaf"
    kneading = "The mixer kneads dough in the mixers bowl; learn the mixer speeds here."
    candidates = [
        section("kneading", "Kneading dough", "instructional", kneading),
        section("top", None, "instructional", objectives),
    ]
    ranked, signals = ranked_with_signals("What will I learn in the mixers lesson?", candidates)
    assert signals["top"]["asked_section"] == 1.0  # by its admonition's title
    assert signals["kneading"]["asked_section"] == 0.0
    assert ranked[0]["id"] == "top"


def test_a_follow_ups_heading_match_is_on_its_own_ask_not_the_earlier_topic():
    install = "Install the mixer app before kneading."
    speeds = "The mixer has three speeds for kneading."
    candidates = [
        section("install", "Installing the mixer app", "instructional", install),
        section("speeds", "Speeds", "instructional", speeds),
    ]
    question = "How many speeds does it have? (mixer app)"
    _, signals = ranked_with_signals(question, candidates, more_words="app speeds")
    assert signals["install"]["heading"] == 0.0  # "mixer app" names the page, not the section
    assert signals["speeds"]["heading"] > 0.0


def test_seeing_frames_a_question_and_the_thing_to_be_seen_decides():
    """The verb "see" asks for perception; a section that uses it for something else ("echo
    the topic to see the readings") must not outrank the one about what is to be seen."""
    candidates = [
        section("echo", "Logs", "instructional", "Echo the mixer log to see the readings change."),
        section("lumps", "Probes", "instructional", "A mixer probe is used for lump detection."),
    ]
    ranked, signals = ranked_with_signals("How do I make my mixer see lumps?", candidates)
    assert ranked[0]["id"] == "lumps"
    assert signals["echo"]["text"] < signals["lumps"]["text"]


def test_among_sections_of_the_asked_kind_the_page_the_question_names_comes_first():
    """Every lesson has its objectives: the question names the lesson, its page decides."""
    objectives = "- Knead by hand\n- Proof a loaf"
    mixers = section("mixers", "Learning Objectives", "structural", objectives)
    rye = section("rye", "Learning Objectives", "structural", objectives)
    rye_page = {"title": "Rye Breads", "heading_path": ["Rye Breads", "Learning Objectives"]}
    rye["payload"] = {**rye["payload"], **rye_page}
    mixers = {**mixers, "score": 1.3, "dense_score": 0.9}  # the search liked it more
    ranked, signals = ranked_with_signals(
        "What are the learning objectives of the rye breads lesson?", [mixers, rye]
    )
    assert signals["rye"]["asked_page"] > signals["mixers"]["asked_page"] == 0.0
    assert ranked[0]["id"] == "rye"


def test_asked_what_a_thing_is_the_section_that_says_it_moves_up():
    """A section headed with the asked words ("Dough hooks and bowls") need not say what a
    dough hook is; the one whose sentence says it gets the `defines` signal."""
    candidates = [
        section("bowls", "Dough hooks and bowls", "instructional", "Fit the hook, then the bowl."),
        section("hook", "Attachments", "instructional", "A dough hook is a bent arm that kneads."),
    ]
    _, signals = ranked_with_signals("What is a dough hook?", candidates)
    assert signals["hook"]["defines"] == 1.0
    assert signals["bowls"]["defines"] == 0.0
    # a question that asks something else leaves it out
    _, signals = ranked_with_signals("How do I fit a dough hook?", candidates)
    assert signals["hook"]["defines"] == 0.0
