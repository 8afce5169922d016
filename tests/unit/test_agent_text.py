"""The agent's offline building blocks: citations, follow-ups, off-book names, excerpts."""

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from agent.citations import CitationFilter
from agent.context import Context
from agent.offline.condense import about_the_page, appended_topic, condense_rules, needs_context
from agent.offline.extractive import (
    NOT_IN_SELECTION,
    answer_from_selection,
    compose,
    select_excerpts,
)
from agent.offline.grading import (
    GradeThresholds,
    ask_coverage,
    grade_offline,
    naming_whole_topic,
    unknown_names,
)
from agent.offline.text import (
    answer_terms,
    asking_sentences,
    asks_advice,
    asks_amount,
    asks_command_line,
    asks_for_code,
    asks_name,
    asks_what_it_does,
    asks_why,
    block_language,
    command_terms,
    defined_subject,
    defined_thing,
    defines,
    emphasised,
    failing_subject,
    failure_words,
    gives_advice,
    gives_reason,
    introduces_term,
    is_heading,
    is_shell_block,
    named_languages,
    names_in_code,
    says_command,
    signpost_link,
    speaks_of_trouble,
    split_units,
    states_amount,
    structural_intent,
    taught_elsewhere,
    tells_what_it_does,
    terms,
    topic_terms,
    warns_against,
    without_file_names,
    without_setting,
)
from agent.retrieval.vocabulary import Vocabulary
from agent.state import Candidate

REPO = Path(__file__).resolve().parents[2]


def stream_through(guard: CitationFilter, pieces: list[str]) -> str:
    return "".join(guard.feed(piece) for piece in pieces) + guard.flush()


def test_invented_citations_are_removed_even_when_split_across_chunks():
    guard = CitationFilter({1, 2})
    shown = stream_through(guard, ["Reliable [", "1] and best ", "effort [", "7", "]. See [2]."])
    assert shown == "Reliable [1] and best effort . See [2]."
    assert guard.cited == [1, 2]


def test_brackets_that_are_not_citations_pass_through():
    guard = CitationFilter({1})
    assert stream_through(guard, ["array[i] and [see below] ok"]) == "array[i] and [see below] ok"


def test_follow_up_gets_the_previous_topic_and_standalone_questions_stay():
    history = [HumanMessage("What is a ROS 2 topic?"), AIMessage("A named channel.")]
    assert condense_rules("How is it different from a service?", history) == (
        "How is it different from a service? (ROS 2 topic)"
    )
    standalone = "Which QoS policies does DDS support for sensor streams?"
    assert not needs_context(standalone)
    assert condense_rules(standalone, history) == standalone
    assert condense_rules("Why?", []) == "Why?"


@pytest.mark.parametrize(
    ("question", "leans_on_the_conversation"),
    [
        ("How does the robot switch from one gait to another without stumbling?", False),
        ("How can several nodes run in one process?", False),
        ("Which one should I pick for the knee joint?", True),
        ("What is each one good for, thunks or listeners?", True),
        ("Can I nest the slice inside one of those reducers?", True),
        ("How does the posts one clear itself out on logout?", True),
    ],
)
def test_one_points_back_only_as_a_pronoun(question: str, leans_on_the_conversation: bool):
    """ "One" as a number ("from one gait to another") does not make a new question a
    follow-up, so it keeps its own topic instead of the turn before's."""
    history = [HumanMessage("What is a central pattern generator?"), AIMessage("A network.")]
    assert needs_context(question) is leans_on_the_conversation
    condensed = condense_rules(question, history)
    assert condensed.endswith("(central pattern generator)") is leans_on_the_conversation


@pytest.mark.parametrize(
    "fragment", ["only for the html files tho?", "With TypeScript types?", "or in a monorepo?"]
)
def test_a_fragment_that_narrows_the_last_question_gets_its_topic(fragment: str):
    """A follow-up typed as a fragment leans on the turn before however many words it has."""
    history = [HumanMessage("How do I set a 4-space indent in Prettier?"), AIMessage("tabWidth.")]
    assert condense_rules(fragment, history) == f"{fragment} (set 4-space indent Prettier)"


def test_a_name_only_in_an_earlier_turns_scene_is_not_carried_into_a_follow_up():
    asked = "My CI machine is slow and the launch fails. How do I give a service more time?"
    assert condense_rules("And how do I cancel one?", [HumanMessage(asked)]) == (
        "And how do I cancel one? (machine slow launch fails service time)"
    )
    # a name in the sentence that asks is the topic
    history = [HumanMessage("How does the Roomba map rooms?")]
    assert condense_rules("How do I tune it?", history) == "How do I tune it? (Roomba map rooms)"


def test_a_question_about_the_course_gives_a_follow_up_no_topic():
    # "What does this lesson cover?" asks about the page the reader is on, not a topic
    history = [HumanMessage("What does this lesson cover?"), AIMessage("- Launch files")]
    question = "How do I pass a parameter to a node when I launch it?"
    assert condense_rules(question, history) == question
    history = [HumanMessage("What does this lesson say about QoS depth?")]
    assert condense_rules("What does it default to?", history) == (
        "What does it default to? (QoS depth)"
    )


