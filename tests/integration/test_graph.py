"""Every path of the graph with no LLM: real embeddings, Qdrant local mode, the sample book."""

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END

from agent.context import Context
from agent.graph import answer_sources, builder, graph, query_graph, sure_of_best_source
from agent.inputs import InvalidTurnError
from agent.offline.extractive import NOT_IN_SELECTION, ONLY_A_PREREQUISITE, ONLY_TOUCHED
from agent.offline.text import terms
from agent.prompts import refusal
from agent.resources import Resources
from agent.retrieval.vocabulary import book_vocabulary
from tests.fakes import spied


async def ask(resources: Resources, question: str, history=(), context=None, **state):
    return await graph.ainvoke(
        {"messages": [*history, HumanMessage(question)], **state},
        config={"configurable": {"resources": resources}},
        context=context or Context(),
    )


async def test_in_scope_question_gets_a_cited_answer_from_the_right_section(book):
    result = await ask(book, "Which QoS policy makes DDS retransmit messages that were lost?")
    first = result["sources"][0]
    assert first["heading"] == "Quality of Service"
    assert first["url"].endswith("/docs/ros2/ros2-nodes-and-topics#qos")
    assert first["file_path"] == "01-ros2/01-nodes-and-topics.md"
    assert "[1]" in result["answer"] and "RELIABLE" in result["answer"]
    assert result["refusal_reason"] is None


async def test_answer_streams_tokens_then_exactly_one_sources_event(book):
    events = [
        event
        async for event in graph.astream(
            {"messages": [HumanMessage("What does robot_state_publisher publish?")]},
            config={"configurable": {"resources": book}},
            stream_mode="custom",
        )
    ]
    kinds = [event["event"] for event in events]
    assert kinds.count("sources") == 1 and kinds[-1] == "sources"
    assert kinds[:-1] and set(kinds[:-1]) == {"token"}
    assert events[-1]["sources"][0]["file_path"] == "02-simulation/01-urdf-robot-description.md"


@pytest.mark.parametrize(
    "question",
    [
        "How do I bake a sourdough bread at home?",
        "How does the Boston Dynamics Spot quadruped climb stairs?",
        "What payload can a KUKA KR 1000 titan industrial arm lift?",
        # tools the book uses, asked about a feature of theirs it never names
        "What does Whisper's temperature setting change?",
        "How do I turn on Cyclone DDS's shared memory transport?",
        # flags the book never spells out, though their words are the book's own
        "What does the --qos-reliability flag of ros2 topic echo do?",
        "What does ros2 launch --show-args print?",
    ],
)
async def test_off_book_questions_are_refused_without_citations(book, question):
    result = await ask(book, question)
    assert result["answer"].startswith(refusal("the book"))
    assert result["sources"] == [] and result["refusal_reason"] == "off_book"
    assert result["rewrite_count"] == 0  # refused at once: rewording cannot help


@pytest.mark.parametrize(
    ("question", "source", "said"),
    [
        # a typo of the book's word
        ("what is a lanch file?", {"heading": "Launch Files"}, "A **launch file** starts them"),
        # an initialism: the book writes "Visual SLAM" (and "cuVSLAM", one word), never "vslam"
        ("what is vslam?", {"heading": "Visual SLAM"}, "estimates where the robot is while"),
        # two words joined by a digit: the book writes "sim-to-real", never "sim2real"
        (
            "what is sim2real?",
            {"title": "Synthetic Data and Sim-to-Real Transfer"},
            "**Sim-to-real transfer** is moving a model",
        ),
    ],
)
async def test_a_word_typed_as_the_book_never_writes_it_is_read_as_the_book_does(
    book, question, source, said
):
    result = await ask(book, question)
    assert result["refusal_reason"] is None
    ((field, value),) = source.items()
    assert result["sources"][0][field] == value
    assert said in result["answer"]
    # read as typed, the word the book never uses is most of the question: off-book
    as_typed = await ask(book, question, context=Context(book_spelling=False))
    assert as_typed["refusal_reason"] == "off_book"


def test_the_vocabulary_knows_the_initials_of_the_names_the_book_writes(book):
    assert book_vocabulary(book.searcher.index).initialisms["vslam"] == "Visual SLAM"