def test_named_things_the_book_never_mentions_are_flagged():
    vocabulary = Vocabulary({t: 3 for t in terms("ROS DDS Gazebo robot stairs climb")}, 100)
    assert unknown_names("How does the Roomba climb stairs?", vocabulary) == ["Roomba"]
    assert unknown_names("Which maps better, a Roomba or a robot?", vocabulary) == ["Roomba"]
    assert unknown_names("How does MoveIt plan?", vocabulary) == ["MoveIt"]
    assert unknown_names("How does DDS work in ROS and Gazebo?", vocabulary) == []
    assert unknown_names("What are the drawbacks of a robot?", vocabulary) == []


def test_intents_are_recognised():
    assert (
        structural_intent("What are the learning objectives of lesson 2?") == "learning objectives"
    )
    assert structural_intent("What should I study next after this?") == "next steps"
    assert structural_intent("What is DDS?") is None
    assert structural_intent("What should I be able to do after this lesson?") == (
        "learning objectives"
    )
    assert structural_intent("What do I need before starting the lab?") == "prerequisites"
    assert structural_intent("Summarise the walking lesson.") == "key takeaways"
    assert structural_intent("What should I take away from the voice lesson?") == "key takeaways"
    # a chapter's "Topics Covered" list is among its objectives
    assert structural_intent("What topics does the walking chapter cover?") == (
        "learning objectives"
    )
    assert structural_intent("What does this module cover?") == "learning objectives"
    assert structural_intent("What should I read first?") == "starting point"
    assert structural_intent("I'm new to robotics, where should I begin?") == "starting point"
    assert structural_intent("Where do I start?") == "starting point"
    assert structural_intent("In what order should I read the modules?") == "starting point"


@pytest.mark.parametrize(
    "question",
    [
        "How does the robot remember what was said earlier?",
        "What do I need to know about QoS?",
        "Will the robot be able to climb stairs?",
        "What happens after this message is published?",
        "How does the planner reach its goals?",
        "How do I take away power from the motors?",
        "Which topics does the camera node publish?",
        "Does the book cover MoveIt?",
        "Where do I start the bridge?",
        "Where should I begin the walking gait, from standing?",
        "What do I do first when the build fails?",
    ],
)
def test_words_that_also_ask_about_the_topic_are_not_structural_intents(question):
    assert structural_intent(question) is None
    assert asks_for_code("Show me the launch file") and not asks_for_code("Why use DDS?")


def test_a_request_for_code_is_read_from_how_it_asks_not_from_a_books_nouns():
    assert not asks_for_code("What does a launch file start?")  # a topic, in one book
    assert asks_for_code("Give me an example launch file")
    assert asks_for_code("How do I write a reducer?")
    # a spoken command is what the robot hears, not a command line
    assert not asks_for_code("How do I turn a voice command into oven actions?")
    assert asks_for_code("Which command lists the ovens?")


@pytest.mark.parametrize(
    "question",
    [
        "What happens if the planner gives the oven a dangerous command?",
        "How do I send heat commands to my oven?",
        "Can the oven understand spoken commands?",
        "Do I need the driver to bake in Python?",
    ],
)
def test_a_command_given_to_a_machine_or_a_language_named_is_no_request_for_code(question):
    assert not asks_for_code(question)


@pytest.mark.parametrize(
    "question",
    [
        "What is the exact npm command to add the oven driver?",
        "What is the command to reset the oven?",
        "What does the `oven --preheat` command do?",
        "What does the --preheat command do?",
        "Which commands can I run to see the ovens?",
        "What command do I run?",
        "Which command line flag preheats?",
        "How do I make an oven timer in Python?",
        "how can I start one in TypeScript",
    ],
)
def test_a_command_the_reader_asks_for_or_a_how_to_in_a_language_is_a_request_for_code(question):
    assert asks_for_code(question)


def test_a_request_for_code_is_read_from_the_sentences_that_ask():
    scene = "I passed my own ignore file on the command line and now generated files get checked."
    assert not asks_for_code(f"{scene} How do I keep both?")
    assert asks_for_code(f"{scene} Show me the right invocation.")
    assert asks_for_code("I'm new here. Which command starts the oven? (bakery)")


def test_commands_are_words_that_open_code_and_are_never_prose():
    book = (
        "Run `deno x tool` or `npm run build`; npm also works in prose.\n\n"
        "```sh\n$ bunx tool --check\n# check something\n```"
    )
    assert command_terms([book]) == terms("deno bunx")


def test_amounts_asked_for_and_stated():
    assert asks_amount("Once the oven is off, how long does the bread stay warm?")
    assert asks_amount("How many loaves fit on one shelf?")
    assert not asks_amount("How do I keep the bread warm for long?")
    assert states_amount("Unused dough is thrown away after 40 minutes.")
    assert states_amount("The shelf holds 12 loaves and turns twice a day.")
    assert states_amount("Each crate weighs 2 kg.") and states_amount("It is 100% rye.")
    assert not states_amount("When the count goes down to 0, a timer starts.")
    assert not states_amount("Since Oven 18, set `timeout: 40` in `oven.toml`.")


def test_names_asked_for_and_written_in_code():
    assert asks_name("My crust keeps burning. Which setting lowers the top heat?")
    assert asks_name("Which two options give me both?")
    assert asks_name("What do I set so the oven preheats on its own?")
    assert asks_name("Is there an option to skip the second proof?")
    assert not asks_name("What does the second proof do to the crumb?")
    assert names_in_code("| `false` | `--steam-burst` | `steamBurst: <bool>` |")
    assert names_in_code("Set `topHeat` lower.") and names_in_code("```toml\nsteam = 2\n```")
    assert not names_in_code("- `true` - Bake with steam.") and not names_in_code('Use `"auto"`.')
    assert not names_in_code("Put the `>` of a tag on the last line.")
    # a lone lower-case word in code is as often a value; a table may write its names plain
    assert not names_in_code("Switch between the default (`auto`) and no steam (`off`).")
    assert names_in_code('| `"auto"` | --steam-mode=\\<off&#124;auto> | steamMode: "off" |')
    assert not names_in_code("Danger: deprecated, use --steam-mode instead.")
    asked = terms("My rye loaves burn. What setting controls that?")
    assert not names_in_code("Loaves marked `rye` bake longer.", asked)  # the reader's word
    assert names_in_code("Loaves marked `rye` bake at `ryeHeat`.", asked)
    assert names_in_code("- `--rye-loaves` bakes them cooler.", asked)  # named after them


def test_commands_asked_for_and_given():
    assert asks_command_line("How do I bake a loaf from the command line?")
    assert asks_command_line("how do i list the trays in a terminal?")
    assert not asks_command_line("I pass a flag on the command line. Which setting wins?")
    assert not asks_command_line("How do I use the Oven CLI's config file?")  # a tool's name
    assert is_shell_block("```bash\novenctl bake\n```")
    assert not is_shell_block("```python\noven.bake()\n```")
    assert says_command("Bake from the terminal too: `ovenctl bake --minutes 40`.")
    assert not says_command("Set `topHeat` lower.")


def test_reasons_asked_for_and_given():
    assert asks_why("Why isn't proofing switched on by default?")
    assert asks_why("The crust burns every time. How come?")
    assert not asks_why("The recipe says why rye is dense. Where is the rye recipe?")
    assert gives_reason("Checking costs a little time, so it's not enabled by default.")
    assert gives_reason("Rye stays dense because it has little gluten.")
    assert not gives_reason("Rye is sold in sacks.")


def test_a_question_that_asks_what_to_do_and_a_sentence_that_advises():
    assert asks_advice("Should each feature get its own oven?")
    assert asks_advice("My dough sticks. Is it OK to add more flour?")
    assert asks_advice("How should the loaves be stored?")
    assert not asks_advice("What should I remember from the baking chapter?")  # structural
    assert not asks_advice("How does the oven keep its heat?")
    assert gives_advice("The intended pattern is to have only a single oven.")
    assert gives_advice("We recommend rye for dense loaves.")
    assert gives_advice("You shouldn't open the door while baking.")
    assert not gives_advice("If we open the door, we should now see the loaves.")


def test_a_unit_mostly_in_bold_is_emphasised():
    assert emphasised("**Unused loaves are given away after two days**, unless kept.")
    assert not emphasised("Loaves keep for two days, see **storage**.")


def test_units_keep_code_blocks_and_tables_whole():
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    text = f"First sentence. Second one.\n\n{table}\n\n```py\nx = 1\n\ny = 2\n```\n- item"
    assert split_units(text) == [
        "First sentence.",
        "Second one.",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "```py\nx = 1\n\ny = 2\n```",
        "- item",
    ]


def test_a_code_block_nested_in_a_list_item_loses_the_items_indent():
    text = '- Drop the option:\n\n    ```diff title="a.json"\n    {\n      "x": 1\n    }\n    ```'
    assert split_units(text) == [
        "- Drop the option:",
        '```diff title="a.json"\n{\n  "x": 1\n}\n```',
    ]


def test_lead_in_sentence_brings_the_table_it_introduces():
    text = "URDF has six joint types:\n\n| type | motion |\n|---|---|\n| revolute | rotation |"
    excerpts = select_excerpts("Which joint types exist in URDF?", [text], ["Joint Types"])
    assert [e.text.split("\n")[0] for e in excerpts] == [
        "URDF has six joint types:",
        "| type | motion |",
    ]


def test_headings_are_units_of_their_own():
    units = split_units("## Grasps\nTwo kinds exist.\n\n#### Power Grasps\n- **Function**: hold")
    assert units == ["## Grasps", "Two kinds exist.", "#### Power Grasps", "- **Function**: hold"]
    assert [is_heading(unit) for unit in units] == [True, False, True, False]


def test_lead_in_sentence_brings_the_whole_list_with_its_subheadings():
    text = (
        "The taxonomy divides grasps into two main categories:\n\n"
        "#### Power Grasps\n- **Function**: forceful holds\n\n"
        "#### Precision Grasps\n- **Function**: fine manipulation\n\n"
        "Robots switch between the two grasp categories as a task goes on."
    )
    excerpts = select_excerpts("What are the two main grasp categories?", [text], ["Grasps"])
    answer = "".join(compose(excerpts, {0: 1}))
    assert "**Power Grasps**" in answer and "**Precision Grasps**" in answer
    assert "fine manipulation [1]\n\nRobots switch" in answer  # a new paragraph after a list