async def test_a_contraction_typed_without_its_apostrophe_is_read_with_it(book):
    result = await ask(book, "whats a topic")
    assert result["refusal_reason"] is None
    assert "A **topic** is a named, typed channel" in result["answer"]
    # read as typed, "whats" is a word the book never uses and most of the question
    as_typed = await ask(book, "whats a topic", context=Context(book_spelling=False))
    assert as_typed["refusal_reason"] == "off_book"
    # the reader's "not" is read: a failure the quoted passages do not speak of is hedged
    failing = await ask(book, "my node doesnt start")
    assert failing["answer"].startswith(ONLY_TOUCHED)


async def test_a_thing_the_book_mentions_only_in_passing_gets_the_hedge(book):
    # the book never teaches walking; one sentence of the Visual SLAM lesson says "walking"
    result = await ask(book, "How do I make the robot walk?")
    assert result["answer"].startswith(ONLY_TOUCHED)


async def test_a_follow_up_answered_about_something_else_gets_the_hedge(book):
    # the book never says how to install Gazebo; the workspace section's `install/` folder
    # and `--symlink-install` share the follow-up's word, not its topic
    history = [HumanMessage("What is Gazebo?"), AIMessage("A robot simulator.")]
    result = await ask(book, "how do i install it?", history)
    assert result["answer"].startswith(ONLY_TOUCHED)
    assert "Gazebo" not in result["answer"]


async def test_a_follow_up_asking_only_what_the_book_never_says_is_refused(book):
    # "(domain randomization)" is appended to it, and the book teaches that; "dance" it never says
    history = [HumanMessage("What is domain randomization?"), AIMessage("Varying the sim.")]
    result = await ask(book, "how do I make it dance?", history)
    assert result["refusal_reason"] == "off_book"
    result = await ask(book, "and for control?", history)
    assert result["refusal_reason"] is None and "link masses" in result["answer"]


async def test_a_question_off_book_on_its_own_is_read_as_a_follow_up(book):
    # the book never writes "vary": alone, most of the question's weight is on it
    alone = await ask(book, "what should I vary for control?")
    assert alone["refusal_reason"] == "off_book"
    history = [HumanMessage("What is domain randomization?"), AIMessage("Varying the sim.")]
    result = await ask(book, "what should I vary for control?", history)
    assert result["standalone_question"].endswith("(domain randomization)")
    assert result["refusal_reason"] is None and "link masses" in result["answer"]


async def test_an_all_caps_names_plural_is_the_books_name(book):
    # the book writes "GPU"; "GPUs" stemmed as written was a name it never uses: off-book
    result = await ask(book, "Do I need two GPUs for Isaac Sim?")
    assert result["refusal_reason"] is None
    assert "an NVIDIA RTX GPU with at least 8 GB of memory" in result["answer"]


def test_the_vocabulary_knows_which_words_the_book_writes_as_names(book):
    vocabulary = book_vocabulary(book.searcher.index)
    assert vocabulary.names(terms("Bridge"))  # a heading: "Debugging the Bridge"
    assert vocabulary.knows(next(iter(terms("circle"))))
    assert not vocabulary.names(terms("Circle"))  # "drives in a circle": a word, never a name


def test_the_vocabulary_knows_how_the_book_spells_its_words(book):
    vocabulary = book_vocabulary(book.searcher.index)
    assert vocabulary.spellings["randomization"] >= 1  # words of five letters or more
    assert "ros2" not in vocabulary.spellings and "the" not in vocabulary.spellings
    assert vocabulary.written_as["launchdescription"] == "LaunchDescription"


def test_the_vocabulary_knows_a_word_the_book_writes_only_in_an_irregular_form(book):
    # the book writes "lost" ("retransmits lost messages"), never "lose": the question's terms
    # read "lost" as "lose", and so must the book's word counts, or it would be unknown
    vocabulary = book_vocabulary(book.searcher.index)
    (lost,) = terms("Why are messages lost?") - terms("Why are messages")
    assert vocabulary.knows(lost)


async def test_a_flag_the_book_spells_out_is_answered(book):
    result = await ask(book, "What does --ros-args do when I run a node?")
    assert result["refusal_reason"] is None
    assert "--ros-args" in result["answer"]


async def test_a_question_that_calls_the_book_a_course_is_answered(book):
    result = await ask(book, "Do I need a GPU for this course?")
    assert result["refusal_reason"] is None
    assert "Hardware Tiers" in [source["heading"] for source in result["sources"]]
    assert "NVIDIA RTX GPU" in result["answer"]


async def test_asked_what_a_name_is_the_book_only_mentions_it_is_refused(book):
    # the voice lesson names BehaviorTree.CPP once, as an example, and never says what it is
    mentioned = await ask(book, "What's BehaviorTree.CPP?")
    assert mentioned["refusal_reason"] is not None
    # DDS too appears in few sections, but one introduces it: "built on **DDS** (…), an…"
    introduced = await ask(book, "What is DDS?")
    assert introduced["refusal_reason"] is None
    assert "middleware standard" in introduced["answer"]
    # of a thing in two words, the "Xacro" section says what one is and writes the other;
    # the Isaac Sim lesson's title names Isaac Sim, and it writes "extension" once in passing
    macros = await ask(book, "What are xacro macros?")
    assert macros["refusal_reason"] is None
    assert "**Xacro** is an XML macro language" in macros["answer"]
    assert (await ask(book, "What are Isaac Sim extensions?"))["refusal_reason"] is not None


async def test_a_refusal_names_the_documentation_as_the_deployment_does(book):
    settings = book.settings.model_copy(update={"docs_name": "the Kettle Handbook"})
    docs = Resources(settings, book.searcher, None)
    result = await ask(docs, "How do I bake a sourdough bread at home?")
    assert result["answer"].startswith("This isn't covered in the Kettle Handbook, so I can't")
    assert "the book" not in result["answer"]


async def test_without_the_reranker_the_offline_grader_still_finds_the_section(book):
    question = "Which QoS policy makes DDS retransmit messages that were lost?"
    result = await ask(book, question, context=Context(reranker="none"))
    assert result["sources"][0]["heading"] == "Quality of Service"
    assert "signals" not in result["candidates"][0]  # nothing was reranked


async def test_grading_thresholds_are_read_from_the_context_even_as_json(book):
    question = "Which QoS policy makes DDS retransmit messages that were lost?"
    result = await ask(book, question, context={"min_dense": 1.01})  # no chunk is that close
    assert result["refusal_reason"] == "not_found" and result["sources"] == []


def test_the_query_graph_is_the_graphs_query_side():
    full = {(e.source, e.target) for e in graph.get_graph().edges}
    query = {(e.source, e.target) for e in query_graph.get_graph().edges}
    assert query - {("rerank", END)} <= full
    assert ("rerank", END) in query and ("rerank", "grade") in full


async def test_nothing_relevant_is_reworded_once_then_refused(book):
    result = await ask(
        book, "What does nvblox produce from depth images?", filters={"module": "ros2"}
    )
    assert result["answer"].startswith(refusal("the book"))
    assert result["refusal_reason"] == "not_found" and result["rewrite_count"] == 1
    assert result["sources"] == []


async def test_highlight_answers_only_from_the_selection_and_never_searches(book):
    resources, searcher, embeddings = spied(book)
    selection = (
        "Jitter matters more than average latency in a control loop. "
        "A loop at 1 kHz leaves one millisecond per cycle. "
        "Nav2 plans paths for mobile robots."
    )
    result = await ask(resources, "How much time per cycle does a 1 kHz loop leave?",
                       selected_text=selection)  # fmt: skip
    assert searcher.searches == 0 and embeddings.calls == 0
    assert "one millisecond per cycle" in result["answer"]
    assert all(sentence.strip() in selection for sentence in result["answer"].split(". "))
    assert result["source_context"] == selection and result["sources"] == []


async def test_highlight_that_does_not_answer_says_so(book):
    result = await ask(book, "Which DDS vendor is the default?", selected_text="Gazebo uses SDF.")
    assert result["answer"] == NOT_IN_SELECTION


async def test_follow_up_is_condensed_with_the_conversation(book):
    history = [
        HumanMessage("What is URDF used for?"),
        AIMessage("It describes a robot's links and joints."),
    ]
    result = await ask(book, "Which joint types does it support?", history)
    assert "URDF" in result["standalone_question"]
    assert result["sources"][0]["file_path"] == "02-simulation/01-urdf-robot-description.md"
    assert "prismatic" in result["answer"]


async def test_a_follow_up_is_also_searched_by_its_topic_words_alone(book):
    resources, searcher, _ = spied(book)
    history = [HumanMessage("What is URDF used for?"), AIMessage("It describes robots.")]
    result = await ask(resources, "Which joint types does it support?", history)
    assert result["standalone_question"] == "Which joint types does it support? (URDF)"
    assert "joint types support URDF" in searcher.texts
    searcher.texts.clear()
    await ask(resources, "Which joint types does URDF support?")  # not a follow-up
    assert "joint types support URDF" not in searcher.texts