def test_code_comes_from_the_best_ranked_source_and_the_best_source_speaks():
    best = "Nodes are written with rclpy:\n\n```python\nimport rclpy\nrclpy.init()\n```"
    lower = "Python code for ROS 2 nodes in a project:\n\n```python\n# python ros 2 node code\n```"
    excerpts = select_excerpts("Show me Python code for a ROS 2 node", [best, lower], ["a", "b"])
    assert {e.document for e in excerpts} == {0}
    assert any("rclpy.init()" in e.text for e in excerpts)


def test_offline_grading_keeps_the_rerankers_first_choices_when_anything_passes():
    def ranked(name: str, text: float, dense: float) -> Candidate:
        signals = {"text": text}
        return Candidate(id=name, score=1.0, dense_score=dense, payload={}, signals=signals)

    first, second = ranked("first", 0.1, 0.5), ranked("second", 0.5, 0.5)
    thresholds = GradeThresholds()
    assert grade_offline([first, second], thresholds) == [first, second]
    assert grade_offline([first, ranked("weak", 0.0, 0.1)], thresholds) == []
    weak = [ranked(f"paraphrased {n}", 0.0, 0.2) for n in range(3)]
    lower, passing = ranked("lower", 0.0, 0.2), ranked("passing", 0.5, 0.5)
    kept = grade_offline([first, *weak, lower, passing], thresholds)
    assert kept == [first, *weak, passing]  # the first four, then what passes


def test_every_source_an_answer_reads_by_default_is_kept_when_anything_passes():
    # the fourth choice of the reranker holds the call the reader asks for in other words
    # ("getFileInfo" for "which parser would Prettier pick, and is the file ignored?"): a
    # lower candidate that repeats more of the question's words must not take its place
    def ranked(name: str, text: float) -> Candidate:
        signals = {"text": text}
        return Candidate(id=name, score=1.0, dense_score=0.4, payload={}, signals=signals)

    firsts = [ranked("ignore files", 0.5), *(ranked(f"weak {n}", 0.05) for n in range(2))]
    get_file_info, wordy = ranked("getFileInfo", 0.1), ranked("wordy", 0.3)
    kept = grade_offline([*firsts, get_file_info, wordy], GradeThresholds())
    assert kept[: Context().top_k] == [*firsts, get_file_info]


def test_a_question_of_a_word_or_two_is_met_by_the_chunks_that_write_it():
    def chunk(name: str, text: str, dense: float) -> Candidate:
        signals = {"text": 1.0}
        return Candidate(
            id=name, score=1.0, dense_score=dense, payload={"text": text}, signals=signals
        )

    pipeline = chunk("pipeline", "1. **Wake word**: listen.\n4. **Proof control**: rest it.", 0.1)
    stem = chunk("stem", "Proofing baskets control the dough's shape.", 0.15)
    vocabulary = Vocabulary({t: 2 for t in terms("proof control wake word listen rest")}, 40)
    for question in ("proof control", "Explain proof control", "how does proof control work?"):
        assert naming_whole_topic(question, [stem, pipeline], vocabulary) == {"pipeline"}
    # three topic words, or a word the book never uses, are not one named thing
    assert not naming_whole_topic("proof control word", [pipeline], vocabulary)
    assert not naming_whole_topic("proof control gizmo", [pipeline], vocabulary)
    # far from the question in embedding space, the chunk that writes it is kept, alone
    named = naming_whole_topic("proof control", [stem, pipeline], vocabulary)
    assert grade_offline([stem, pipeline], GradeThresholds()) == []
    assert grade_offline([stem, pipeline], GradeThresholds(), named=named) == [pipeline]


def test_text_coverage_is_judged_over_the_words_the_book_uses():
    # "Why does my gripper crush paper cups?": "crush" and "cups" are the reader's words, the
    # book never uses them, so no section can cover them
    impedance = Candidate(
        id="impedance", score=1.0, dense_score=0.5, payload={}, signals={"text": 0.15}
    )
    assert grade_offline([impedance], GradeThresholds()) == []
    assert grade_offline([impedance], GradeThresholds(), known=0.6) == [impedance]


def test_a_follow_up_is_close_enough_when_it_is_as_the_reader_said_it():
    # "do i get to choose what it does? (supposed build module 1 capstone)" is far from the
    # section on the capstone's options; the follow-up with the question before it is not
    options = Candidate(
        id="options", score=1.0, dense_score=0.17, payload={}, signals={"text": 0.4}
    )
    assert grade_offline([options], GradeThresholds()) == []
    spoken = Candidate(**options, spoken_dense=0.45)
    assert grade_offline([spoken], GradeThresholds()) == [spoken]