async def test_a_question_nothing_answers_alone_is_read_again_as_a_follow_up(book):
    # no pronoun says it leans on the turn before, so it is first read on its own ("size",
    # "Jetson"), which no section answers; the rewrite reads it as a follow-up of Whisper
    history = [HumanMessage("What is Whisper?"), AIMessage("OpenAI's speech recognition model.")]
    result = await ask(book, "Which size should I use on a Jetson?", history)
    assert result["standalone_question"] == "Which size should I use on a Jetson? (Whisper)"
    assert result["rewrite_count"] == 1
    assert "the small and base models run in real time on a Jetson" in result["answer"]
    alone = await ask(book, "Which size should I use on a Jetson?")
    assert alone["refusal_reason"] == "not_found"


async def test_a_long_question_is_answered_from_half_as_many_sources_again(book):
    short = "How do ROS 2 nodes talk to each other?"
    long = (
        "My simulated robot publishes lidar scans from Gazebo, and a node started in another "
        "terminal subscribes with matching topic names, yet its callback never fires. Which "
        "QoS settings, launch files or parameters should I check?"
    )
    context = Context(top_k=2)
    assert answer_sources(short, context) == 2 and answer_sources(long, context) == 3
    assert answer_sources(long, Context(top_k=1)) == 1  # a cap of one stays one
    assert len((await ask(book, short, context=context))["documents"]) == 2
    assert len((await ask(book, long, context=context))["documents"]) == 3


async def test_filters_restrict_the_sources(book):
    result = await ask(
        book, "What does the simulator publish to ROS 2?", filters={"module": "isaac"}
    )
    assert result["sources"]
    assert all(s["file_path"].startswith("03-isaac/") for s in result["sources"])


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ({"messages": [HumanMessage("")]}, "empty"),
        ({"messages": [HumanMessage("   \n ")]}, "empty"),
        ({"messages": [HumanMessage("x" * 50_000)]}, "limit is 4,000"),
        (
            {
                "messages": [
                    HumanMessage(""),
                ],
                "selected_text": "Some text.",
            },
            "empty",
        ),
        ({"messages": [HumanMessage("ok?")], "filters": {"hardware_tier": 9}}, "hardware_tier"),
        ({"messages": [HumanMessage("ok?")], "filters": {"colour": "red"}}, "colour"),
        ({"messages": [AIMessage("hello")]}, "human message"),
    ],
)
async def test_bad_turns_are_clear_errors(book, state, message):
    with pytest.raises(InvalidTurnError, match=message):
        await graph.ainvoke(state, config={"configurable": {"resources": book}})


async def test_a_checkpointed_thread_is_multi_turn_and_resets_working_fields(book):
    threaded = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"resources": book, "thread_id": "t1"}}
    first = await threaded.ainvoke({"messages": [HumanMessage("What is URDF?")]}, config)
    second = await threaded.ainvoke(
        {"messages": [HumanMessage("Which joint types does it have?")]}, config
    )
    assert len(second["messages"]) == 4
    assert "URDF" in second["standalone_question"]
    assert second["sources"] != [] and second["sources"] is not first["sources"]
    assert second["rewrite_count"] == 0


@pytest.mark.parametrize("read", [0, 3])
async def test_the_cross_encoder_reads_as_many_first_candidates_as_the_deployment_sets(book, read):
    settings = book.settings.model_copy(update={"cross_encoder_candidates": read})
    resources = Resources(settings, book.searcher, book.chat_model)
    state = await query_graph.ainvoke(
        {"messages": [HumanMessage("How do I start several nodes at once?")]},
        config={"configurable": {"resources": resources}},
        context=Context(),
    )
    read_by_it = [c for c in state["candidates"] if "cross" in c["signals"]]
    assert len(read_by_it) <= read
    assert bool(read_by_it) == bool(read)


async def test_a_lessons_objectives_do_not_outrank_the_section_that_teaches_it(book):
    # the objectives restate "Start several nodes with one Python launch file": a cross-encoder
    # reads that as an answer, the signals read it as a recap
    result = await ask(book, "How do I start several nodes at once?")
    assert result["sources"][0]["heading"] == "Launch Files"


async def test_a_comparison_is_answered_from_the_sections_that_teach_it_not_the_objectives(book):
    # "Decide between a topic, a service and an action" holds every word of the question; the
    # cross-encoder reads the teaching sections as poor answers, which must not lift the
    # objectives above them
    result = await ask(book, "What's the difference between a topic and a service?")
    headings = [source["heading"] for source in result["sources"]]
    assert headings[0] != "Learning Objectives"
    assert "Three Ways to Communicate" in [
        d["payload"]["heading_path"][-1] for d in result["documents"]
    ]


async def test_each_side_of_a_comparison_is_said_where_its_lesson_says_what_it_is(book):
    # no heading names URDF: its lesson's "Links and Joints" says what it is, after "Worlds in
    # SDF" has named it in passing ("Unlike URDF, SDF can describe a whole scene")
    result = await ask(book, "What's the difference between URDF and SDF?")
    headings = [source["heading"] for source in result["sources"]]
    assert "Worlds in SDF" in headings and "Links and Joints" in headings
    assert "**Unified Robot Description Format (URDF)** is an XML format" in result["answer"]


async def test_a_comparison_table_is_not_followed_by_another_lessons_prerequisites(book):
    # the bridge lesson's title names Gazebo, but its prerequisites only say what to have
    # running first ("A running Gazebo world with a spawned robot, from the previous lesson.")
    result = await ask(book, "What's the difference between Gazebo and Isaac Sim?")
    assert "| Physics | DART, Bullet (CPU) | PhysX (GPU) |" in result["answer"]
    assert "from the previous lesson" not in result["answer"]


async def test_a_lesson_named_after_both_sides_answers_from_its_first_teaching_section(book):
    # "Connecting Gazebo and ROS 2" names both; its prerequisites name only Gazebo, and Isaac
    # ROS's "GPU-Accelerated ROS 2" only ROS 2
    result = await ask(book, "how do gazebo and ros 2 work together?")
    assert result["sources"][0]["heading"] == "Two Transport Layers"
    assert "The **`ros_gz_bridge`** package translates between the two." in result["answer"]
    result = await ask(book, "service vs action?")  # "Services and Actions"
    assert result["sources"][0]["heading"] == "Three Ways to Communicate"
    assert "| Service | one request, one response |" in result["answer"]


async def test_a_step_defined_by_its_bold_label_in_a_numbered_list_is_answered(book):
    # "4. **Grounding**: resolve…" in the voice pipeline's six steps is the book's one
    # definition of grounding; the list's chunk is far from the question in embedding space
    result = await ask(book, "what is grounding?")
    assert result["refusal_reason"] is None
    assert not result["answer"].startswith(ONLY_TOUCHED)
    assert 'resolve "the red cup" to an object the perception system' in result["answer"]


async def test_a_bare_term_the_book_writes_in_passing_is_answered_where_it_is_written(book):
    # the Visual SLAM section's one sentence on loop closure; Replicator's "ground-truth"
    # shares the stem of "grounding" and must not answer it
    result = await ask(book, "loop closure")
    assert result["refusal_reason"] is None
    assert "loop closure, recognising a place seen before, corrects the drift" in result["answer"]
    result = await ask(book, "how does grounding work")
    assert 'resolve "the red cup" to an object' in result["answer"]
    assert "ground-truth" not in result["answer"]


async def test_a_hyphenated_name_is_not_defined_by_a_sentence_naming_one_of_its_words(book):
    # "**NVIDIA Isaac Sim** is a robotics simulator…" does not say what sim-to-real is
    result = await ask(book, "what is sim-to-real?")
    assert result["sources"][0]["title"] == "Synthetic Data and Sim-to-Real Transfer"
    assert result["sources"][0]["heading"] != "Generating Synthetic Data with Replicator"


async def test_what_a_lesson_s_subject_needs_is_answered_from_its_prerequisites(book):
    # the Isaac Sim lesson's prerequisites name the GPU it needs; a structural section is
    # otherwise held back as restating what other sections teach
    history = [HumanMessage("What is Isaac Sim?"), AIMessage("A robotics simulator.")]
    result = await ask(book, "does it need a GPU?", history)
    assert result["sources"][0]["heading"] == "Prerequisites"
    assert result["answer"].startswith("You need tier 2 hardware: an NVIDIA RTX GPU")


async def test_a_command_line_how_to_is_answered_with_the_command_not_the_program(book):
    # the Services section's Python client comes first in its text; the terminal command after it
    result = await ask(book, "How do I call a service from the command line?")
    assert "`ros2 service call /add_two_ints" in result["answer"]
    assert "class AdderClient" not in result["answer"]