def test_the_section_a_structural_question_asks_for_needs_no_embedding_closeness():
    def ranked(name: str, asked_section: float) -> Candidate:
        signals = {"text": 0.6, "asked_section": asked_section}
        return Candidate(id=name, score=1.0, dense_score=0.1, payload={}, signals=signals)

    whats_next, other = ranked("what's next", 1.0), ranked("other", 0.0)
    assert grade_offline([whats_next], GradeThresholds()) == [whats_next]
    assert grade_offline([other], GradeThresholds()) == []
    # below the reranker's first choices, too, it passes where the others do not
    firsts = [ranked(f"first {n}", 0.0) for n in range(GradeThresholds().kept_first)]
    assert grade_offline([*firsts, other, whats_next], GradeThresholds()) == [*firsts, whats_next]


def test_a_section_that_answers_the_asking_sentence_passes_whatever_the_scene_says():
    scene = "My humanoid keeps toppling sideways whenever the gravel path tilts."
    ask = "How do I tune the ankle damping?"
    section = "Ankle damping is tuned in the joint's dynamics block."
    vocabulary = Vocabulary({t: 1 for t in terms(f"{scene} {ask} {section}")}, 40)
    candidate = Candidate(
        id="ankle",
        score=1.0,
        dense_score=0.5,
        payload={"embedded_text": section},
        signals={"text": vocabulary.coverage(topic_terms(f"{scene} {ask}"), terms(section))},
    )
    thresholds = GradeThresholds(min_text_coverage=0.5)
    assert grade_offline([candidate], thresholds) == []  # the whole question: too diluted
    asked = ask_coverage(f"{scene} {ask}", [candidate], vocabulary)
    assert grade_offline([candidate], thresholds, asked) == [candidate]
    # one sentence, or a follow-up's appended topic, has no separate asking sentence
    assert ask_coverage(ask, [candidate], vocabulary) == {}
    assert ask_coverage(f"{ask} (ankle joint)", [candidate], vocabulary) == {}


def test_selection_answers_come_only_from_the_selection():
    selection = "Jitter hurts control loops. A 1 kHz loop leaves one millisecond per cycle."
    answer = answer_from_selection("How long is each cycle of a 1 kHz loop?", selection)
    assert answer in selection or all(part in selection for part in answer.split(". "))
    assert answer_from_selection("Who invented DDS?", selection) == NOT_IN_SELECTION


def test_question_sets_are_valid_and_large_enough():
    from agent.evaluation.metrics import load_questions

    questions = load_questions(REPO / "tests/data/humanoid_questions.jsonl")
    retrieval = [q for q in questions if q.is_retrieval_question]
    assert len(retrieval) >= 60
    assert sum(q.kind == "out_of_scope" for q in questions) >= 10


def test_a_question_about_this_lesson_takes_the_title_of_the_page_the_reader_is_on():
    question = "What should I take away from this lesson?"
    assert about_the_page(question, "Voice (to) Action") == f"{question} (Voice to Action)"
    assert appended_topic(about_the_page(question, "Voice to Action") or "")[1] == (
        "(Voice to Action)"
    )
    assert about_the_page("What is a ROS 2 node?", "Voice to Action") is None
    assert about_the_page(question, None) is None


def test_asking_what_an_abbreviation_stands_for_is_about_the_abbreviation():
    assert topic_terms("What does URDF stand for?") == terms("URDF")
    assert topic_terms("What is SDF short for?") == terms("SDF")
    assert terms("stand") <= topic_terms("How does the robot stand up after a fall?")
    said = select_excerpts(
        "What does PID stand for?",
        ["A **proportional-integral-derivative (PID)** loop corrects the error. PID is tuned."],
        ["Control Loops"],
    )
    assert said[0].text.startswith("A **proportional-integral-derivative (PID)**")


def test_a_readers_name_for_the_documentation_is_not_a_topic():
    # a book that calls itself a handbook never writes "course": as a topic word, it made the
    # question read as about something the book never covers
    assert topic_terms("Do I need a GPU for this course?") == terms("GPU")
    assert topic_terms("What does the tutorial say about reducers?") == terms("reducers")
    assert terms("docs") <= topic_terms("How do I serve the docs from the site root?")
    assert terms("course") <= topic_terms("How do I plan a course for the robot?")


def test_a_type_is_a_topic_unless_the_question_asks_what_kind_of_thing():
    # "types of robots" frames the question; "typed linting" and "action types" are its topic
    assert topic_terms("What types of robots walk on two legs?") == terms("robots walk two legs")
    assert topic_terms("What kind of file holds a world?") == terms("file holds world")
    assert terms("typed") <= topic_terms("How do I enable typed linting?")
    assert terms("types") <= topic_terms("How should action types be written?")


def test_an_import_is_a_topic_though_important_frames_a_question():
    # "important" and "import" share a stem: taken as framing, it dropped every import
    assert terms("import") <= topic_terms("An import of one name never gets wrapped. Why?")
    assert terms("imports") <= topic_terms("Can the root router load its imports lazily?")
    assert topic_terms("What is important about pure reducers?") == terms("pure reducers")
    assert topic_terms("Why does the importance of purity matter?") == terms("purity matter")


def test_making_sure_frames_a_question():
    # "sure" is in no book's vocabulary: as a topic word it made "…make sure the robot doesn't
    # do something dangerous…" read as off-book
    asked = "How do I make sure the robot doesn't do something dangerous after a voice command?"
    assert topic_terms(asked) == terms("robot dangerous voice command")
    assert terms("sure") <= topic_terms("My robot isn't sure what it sees: should it play safe?")


def test_the_setting_named_after_a_defined_thing_is_left_out_of_what_is_asked():
    assert without_setting("What is a TF tree in ROS 2?") == "What is a TF tree?"
    assert without_setting("What's LIPM in humanoid walking control?") == "What's LIPM?"
    # what a thing is "of" is the thing itself; any other question is left as it is
    assert without_setting("What is the center of mass?") == "What is the center of mass?"
    asked = "How do I remap a topic in ROS 2?"
    assert without_setting(asked) == asked


def test_an_irregular_form_shares_its_terms_with_the_base_form():
    # a stemmer joins "writes" and "write" but not "written": the heading would share no word
    assert terms("write") <= terms("How should action types be written?")
    assert terms("Which file was sent, and who spoke?") == terms("Which file send, who speak")
    assert terms("index children") == terms("indices child")
    # a hyphenated word keeps its form: "built-in support" is not about building
    assert not terms("build") & terms("built-in support")


def test_an_all_caps_names_plural_shares_its_terms_with_the_name():
    # the stemmer keeps "gpus" apart from "gpu": "Do I need two GPUs?" read as off-book
    assert terms("two GPUs and three LLMs") == terms("two GPU and three LLM")
    assert terms("IDs of the PRs") == terms("ID of the PR")
    assert terms("QoS profiles") != terms("Qo profiles")  # not all caps: a name of its own
    assert terms("ALWAYS") == terms("always")


def test_a_hyphened_prefix_is_also_read_as_one_word():
    # a reader's "rerenders" meets a book's "re-renders" (and its "nonblocking" the book's
    # "non-blocking"); the hyphened form keeps its own words too
    assert terms("rerenders") < terms("re-renders")
    assert terms("a nonblocking call") < terms("a non-blocking call")
    assert terms("re-renders") >= terms("re renders")
    assert terms("sim-to-real") == terms("sim to real")  # no prefix: as before


def test_a_name_with_its_version_written_on_is_also_read_as_the_name():
    # a reader's "ROS 2" meets a book's "ROS2", and "TF" the book's "tf2"
    assert terms("ROS") < terms("ROS2")
    assert terms("tf") < terms("tf2")
    assert terms("HTML") < terms("HTML5")
    assert not terms("App") <= terms("App2")  # a name in example code, not a version
    assert not terms("base") <= terms("base64")  # an encoding, not base's 64th version
    assert not terms("python") <= terms("python3.11")  # a whole version: as before


def test_how_many_and_how_much_frame_a_question_that_asks_for_an_amount():
    # "many" is in no sentence that answers, so as a topic word it would weigh the most and
    # leave every answering sentence looking weak
    assert answer_terms("How many joints does a humanoid have?") == terms("joints humanoid")
    assert answer_terms("How much memory does Gazebo need?") == terms("memory Gazebo")