async def test_a_reported_failure_the_book_only_teaches_around_is_answered_with_the_hedge(book):
    # the book says how to build a workspace, not why a build fails
    failing = await ask(book, "colcon build fails, what do I do?")
    assert failing["answer"].startswith(ONLY_TOUCHED)
    assert "colcon build --symlink-install" in failing["answer"]
    assert "use_sim_time" not in failing["answer"]  # "…makes TF lookups fail" shares only "fail"
    building = await ask(book, "How do I build my workspace with colcon?")
    assert not building["answer"].startswith(ONLY_TOUCHED)
    # a failure the book does speak of: "When data does not arrive, check in this order…"
    bridge = await ask(book, "The Gazebo bridge is not working, what do I check?")
    assert not bridge["answer"].startswith(ONLY_TOUCHED)


async def test_another_lessons_prerequisites_add_nothing_to_an_answer(book):
    # the Launch Files lesson's prerequisites ("You should have written the talker and
    # listener of Nodes and Topics…") share the question's words but answer nothing
    result = await ask(book, "How do I see what topics are running?")
    assert "ros2 topic list" in result["answer"]
    assert "Prerequisites" not in [source["heading"] for source in result["sources"]]
    assert "You should have written" not in result["answer"]


async def test_a_prerequisite_taught_in_the_previous_lesson_is_answered_from_that_lesson(book):
    # the bridge lesson's prerequisites ("A running Gazebo world with a spawned robot, from
    # the previous lesson") hold every word of the question, but the book does teach it
    result = await ask(book, "how do I spawn my robot in gazebo?")
    assert ONLY_A_PREREQUISITE not in result["answer"]
    assert "ros_gz_sim create" in result["answer"]


async def test_a_prerequisite_another_section_of_the_lesson_teaches_is_answered_from_it(book):
    # the safety lesson's prerequisites ask for "a real humanoid or robot arm with an emergency
    # stop"; its "Layers of Safety" says what the emergency stop does
    result = await ask(book, "how do I stop the robot in an emergency?")
    assert ONLY_A_PREREQUISITE not in result["answer"]
    assert "an emergency stop that cuts motor power" in result["answer"]
    assert (await ask(book, "How do I install ROS 2?"))["answer"].startswith(ONLY_A_PREREQUISITE)


async def test_a_lessons_keywords_name_what_its_sections_teach(book):
    # the sample book writes "LLM" in three chunks, none of them the one that answers; the
    # voice lesson is keyed "llm planner" and its validation section says "language model"
    result = await ask(book, "how do I stop the robot if the LLM says something dangerous?")
    assert not result.get("refusal_reason")
    assert "Never execute a plan straight from a language model" in result["answer"]


def test_the_reranker_is_sure_of_a_best_source_read_as_answering_or_far_ahead():
    def state(best: dict, second: dict) -> dict:
        return {"documents": [best, second], "candidates": [best, second]}

    def candidate(chunk_id: str, score: float, **signals: float) -> dict:
        return {"id": chunk_id, "rerank_score": score, "signals": signals}

    read = state(candidate("a", 1.0, cross=2.1), candidate("b", 0.9, cross=1.0))
    assert sure_of_best_source(read)
    far_ahead = state(candidate("a", 2.0), candidate("b", 1.2))  # too far ahead to be read
    assert sure_of_best_source(far_ahead)
    assert not sure_of_best_source(state(candidate("a", 1.0, cross=-3.0), candidate("b", 0.8)))
    assert not sure_of_best_source({"documents": [], "candidates": []})


async def test_the_contexts_weights_decide_the_rerankers_order(book):
    # weights fitted elsewhere (bench.quality's held-out rows) reach the reranker through the
    # context: with every signal but `dense` weighed 0, candidates follow their cosine
    only_dense = {name: 0.0 for name in Context().ranking_weights().__dataclass_fields__}
    only_dense["dense"] = 1.0
    state = await query_graph.ainvoke(
        {"messages": [HumanMessage("How do I start several nodes at once?")]},
        config={"configurable": {"resources": book}},
        context=Context(rerank_weights=only_dense, cross_weight=0.0),
    )
    candidates = state["candidates"]
    cosines = [c["dense_score"] for c in candidates]
    assert [c["rerank_score"] for c in candidates] == pytest.approx(cosines)
    assert cosines[0] == max(cosines)
    assert all("cross" not in c["signals"] for c in candidates)