@pytest.mark.parametrize(
    ("question", "sentence", "defining"),
    [
        ("What is a bakery station?", "A station is a bench that does one job.", True),
        ("What is a bakery station?", "A bakery is a chain of stations.", False),
        ("What's a proofer in bakery terms?", "The **proofer** is a warm cabinet.", True),
        ("How do I clean a station?", "A station is a bench that does one job.", False),
        ("What are stations?", "Every bakery keeps two spare stations in the back.", False),
        ("What's a bakery station, exactly?", "A station is a bench that does one job.", True),
        ("What does proofing actually mean?", "Proofing is the dough's last rise.", True),
        ("What is meant by a bench rest?", "A bench rest is a pause between shapings.", True),
        ("Bench rest - what is that?", "A bench rest is a pause between shapings.", True),
        ("Bench rest: what is it?", "A bench rest is a pause between shapings.", True),
        ("What is a proofer?", "- **Proofer**: a warm, humid cabinet.", True),
        ("What is a proofer?", "**Proofer (cabinet)** - a warm, humid cabinet.", True),
        ("What is a proofer?", "- **Oven**: where a proofed loaf goes.", False),
        ("What is a proofer?", "- **Proofer Problems**: dough dries out.", False),
        ("What is a proofing time?", "- **Proofing time** (PT): an hour or two.", True),
        ("Does the oven need a proofer?", "- **Proofer**: a warm, humid cabinet.", False),
        ("So the loaf failed, what is it?", "A loaf is bread baked whole.", False),
        ("What's the deal with bench rests?", "A bench rest is a pause.", True),
        ("What do people mean by a bench rest?", "A bench rest is a pause.", True),
        ("What is a banneton and how do I clean it?", "A banneton is a basket.", True),
        ("What is a banneton? Do I need one?", "A banneton is a basket.", True),
        # "that" points back at the reader's scene: not a term of the book
        ("My recipe says 'fold'. What does that word mean?", "A word is a unit.", False),
        ("what is a banneton? my recipe wants one", "A banneton is a basket.", True),
        # a possessive asks for a property of a thing named elsewhere
        ("What's its default proofer? (oven)", "The default proofer is `warm-box`.", False),
        ("What are your proofers?", "Our proofers are warm cabinets.", False),
        # a judgement asks for a value or a choice, not what a term means
        ("What's a good proofing time for rye?", "A proofing time is an hour.", False),
        ("What is the best flour for a banneton?", "A flour is ground grain.", False),
        # a hyphenated name is named by all its words, not by one of them
        ("What is sim-to-real?", "**NVIDIA Isaac Sim** is a simulator.", False),
        ("What is sim-to-real?", "Sim-to-real transfer is moving a policy to hardware.", True),
        ("What is a stand-mixer?", "- **Mixer**: a bowl with a beater.", False),
        ("What is a stand-mixer?", "- **Stand-mixer**: a bowl with a beater.", True),
        # a numbered list of steps defines each step by its bold label
        ("What is shaping?", "3. **Shaping**: form the dough into a loaf.", True),
        ("What is shaping?", "3) **Shaping** - form the dough into a loaf.", True),
        ("What is shaping?", "3. Form the dough; **shaping** takes a minute.", False),
        # the sentence is about the words before its narrowing phrase, after its opening one
        ("What is a proofer?", "Loaves in a proofer are covered with a cloth.", False),
        ("What is a proofer?", "Experience with a proofer helps but is not needed.", False),
        ("What is a proofer?", "In a bakery, a proofer is a warm cabinet.", True),
        ("What is a proofer?", "A proofer in a bakery is a warm cabinet.", True),
        ("What is a proofer?", "A **proofer**, in most bakeries, is a warm cabinet.", True),
        ("What is a proofer?", "Rye, in a proofer, is quick.", False),
        # nor is a one-word subject named by a hyphened word that holds it
        ("What is a mixer?", "A **stand-mixer tray** is a shelf under the bowl.", False),
        # a one-word predicate says how the thing is, not what it is
        ("What is a proofer?", "Proofers are expensive.", False),
        ("What is a proofer?", "The proofer is optional!", False),
        ("What is the default proofer?", "The default proofer is `warm-box`.", True),
        ("What is a proofer?", "A proofer is **cabinet-heated**.", True),
        ("What is a proofer?", "The proofer is now standard, and every bakery has one.", False),
        ("What is a proofer?", "The proofer is still optional.", False),
        ('What does "proofing" mean?', '**"Proofing"** means that:', True),
        ("What is a proofer?", "A proofer is warm, humid and closed: a cabinet.", False),
        # a clause that opens the sentence with a verb of its own is a condition
        ("What is a proofer?", "If a proofer is full, the dough waits on the bench.", False),
        ("What is a proofer?", "When the oven is hot, a proofer is a warm cabinet.", True),
        # two words linked by "to" are the compound a book writes with hyphens
        ("what does farm to table mean", "If the table is set, serve the farm loaf.", False),
        ("what does farm to table mean", "Tables are wooden benches for the loaves.", False),
        ("what does farm to table mean", "Farm-to-table baking is baking with local flour.", True),
        # a one-word subject at the front of a longer capitalised name is not what it names
        ("What is RBK?", "**RBK Query** is a caching tool.", False),
        ("What is Crumb?", "Crumb Toolkit is the standard way to bake.", False),
        ("What is RBK?", "[Rye Bread Kit](https://example.com) (RBK) is the standard kit.", True),
        ("What is rclpy?", "The `rclpy` library is the Python client library.", True),
        ("What is ROS?", "ROS 2 is a middleware.", True),
        ("What is NITROS?", "NITROS (NVIDIA Isaac Transport for ROS) is a feature.", True),
    ],
)
def test_a_definition_names_the_asked_thing_before_its_verb(question, sentence, defining):
    assert defines(sentence, defined_subject(question)) is defining


def test_a_readers_sentence_ends_at_a_question_mark_whatever_case_follows():
    """Readers type on in lower case; the book's own sentences need a capital (`e.g. x`)."""
    question = "whats a banneton? my recipe says to flour it. any tips"
    assert asking_sentences(question) == "whats a banneton?"
    assert asking_sentences("I bake daily. Why does it sink? no idea") == "Why does it sink?"


@pytest.mark.parametrize(
    "step",
    [
        "A lit wood-fired oven (covered in Module 2).",
        "A lit wood-fired oven, see [Firing the Oven](../firing.md).",
        "A lit wood-fired oven as built in Lesson 3.",
    ],
)
def test_a_prerequisite_pointing_to_another_part_of_the_book_is_taught_there(step):
    assert taught_elsewhere(step)


@pytest.mark.parametrize(
    "step",
    [
        "Install the OvenOS firmware 2.1 and calibrate the thermostat.",
        "Read the vendor's manual at [their site](https://example.com/oven).",
    ],
)
def test_a_prerequisite_step_the_book_leaves_to_the_reader_is_not_taught_elsewhere(step):
    assert not taught_elsewhere(step)