def test_a_context_replaces_only_the_weights_it_names():
    weights = Context(rerank_weights={"code": 0.5}).ranking_weights()
    assert weights.code == 0.5 and weights.dense == Context().ranking_weights().dense
    with pytest.raises(ValueError, match="no signal of the reranker: no such signal"):
        Context(rerank_weights={"no such signal": 1.0})


async def test_a_reader_asking_where_to_start_is_pointed_at_the_first_lesson(book):
    result = await ask(book, "Where should I start?")
    assert result["refusal_reason"] is None
    assert "start with Module 1" in result["answer"]
    assert result["sources"][0]["heading"] == "Where to Start"


async def test_asked_what_a_thing_is_the_answer_opens_with_the_sentence_that_says_it(book):
    """The section on VLAs' limits outranks the one that defines a VLA model."""
    result = await ask(book, "What is a VLA?")
    assert result["answer"].startswith("A **vision-language-action (VLA) model** is a robot policy")
    assert "VLAs are young." not in result["answer"].split("\n\n")[0]


async def test_sim_to_real_asked_without_hyphens_is_the_compound_the_book_defines(book):
    """Not "real", defined by the condition "If real images are available…"."""
    result = await ask(book, "what does sim to real mean")
    assert result["answer"].startswith("**Sim-to-real transfer** is moving a model")


async def test_a_follow_ups_earlier_topic_word_alone_brings_no_other_source(book):
    """The word "file" of "(SDF file)" does not bring the launch-file lesson into an SDF answer."""
    history = [HumanMessage("what's an SDF file"), AIMessage("Gazebo describes worlds in SDF.")]
    result = await ask(book, "how is it different from URDF?", history)
    assert "Unlike URDF, SDF can describe a whole scene" in result["answer"]
    assert "launch file" not in result["answer"]


async def test_a_question_only_in_the_books_everyday_words_says_it_is_not_answered_directly(book):
    """Only "robot" names anything, and the cross-encoder does not read the VLA section as
    answering: the answer says so before the closest passages."""
    result = await ask(book, "How does the robot know where it is?")
    assert result["answer"].startswith("This does not seem to be answered directly")


async def test_a_reader_asking_how_to_drive_forward_is_told_which_velocity_to_set(book):
    """The sample book says what a `Twist`'s fields mean, in the words a new reader uses."""
    result = await ask(book, "how do I make my robot move forward?")
    assert not result.get("refusal_reason")
    assert result["sources"][0]["heading"] == "Driving the Robot"
    assert "`linear.x` is the forward speed" in result["answer"]


async def test_a_reader_asking_what_a_tool_does_is_told_what_it_does(book):
    """ "What does X do?" asks for what X is for: the answer opens on the sentence that says
    it, not on the section that debugs X."""
    result = await ask(book, "what does the ros gazebo bridge do?")
    assert result["sources"][0]["heading"] == "Two Transport Layers"
    assert "package translates between the two" in result["answer"]


async def test_a_reader_whose_subscriber_receives_nothing_is_told_when_that_happens(book):
    """The QoS section says when a subscriber receives nothing; it opens the answer, before the
    lesson's program that shows a subscriber working."""
    result = await ask(book, "why is my subscriber not receiving messages?")
    assert result["sources"][0]["heading"] == "Quality of Service"
    assert result["answer"].startswith("Every publisher and subscriber has a **Quality of")


async def test_a_reader_asking_what_a_node_is_is_not_told_of_another_sections_nodes(book):
    """ "GPU-Accelerated ROS 2" names ROS 2, not a node: its NITROS sentence about nodes does
    not close the answer that the Nodes and Topics lesson gives."""
    result = await ask(book, "what is a ros 2 node?")
    assert "A node is a process" in result["answer"]
    assert "NITROS" not in result["answer"]


async def test_a_reader_asking_what_a_mismatch_does_is_given_the_tips_body(book):
    """The QoS section's tip is titled "Match QoS on both ends"; its body says what a mismatch
    does, and comes with the title."""
    history = [
        HumanMessage("how does qos work?"),
        AIMessage("Every publisher and subscriber has a QoS profile."),
    ]
    result = await ask(book, "what happens if they don't match?", history)
    assert "Tip: Match QoS on both ends." in result["answer"]
    assert "will not receive anything from a `BEST_EFFORT` publisher" in result["answer"]


async def test_a_sentence_announcing_several_sources_brings_them(book):
    """ "The gap has several sources." cannot end the answer: the sources follow it."""
    result = await ask(book, "what is the reality gap?")
    for source in ("*Visual* differences", "*Physical* differences", "*Timing* differences"):
        assert source in result["answer"]


async def test_a_new_reader_asking_what_to_read_first_is_pointed_to_where_to_start(book):
    """A question about the reader's course shares no topic with the section that answers it,
    so it is found by the section's kind, as "what comes next?" finds "Next Steps"."""
    for question in ("what should I read first?", "I'm new to robotics, where should I begin?"):
        result = await ask(book, question)
        assert not result.get("refusal_reason"), question
        assert result["sources"][0]["heading"] == "Where to Start", question
        assert "start with Module 1" in result["answer"], question


async def test_a_term_the_book_introduces_is_said_without_the_sentences_about_its_field(book):
    """Every section of a ROS 2 book names ROS 2: "A ROS 2 system is a graph of nodes" shares
    more of the question's words than the sentence that says what a topic is."""
    result = await ask(book, "what is a ROS 2 topic?")
    assert "A **topic** is a named, typed channel" in result["answer"]
    assert "graph of **nodes**" not in result["answer"]


async def test_a_reader_asking_how_to_make_sure_of_safety_is_answered(book):
    """ "sure" is no topic: the question is about voice commands and danger, which the book's
    safety sections answer (the voice lesson's validation step, or the layers of safety that
    name it: the two tie within the cross-encoder's int8 rounding, which differs by CPU)."""
    result = await ask(
        book,
        "how do I make sure the robot doesn't do something dangerous when given a voice command?",
    )
    assert not result.get("refusal_reason")
    headings = {source["heading"] for source in result["sources"]}
    assert headings & {"Validating Before Acting", "Layers of Safety"}


async def test_a_reader_asking_what_a_thing_is_in_ros_2_is_told_what_it_is(book):
    """Every section of the book is about ROS 2: the words of "in ROS 2" bring neither the
    launch file's program nor Isaac ROS's packages into the answer."""
    result = await ask(book, "what's a namespace in ros 2?")
    assert "A **namespace** prefixes every name of a node" in result["answer"]
    assert "generate_launch_description" not in result["answer"]
    assert "Isaac ROS" not in result["answer"]


async def test_a_follow_up_asking_how_it_differs_compares_both_sides(book):
    """ "How is it different from an action?" after services compares services and actions:
    the section that sets the three side by side is read, not only the one on actions."""
    history = [
        HumanMessage("what is a service?"),
        AIMessage("A service is defined by a pair of message types."),
    ]
    result = await ask(book, "how is it different from an action?", history)
    assert "Three Ways to Communicate" in [source["heading"] for source in result["sources"]]
    assert "| Service | one request, one response |" in result["answer"]


async def test_a_name_asked_without_its_version_is_the_versioned_name_the_book_explains(book):
    """ "TF" is the sample book's **tf2**, whose section says what it tracks and publishes."""
    result = await ask(book, "what is TF?")
    assert not result.get("refusal_reason")
    assert result["sources"][0]["heading"] == "Publishing the Transform Tree"
    assert result["answer"].startswith("ROS 2 tracks the pose of every frame with **tf2**.")


async def test_a_follow_up_is_also_searched_as_the_reader_said_it(book):
    """Beside the condensed form's keywords, the reader's own two sentences: each candidate
    carries their cosine, which the grader's embedding floor also accepts."""
    config = {"configurable": {"resources": book}}
    history = [HumanMessage("what does a launch file do?"), AIMessage("It starts nodes together.")]
    messages = [*history, HumanMessage("can I give each one its own settings?")]
    state = await query_graph.ainvoke({"messages": messages}, config=config, context=Context())
    assert state["standalone_question"] != "can I give each one its own settings?"
    spoken = "can I give each one its own settings? what does a launch file do?"
    cosines = {hit.id: hit.dense_score for hit in book.searcher.search(spoken, k=60)}
    read = [c for c in state["candidates"] if c["id"] in cosines]
    assert read and all(c["spoken_dense"] == pytest.approx(cosines[c["id"]]) for c in read)
    alone = await query_graph.ainvoke(
        {"messages": [HumanMessage("what does a launch file do?")]}, config=config
    )
    assert not any("spoken_dense" in c for c in alone["candidates"])