def test_a_reported_failure_names_what_goes_wrong():
    assert failing_subject("colcon build fails, what do I do?") == terms("colcon build")
    assert failing_subject("My node doesn't start after the update") == terms("node update")
    assert failing_subject("The bridge is not working.") == terms("bridge")
    assert not failing_subject("How do I build the workspace?")
    assert not failing_subject("What does `--fail-fast` do?")  # a flag's name, not a report
    assert speaks_of_trouble("A subscriber will not receive anything from it.")
    assert speaks_of_trouble("To fix this, source the setup script.")
    assert not speaks_of_trouble("Bake the loaves for forty minutes.")
    assert not failing_subject("How do I make the build fail if someone forgot the formatter?")
    assert not failing_subject("In CI I want the install to fail on an outdated lockfile.")
    scene = "Do I really have to set up Redis for four workers? Right now clients fail to connect."
    assert not failing_subject(scene)
    pasted = "Error: no parser could be inferred. Happens in my script"
    assert failing_subject(pasted) == topic_terms("parser inferred happens script")
    assert not failing_subject("What do I have to do to get the long string broken up?")
    assert failure_words("colcon build fails, what do I do?") == terms("fail")
    assert not failure_words("How do I build the workspace?")
    assert failing_subject("Is the plugin upgrade broken?") == terms("plugin upgrade")


def test_a_section_that_only_points_elsewhere_names_the_page_it_points_to():
    pointing = "See [Mocked types](MockFunctionAPI.md#jestmockedsource) chapter for documentation."
    assert signpost_link(pointing) == ("MockFunctionAPI.md", "jestmockedsource")
    assert signpost_link("### Usage\n\nA guide can be found [here](./typing.md).") == (
        "./typing.md",
        "",
    )
    assert signpost_link("See [Help](/help).") is None  # a route, not a page file
    assert signpost_link("Check out the [repo](https://example.com/r).") is None  # off-site
    teaches = "Use [`--check`](cli.md#check) in CI. It exits with 1. See [CI](ci.md) too."
    assert signpost_link(teaches) is None  # it says something itself
    assert signpost_link("The [store](store.md) holds the state.") is None  # points nowhere


def test_a_question_names_code_languages_by_name_or_by_a_files_extension():
    assert named_languages("Show me a .prettierrc in JSON") == {"json"}
    assert named_languages("Give me a lefthook.yml that runs on commit") == {"yaml"}
    assert named_languages("What goes in my babel.config.js?") == {"javascript"}
    assert named_languages("How do I bake sourdough?") == frozenset()
    assert block_language('```json title="oven.json"\n{}\n```') == "json"
    assert block_language("```tsx\nconst x = 1;\n```") == "typescript"
    assert block_language("```\nplain\n```") is None


@pytest.mark.parametrize(
    ("question", "thing"),
    [
        ("What is a proofer?", "proofer"),
        # what a thing does is what it is for...
        ("What does the proofing cabinet do?", "proofing cabinet"),
        ("What does a proofer actually do with the dough?", "proofer"),
        ("what does the proofer do and how do I clean it?", "proofer"),
        # ...but not what it does in a situation, nor what the reader should do
        ("What does the proofer do when it is full?", ""),
        ("What do I do now?", ""),
    ],
)
def test_a_question_asks_what_a_thing_is_or_what_it_does(question, thing):
    assert defined_thing(question) == thing


@pytest.mark.parametrize(
    ("sentence", "warns"),
    [
        ("Try to avoid opening the oven door during the first ten minutes.", True),
        ("Don’t knead rye dough for long.", True),
        ("However, never proof it overnight at room temperature.", True),
        ("Make sure not to salt the starter.", True),
        ("Never-ending orders keep the bakery busy.", False),
        ("Avoiding a sticky dough takes practice.", False),
        ("Bakers never open the door early.", False),
    ],
)
def test_a_sentence_that_tells_the_reader_not_to_do_something_warns_against_it(sentence, warns):
    assert warns_against(sentence) is warns


def test_a_sentence_naming_a_tool_in_bold_or_code_tells_what_it_does():
    subject = defined_subject("What does the oven timer do?")
    assert asks_what_it_does("What does the oven timer do?")
    assert not asks_what_it_does("What is the oven timer?")
    assert tells_what_it_does("The **`oven_timer`** node rings when the crust sets.", subject)
    assert not tells_what_it_does("Each timed loaf rests for an hour.", subject)
    assert not tells_what_it_does("The `oven_timer` is loud.", subject)  # says how it is


def test_a_definition_that_marks_its_term_introduces_it():
    subject = defined_subject("What is an oven timer?")
    assert introduces_term("An **oven timer** is a clock that rings when the crust sets.", subject)
    assert introduces_term("**Oven timer**: a clock that rings when the crust sets.", subject)
    assert not introduces_term("An oven timer is a clock that rings.", subject)  # unmarked
    assert not introduces_term("The **oven** is hot.", subject)  # another thing


def test_file_names_in_code_are_blanked_unless_asked():
    unit = "Run `ros2 launch bringup talk.launch.py` or edit `src/store.ts`; Node.js reads it."
    blanked = without_file_names(unit, frozenset())
    assert "talk" not in blanked and "Node.js" in blanked
    assert "src/store.ts" in blanked  # named alone: the prose speaks of that file
    assert "talk.launch.py" in without_file_names(unit, frozenset({"talk.launch.py"}))
    block = "```bash\nprettier --config .prettierrc.json src\n```"
    assert ".prettierrc.json" not in without_file_names(block, frozenset())
