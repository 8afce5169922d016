"""Offline answers keep what a sentence needs to be read and leave out what does not answer."""

from agent.offline.cohesion import leans_back
from agent.offline.extractive import (
    ONLY_A_PREREQUISITE,
    ONLY_TOUCHED,
    Excerpt,
    compose,
    select_excerpts,
    states_requirements,
)
from agent.offline.text import parse_units, terms


def answer(
    question: str,
    texts: list[str],
    headings: list[str] | None = None,
    everyday: frozenset[int] = frozenset(),
    structural: frozenset[int] = frozenset(),
) -> str:
    excerpts = select_excerpts(question, texts, headings or [""] * len(texts), everyday, structural)
    numbers = {document: n for n, document in enumerate(sorted({e.document for e in excerpts}), 1)}
    return "".join(compose(excerpts, numbers))


def test_a_sentence_that_points_back_keeps_the_sentence_it_points_to():
    text = (
        "A bakery bakes forty loaves before dawn. A **proofing cabinet** holds them at a warm, "
        "steady humidity while the dough rises. Flour is sold in sacks of twenty kilograms."
    )
    said = answer("How does a proofing cabinet work?", [text], ["Proofing"])
    assert said.index("A bakery bakes forty loaves") < said.index("A **proofing cabinet**")
    assert "sacks of twenty" not in said


def test_pronouns_and_connectives_make_a_sentence_lean_back():
    assert leans_back("It keeps the dough warm.")
    assert leans_back("However, rye needs less time.")
    assert leans_back("A cabinet holds them at a steady heat.")
    assert leans_back("A timer is the usual tool for that.")
    assert leans_back("In other words, the crumb sets as it cools.")
    assert leans_back("A proofing schedule translates between the two.")
    assert leans_back("Another way is to bake the rye at night.")
    assert leans_back("To do so, open the cabinet door.")
    assert leans_back("In order to do this you can lower the heat.")
    assert not leans_back("A proofing cabinet keeps dough warm.")
    assert not leans_back("With the oven hot, we can now bake the loaves like this:")


def test_an_aside_in_parentheses_leans_back_to_what_it_notes():
    assert leans_back("(Error handling should be added.)")
    assert not leans_back("Use the (new) timer for rye.")
    text = "```python\n" + "".join(f"bake(tray={n})\n" for n in range(12)) + "```\n\n"
    said = answer("How do I bake every tray?", [text + "(Cooling is left out.)"])
    assert said.index("bake(tray=11)") < said.index("(Cooling is left out.)")


def test_a_sentence_that_names_what_came_above_leans_back_to_it():
    assert leans_back("The above example proofs in an hour.")
    assert leans_back("Run the recipe shown above twice.")
    assert not leans_back("Everything above the deck stays cool.")
    assert not leans_back("Loaves above 2 kg need longer.")
    text = (
        "Rye dough is sticky and needs wet hands.\n\n"
        "```text\nmix 500 g rye flour, 400 g water\nrest 30 minutes, proof 1 hour\n```\n\n"
        "The recipe above proofs quickly, because rye ferments fast in a warm proofer."
    )
    said = answer("why does rye proof quickly in a warm proofer", [text])
    assert said.index("mix 500 g rye flour") < said.index("The recipe above proofs quickly")


def test_a_question_the_book_asks_brings_the_sentence_that_answers_it():
    text = (
        "Ovens differ in how fast they heat. "
        "How long should a rye loaf proof, and where? "
        "There is no single time, but the dough tells you. "
        "Proof rye in a warm proofer until the surface cracks."
    )
    said = answer("how long should rye proof in a warm proofer", [text])
    assert "How long should a rye loaf proof, and where? [1] There is no single time" in said
    # a quiz's question, a paragraph of its own, does not bring its options
    quiz = (
        "Which oven proofs rye in a warm proofer fastest?\n\n"
        "A) Deck oven B) Rack oven C) Wood-fired oven"
    )
    assert "Rack oven" not in answer("which oven proofs rye in a warm proofer", [quiz])


def test_a_sentence_that_says_it_comes_next_leans_back():
    assert leans_back("The baker will then score that loaf with a lame.")
    assert not leans_back("If the crust browns, then lower the heat.")
    assert not leans_back("A lame is a razor for scoring.")


def test_the_sentence_a_then_follows_is_quoted_with_it():
    text = (
        "You can give the proofing cabinet a humidity tray. "
        "The cabinet will then keep that moisture around every loaf. "
        "A lame is a razor for scoring."
    )
    said = answer("How do I keep moisture around every loaf?", [text], ["Proofing"])
    assert said.index("humidity tray") < said.index("keep that moisture")


def test_a_numbered_list_is_kept_whole_when_one_step_answers():
    text = (
        "Shaping a loaf takes four steps:\n\n"
        "1. Flatten the dough into a rectangle.\n"
        "2. Fold the top third down.\n"
        "3. Roll the dough tightly into a log and seal the seam.\n"
        "4. Rest it seam side down.\n\n"
        "A lame is a razor for scoring."
    )
    said = answer("How do I roll and seal the loaf?", [text], ["Shaping"])
    steps = [said.index(f"{n}. ") for n in range(1, 5)]
    assert steps == sorted(steps)
    assert "Shaping a loaf takes four steps:" in said
    assert "razor" not in said


def test_list_items_with_continuation_lines_stay_one_unit_of_one_list():
    units = parse_units("Steps:\n\n1. Mix\n   the flour\n2. Knead\n\nAfter the list.")
    assert [u.text for u in units] == ["Steps:", "1. Mix the flour", "2. Knead", "After the list."]
    assert units[1].group == units[2].group != units[3].group
    assert units[1].ordered and not units[3].ordered


def test_a_sentence_from_another_section_that_only_shares_names_is_left_out():
    table = (
        "Rye and spelt differ in the field and in the bowl:\n\n"
        "| | Rye | Spelt |\n| --- | --- | --- |\n| Gluten | weak | fragile |\n"
        "| Water | much | little |"
    )
    aside = "Weigh every ingredient when you bake with rye or spelt."
    said = answer(
        "What's the difference between rye and spelt?", [table, aside], ["Grains", "Scales"]
    )
    assert "| Gluten | weak | fragile |" in said
    assert "Weigh every ingredient" not in said


def test_rows_of_a_long_table_that_answer_are_carried():
    rows = "\n".join(f"| grain{n} | {n * 10} minutes |" for n in range(12))
    text = (
        "Soaking times vary by grain:\n\n| grain | soak |\n| --- | --- |\n"
        f"{rows}\n| barley | 45 minutes |"
    )
    said = answer("How long should barley soak?", [text], ["Soaking"])
    assert "| barley | 45 minutes |" in said
    assert "| grain | soak |" in said  # the header comes with its row
    assert "grain11" not in said  # rows that do not answer stay out of a long table


def test_a_question_the_sources_barely_touch_says_so_before_the_closest_passage():
    text = "Sourdough rises slowly. The starter needs feeding twice a day at room temperature."
    said = answer("How do I repair the mixer's gearbox motor?", [text], ["Starters"])
    assert said.startswith(ONLY_TOUCHED)
    assert "[1]" in said and ONLY_TOUCHED + " [1]" not in said  # our sentence cites nothing


def test_a_best_source_the_reranker_is_sure_of_gets_no_hedge():
    # the reader's words are not the book's, which answers in its own terms
    text = "Composes functions from right to left. It is a functional programming utility."
    question = "What does the pipe helper really do to the callbacks I hand it?"
    assert answer(question, [text], ["Utilities"]).startswith(ONLY_TOUCHED)
    read = select_excerpts(question, [text], ["Utilities"], sure_of_best=True)
    assert read[0].text == "Composes functions from right to left."


def test_a_question_only_in_the_books_everyday_words_is_hedged_unless_the_reranker_is_sure():
    # "bakery" and "bread" are on most of the book's pages: no word says what is asked
    everyday = terms("bakery bread")
    text = "A bakery bakes its bread before dawn. The bread cools on racks by the door."
    question = "How does the bakery know where its bread is?"
    assert answer(question, [text], ["Mornings"], everyday).startswith(ONLY_TOUCHED)
    read = select_excerpts(question, [text], ["Mornings"], everyday, sure_of_best=True)
    assert read[0].text != ONLY_TOUCHED


def test_a_reported_failure_that_the_sources_only_teach_around_gets_the_hedge():
    text = (
        "The oven is preheated to 250 degrees before the loaves go in. Bake the loaves for "
        "forty minutes, until they sound hollow. A proofing basket that is too cold makes the "
        "dough fail to rise."
    )
    question = "My oven keeps shutting off halfway through the bake, what do I do?"
    assert not answer(question, [text], ["Baking"]).startswith(ONLY_TOUCHED)
    # the same symptom reported as a failure: the sources say how to bake, not why it stops
    # ("…fail to rise" shares only the failure's word)
    reported = "My oven fails halfway through the bake, what do I do?"
    said = select_excerpts(reported, [text], ["Baking"], sure_of_best=True)
    assert said[0].text == ONLY_TOUCHED
    fixed = f"{text} If the oven fails mid-bake, its thermal fuse has tripped: let it cool."
    said = select_excerpts(reported, [fixed], ["Baking"], sure_of_best=True)
    assert said[0].text != ONLY_TOUCHED
    assert any("thermal fuse" in e.text for e in said)


def test_another_sources_sentence_sharing_only_the_failure_word_does_not_speak():
    oven = "The oven is preheated to 250 degrees. Bake the loaves for forty minutes."
    dough = "A proofing basket that is too cold makes the dough fail to rise."
    said = answer("My oven fails halfway through the bake, what do I do?", [oven, dough])
    assert "Bake the loaves" in said and "proofing basket" not in said
    # asked about the failure it names, the same sentence answers
    said = answer("Why does the dough fail to rise in the basket?", [oven, dough])
    assert "proofing basket" in said


def test_a_question_the_sources_answer_gets_no_hedge():
    text = "The starter needs feeding twice a day at room temperature."
    assert not answer("How often does the starter need feeding?", [text]).startswith(ONLY_TOUCHED)


def test_a_question_whose_asking_sentence_the_sources_answer_gets_no_hedge():
    text = "The starter needs feeding twice a day at room temperature."
    scene = "My flatmate bakes rye loaves with a sticky levain in an old clay crock in the cellar."
    question = f"{scene} How often does the starter need feeding?"
    assert not answer(question, [text]).startswith(ONLY_TOUCHED)
    # when the asking sentence is not met either, the hedge stays
    assert answer(f"{scene} How do I oil the mixer?", [text]).startswith(ONLY_TOUCHED)


def test_an_example_after_e_g_stays_in_its_sentence():
    units = parse_units(
        "Scrub the crumbs first, e.g. `ovenctl scrub --all`, or by hand. "
        "Rye i.e. Secale is slower. Then bake."
    )
    assert [u.text for u in units] == [
        "Scrub the crumbs first, e.g. `ovenctl scrub --all`, or by hand.",
        "Rye i.e. Secale is slower.",
        "Then bake.",
    ]


def test_a_quoted_paragraph_is_read_as_sentences_without_its_quote_markers():
    units = parse_units(
        "> Formatting debates cost teams hours.\n> A formatter ends them.\n\n"
        "```diff\n> kept inside code\n```"
    )
    assert [u.text for u in units] == [
        "Formatting debates cost teams hours.",
        "A formatter ends them.",
        "```diff\n> kept inside code\n```",
    ]
    assert units[0].group == units[1].group


def test_a_best_source_that_is_only_a_long_program_lets_the_next_source_answer():
    program = "```python\n" + "\n".join(f"oven.step({n})" for n in range(12)) + "\n```"
    prose = "The oven preheats to 220 degrees before the loaves go in."
    said = answer("How hot does the oven get before baking?", [program, prose], ["", "Oven"])
    assert "220 degrees" in said
    assert "oven.step" not in said  # a prose question does not get a long program


def test_a_best_source_that_is_only_an_example_in_the_asked_syntax_answers_with_it():
    # "Handlebars": the comment that keeps a block as written, shown above such a block
    example = "```hbs\n{{! keep }}\n" + "\n".join(f"<p>{n}</p>" for n in range(10)) + "\n```"
    prose = "Decorators stay where you wrote them, above the line or on it."
    question = "What comment do I put above a block in my .hbs template to keep it?"
    said = answer(question, [example, prose], ["Handlebars", "Decorators"])
    assert said.index("```hbs\n{{! keep }}") < said.index("Decorators stay")  # quoted first
    # a question that names no such syntax is answered by the prose, as before
    assert "{{! keep }}" not in answer("What comment keeps a block?", [example, prose])
    # and a program too long to read as an answer still gives way
    longer = example.replace("range(10)", "").replace("\n```", "\n" + "<p/>\n" * 20 + "```")
    assert "{{! keep }}" not in answer(question, [longer, prose], ["Handlebars", "Decorators"])


def test_sources_that_are_only_long_programs_still_give_an_answer():
    program = "```python\n" + "\n".join(f"oven.step({n})" for n in range(12)) + "\n```"
    said = answer("Why does the oven restart its steps?", [program, program.replace("(", "((")])
    assert "oven.step(11)\n```\n\n[1]" in said  # the best source's program, cited


def test_a_sentence_naming_the_following_list_brings_the_list():
    text = (
        "When the cellar is cold, the following loaves are baked first and the rest wait.\n\n"
        "- Rye sourdough\n- Spelt batard\n\n"
        "A lame is a razor for scoring."
    )
    said = answer("Which loaves are baked first when the cellar is cold?", [text], ["Cold"])
    assert "- Rye sourdough" in said and "- Spelt batard" in said
    assert "razor" not in said


def test_a_sentence_naming_the_code_below_brings_the_code():
    text = (
        "The oven is driven from Python. The timer below starts the proofing cycle every "
        "morning; the log prints each step.\n\n"
        "```python\noven.run(cron='0 4 * * *', program=7)\n```\n\n"
        "A lame is a razor for scoring. The temperature falls below 30 degrees at night."
    )
    said = answer("What starts the proofing cycle every morning?", [text], ["Timers"])
    assert "oven.run(cron='0 4 * * *', program=7)" in said
    assert "razor" not in said


def test_a_question_asking_what_a_thing_is_gets_the_sentence_that_says_it():
    text = (
        "A bakery's night shift is a chain of **stations**. "
        "A station is a bench, or part of one, that does one job: weighing, shaping, scoring. "
        "Splitting the work keeps each bench small enough to learn in a week.\n\n"
        "Bakery stations find each other by the shared bakery timetable. "
        "The bakery timetable is printed at the door of every bakery. "
        "Bakery stations on the same floor share one bakery oven."
    )
    vans = "A **bakery van** is a truck that delivers bread to bakery stations at dawn."
    said = answer("What is a bakery station?", [text, vans], ["Stations", "Vans"])
    assert "A station is a bench" in said


def test_a_definition_from_another_source_opens_the_answer_when_the_best_says_none():
    """A section about a thing's limits can outrank the one that says what it is."""
    limits = (
        "Proofers are young. They run warm, so rye still needs a cool bench. "
        "Treat a proofer as a helper on the line, not as the whole bakery."
    )
    defining = "A **proofer** is a warm cabinet where shaped dough rises before baking."
    said = answer("What is a proofer?", [limits, defining], ["Limits of Proofers", "Proofing"])
    assert said.startswith("A **proofer** is a warm cabinet")
    assert "Treat a proofer as a helper" in said


def test_each_sources_sentences_make_a_paragraph_of_their_own():
    limits = "Proofers are young. They run warm, so rye still needs a cool bench."
    defining = "A **proofer** is a warm cabinet where shaped dough rises before baking."
    said = answer("What is a proofer?", [limits, defining], ["Limits of Proofers", "Proofing"])
    assert "before baking. [2] \n\nProofers are young. [1] They run warm" in said


def test_a_step_of_a_kept_list_that_leads_in_brings_what_it_introduces():
    text = (
        "1. Open the oven's menu.\n"
        "2. Choose Settings.\n"
        "3. Set the following values:\n\n"
        "#### Bake values\n\n- **Heat**: 230 degrees\n- **Steam**: on for ten minutes\n\n"
        "A lame is a razor for scoring."
    )
    said = answer("How do I open the oven's menu?", [text], ["Oven Settings"])
    assert "3. Set the following values:" in said  # the numbered list is kept whole
    assert said.index("**Bake values**") < said.index("- **Heat**: 230 degrees")
    assert "razor" not in said


def test_a_lead_in_whose_list_is_not_in_the_source_does_not_end_the_answer():
    text = (
        "Most form state does not need to go into the bakery's order store. "
        "Keep it in the form until the baker submits the order. "
        "We suggest trying these approaches, in this order:"
    )  # the chunk ends here: its list is the next chunk's
    said = answer("Which approaches should I try for the order form's state?", [text])
    assert "Keep it in the form until the baker submits the order." in said
    assert "in this order" not in said
    chained = text.replace("in this order:", "in this order:\n\nGiven:")  # it leads into one
    assert "in this order" not in answer("Which approaches should I try for the form?", [chained])
    opening = (
        "#### Framework\n\nProofing can be framed as a timing problem:\n\n"
        "Given:\n- a dough\n- a cabinet\n\nThe baker proofs dough in a warm cabinet for hours."
    )
    said = answer("How long does the baker proof dough in a warm cabinet?", [opening])
    assert "warm cabinet for hours" in said and "timing problem" not in said


def test_a_lead_in_to_subsections_brings_the_first_ones_opening_and_what_it_leads_in_to():
    text = (
        "Baking bread rests on a few principles:\n\n"
        "#### Principle 1: Fermentation\n\n"
        "Yeast turns sugar into gas, which lifts the dough. It needs warmth.\n\n"
        "#### Principle 2: Heat\n\n"
        "A hot oven sets the crumb."
    )
    said = answer("Which principles does baking bread rest on?", [text], ["Bread"])
    assert said.index("few principles:") < said.index("**Principle 1: Fermentation**")
    assert said.index("**Principle 1: Fermentation**") < said.index("Yeast turns sugar")
    assert "Principle 2" not in said  # subsections in prose: the first one says enough
    # an opening that leads in itself brings its list
    leading = text.replace(
        "Yeast turns sugar into gas, which lifts the dough. It needs warmth.",
        "Fermentation happens in these steps:\n- yeast wakes\n- gas lifts the dough",
    )
    said = answer("Which principles does baking bread rest on?", [leading], ["Bread"])
    assert said.index("**Principle 1: Fermentation**") < said.index("in these steps:")
    assert said.index("in these steps:") < said.index("gas lifts the dough")


def test_a_term_the_book_introduces_is_answered_without_what_only_shares_its_field():
    text = (
        "Every bakery proofs its dough overnight before the morning bake. "
        "A **proofing cabinet** is a warm box where dough rises. It keeps the humidity steady."
        "\n\nA bakery proofs rye dough for longer than wheat dough."
    )
    said = answer("What is a bakery proofing cabinet?", [text], ["Proofing"])
    assert "warm box" in said and "It keeps the humidity steady." in said
    assert "Every bakery proofs" in said  # the paragraph that introduces it
    assert "rye dough" not in said  # shares "bakery", says nothing of the cabinet
    # a sentence that does not mark the term decides nothing
    plain = answer("What is a bakery proofing cabinet?", [text.replace("**", "")], ["Proofing"])
    assert "rye dough" in plain


def test_a_lead_in_to_subsections_brings_each_of_them_up_to_the_next_higher_heading():
    text = (
        "You can heat the oven with any of the following fuels.\n\n"
        "### With gas\n\nNote: Check the pilot light first.\n\nLight it so:\n\n"
        "```sh\nignite --gas\n```\n\n"
        "### With wood\n\nWood burns unevenly.\n\n```sh\nignite --wood\n```\n\n"
        "### With coal\n\nSet the damper to this:\n\n```sh\nignite --coal\n```\n\n"
        "## Cleaning the oven\n\nScrape the ash out.\n\n```sh\nclean --ash\n```"
    )
    said = answer("How do I heat the oven with gas?", [text], ["Heating"])
    for shown in ("**With gas**", "ignite --gas", "**With wood**", "Wood burns unevenly."):
        assert shown in said
    assert said.index("ignite --wood") < said.index("**With coal**")
    assert said.index("Set the damper to this:") < said.index("ignite --coal")
    assert "Cleaning" not in said and "clean --ash" not in said


def test_a_listed_answer_brings_its_subheadings_but_not_the_next_sections_heading():
    text = (
        "A bakery oven has three zones:\n\n"
        "#### Lower zones\n\n- the hearth\n- the proofing drawer\n\n"
        "#### Upper zone\n\n- the grill\n\n"
        "#### Oven History\n\n"
        "Wood-fired ovens came first."
    )
    said = answer("Which zones does a bakery oven have?", [text], ["Zones"])
    assert said.index("**Lower zones**") < said.index("the hearth")
    assert said.index("**Upper zone**") < said.index("the grill")
    assert "Oven History" not in said and "Wood-fired" not in said


def test_a_recap_of_a_long_nested_list_gives_its_top_level_points():
    items = "".join(
        f"- **Point {n}: {topic} matters**\n  - detail {n}a about {topic}\n"
        f"  - detail {n}b about {topic}\n"
        for n, topic in enumerate(["proofing", "shaping", "scoring", "baking"], start=1)
    )
    text = f"Baking takes practice.\n\nHere is what we covered:\n\n{items}"
    said = answer("Can you recap the bread lesson?", [text], ["Bread › What You've Learned"])
    for n in range(1, 5):
        assert f"- **Point {n}:" in said
    assert "detail" not in said
    assert "Here is what we covered:" in said


def test_nested_list_items_are_marked_nested():
    units = parse_units("- Top\n  - Under it\n- Next top")
    assert [(u.text, u.nested) for u in units] == [
        ("- Top", False),
        ("- Under it", True),
        ("- Next top", False),
    ]


RANDOMIZATION = (
    "Domain randomization trains a policy on many versions of the scene. The policy then "
    "treats the real world as one more version. Masses differ from robot to robot."
)


def test_a_source_that_shares_few_words_with_the_question_gives_its_opening():
    # a reader's own words: only "masses" is the book's, and the opening says what it does
    said = answer("Why would anyone shuffle masses and lighting on purpose?", [RANDOMIZATION])
    assert "Domain randomization trains a policy" in said
    assert "Masses differ" in said


def test_a_source_that_answers_in_the_question_s_words_gives_only_that():
    said = answer("Do masses differ from robot to robot?", [RANDOMIZATION])
    assert "Masses differ" in said
    assert "Domain randomization" not in said


PREREQUISITES = (
    "Install the OvenOS firmware 2.1 and calibrate the thermostat before the first bake. "
    "Keep a kitchen scale at hand."
)
WORKSPACE = (
    "Your recipes live in a **binder**:\n\n"
    "```bash\nmkdir binder && cd binder\novenctl install --recipes .\n```\n\n"
    "The binder keeps every recipe you install in one place."
)


def test_a_how_to_question_met_only_by_a_prerequisite_says_the_book_assumes_it():
    said = answer(
        "How do I install the OvenOS firmware?",
        [PREREQUISITES, WORKSPACE],
        ["Prerequisites", "Recipe Binders"],
    )
    assert said.startswith(ONLY_A_PREREQUISITE)
    assert "Install the OvenOS firmware 2.1" in said
    assert "binder" not in said  # another section's steps answer another question


def test_a_question_about_a_prerequisite_that_is_not_how_to_gets_no_caveat():
    said = answer(
        "Which OvenOS firmware version is needed?",
        [PREREQUISITES, WORKSPACE],
        ["Prerequisites", "Recipe Binders"],
    )
    assert "firmware 2.1" in said
    assert ONLY_A_PREREQUISITE not in said


def test_a_how_to_question_answered_by_a_teaching_section_gets_no_caveat():
    said = answer(
        "How do I install recipes into a binder?",
        [WORKSPACE, PREREQUISITES],
        ["Recipe Binders", "Prerequisites"],
    )
    assert ONLY_A_PREREQUISITE not in said
    assert "ovenctl install --recipes ." in said


def test_a_prerequisite_that_asks_the_reader_to_know_the_thing_gets_no_caveat():
    said = answer(
        "How do I use a proofing cabinet with my oven?",
        [
            "You need to know how a proofing cabinet works with an oven (Lesson 1).",
            "Set the proofing cabinet to 30 degrees and move each tray to the oven when it "
            "has doubled.",
        ],
        ["Prerequisites", "Proofing Before Baking"],
        structural=frozenset({0}),
    )
    assert ONLY_A_PREREQUISITE not in said
    assert "Set the proofing cabinet to 30 degrees" in said


def test_a_prerequisite_that_says_where_the_book_teaches_it_gets_no_caveat():
    said = answer(
        "How do I heat the wood-fired oven?",
        [
            "A heated wood-fired oven, from the previous lesson.",
            "Heat the **wood-fired oven** with kindling at the back for an hour.",
        ],
        ["Prerequisites", "Firing the Oven"],
        structural=frozenset({0}),
    )
    assert ONLY_A_PREREQUISITE not in said
    assert "kindling at the back" in said


def test_a_prerequisite_another_section_teaches_gets_no_caveat():
    # the lesson asks for an oven with a cooling fan; its "Cooling" section says how to use it
    question = "How do I cool the oven down in an emergency?"
    sources = [
        "Its exercises need an oven with an emergency cooling fan.",
        "- **Fan**: the emergency cooling fan cuts the heating power and vents the chamber.",
    ]
    headings = ["Prerequisites", "Cooling"]
    said = answer(question, sources, headings, terms("oven"), structural=frozenset({0}))
    assert ONLY_A_PREREQUISITE not in said
    assert "cuts the heating power" in said
    # a section that shares only the book's everyday word, or not the rare one, does not teach it
    other = "- **Fan**: the cooling fan of the oven runs after every bake."
    said = answer(question, [sources[0], other], headings, terms("oven"), frozenset({0}))
    assert said.startswith(ONLY_A_PREREQUISITE)
    # with every word of the question the book's everyday one, nothing tells that it is taught
    everyday = terms("cool oven emergency")
    assert answer(question, sources, headings, everyday, frozenset({0})).startswith(
        ONLY_A_PREREQUISITE
    )


def test_another_source_that_meets_the_question_better_is_quoted_though_it_adds_no_new_word():
    notes = "Hydration changes how a dough feels in the hand. Rye is sold in sacks of twenty kilos."
    rule = "The only way to change the hydration of a rye dough is to weigh in more water."
    said = answer(
        "What is the only way to change the hydration of a rye dough?",
        [notes, rule],
        ["Hydration", "Water"],
    )
    assert "weigh in more water" in said


def test_another_source_outweighing_the_answer_by_one_word_does_not_speak():
    # the answer already says both words, in two sentences; a bold sentence holding one of
    # them is not the question said in one, however much its one word weighs
    panel = (
        "The panel lists every oven on the line. A red lamp means the element is heating. "
        "The panel runs on mains power."
    )
    elements = "**Heating elements are cleaned on Fridays.**"
    said = answer("How do I see which ovens are heating?", [panel, elements], ["Panel", "Care"])
    assert "red lamp" in said and "cleaned on Fridays" not in said


def test_a_prerequisite_that_does_not_name_what_is_asked_gets_no_caveat():
    said = answer(
        "How do I add a proofing cabinet to my bakery?",
        [
            "A bakery with a working oven, from the previous lesson.",
            "A **proofing cabinet** is added beside the oven and plugged into its own circuit.",
        ],
        ["Prerequisites", "Proofing Cabinets"],
    )
    assert ONLY_A_PREREQUISITE not in said
    assert "plugged into its own circuit" in said


CARDS = (
    "A saved recipe card stops matching when you change a recipe on purpose. "
    "The oven then refuses the batch, because the saved recipe card is out of date. "
    "The saved recipe card records each recipe the oven has approved. "
    "Changing a recipe on purpose is normal, and the oven refuses only until the card agrees. "
    "Run it with a flag that writes them again:\n\n"
    "```bash\novenctl bake --rewrite-cards\n```\n\n"
    "Sourdough needs a starter fed the day before."
)


def test_a_how_to_answer_brings_the_command_that_follows_its_explanation():
    said = answer(
        "My oven refuses the batch after I changed a recipe on purpose. How do I fix the card?",
        [CARDS],
        ["Saved Recipe Cards"],
    )
    assert "ovenctl bake --rewrite-cards" in said
    assert "Run it with a flag that writes them again:" in said  # with the lead-in
    assert "Sourdough" not in said


def test_a_how_to_answer_that_shows_an_example_program_still_brings_the_command():
    # the explanation walks through the recipe that changed; what to run follows it
    walked = CARDS.replace(
        "Changing a recipe on purpose is normal",
        "Say the rye recipe card changes:\n\n```python\n# a saved recipe card after a change\n"
        "card = recipe_card('rye')\ncard.bake_minutes = 50\n```\n\n"
        "Changing a recipe card on purpose is normal",
    )
    said = answer("How do I fix a saved recipe card after a change?", [walked], ["Cards"])
    assert "card.bake_minutes = 50" in said
    assert "ovenctl bake --rewrite-cards" in said


RECIPE = (
    "A timed oven runs a batch for a set time, then switches itself off.\n\n"
    "```python\n"
    + "".join(f"step_{n} = bake(tray={n})\n" for n in range(12))
    + "switch_off(oven)\n```"
)


def test_a_thin_how_to_explanation_brings_the_program_that_follows():
    said = answer("How do I make a timed oven?", [RECIPE], ["Timed Oven"])
    assert "switch_off(oven)" in said and "step_11 = bake(tray=11)" in said
    # a fuller explanation stands on its own: the long program is left out
    fuller = RECIPE.replace(
        "switches itself off.",
        "switches itself off. A timed oven never overbakes. A timed oven saves power.",
    )
    assert "switch_off" not in answer("How do I make a timed oven?", [fuller], ["Timed Oven"])


CATALOGUE = "The oven's timer has these features:\n\n" + "\n\n".join(
    f"- **{feature}:** {says} Example\n\n  ```js\n  timer.{call}()\n  ```"
    for feature, says, call in [
        ("Pauses", "The timer pauses when the door opens.", "pause"),
        ("Peeks", "Use `timer.peek` to read the time left without stopping it.", "peek"),
        ("Chimes", "The timer chimes when the bake ends.", "chime"),
        ("Resets", "The timer resets after each batch.", "reset"),
    ]
)


def test_a_catalogue_of_examples_gives_the_asked_item_with_its_code_not_the_whole_list():
    said = answer("How do I read the time left without stopping the timer?", [CATALOGUE])
    assert "`timer.peek` to read the time left" in said and "timer.peek()" in said
    assert "door opens" not in said and "timer.chime()" not in said


def test_a_catalogue_item_brings_the_tip_set_under_its_code():
    tip = "  Tip:\n  Peeking is free on every model, as often as you like.\n\n"
    with_tip = CATALOGUE.replace("timer.peek()\n  ```\n\n", "timer.peek()\n  ```\n\n" + tip)
    said = answer("How do I read the time left without stopping the timer?", [with_tip])
    assert "timer.peek()" in said and "as often as you like" in said
    assert "door opens" not in said and "timer.pause()" not in said


def test_a_thing_met_only_in_passing_is_said_to_be_only_touched():
    # "oven" is on most of the book's pages: "glow" is the one thing asked about
    everyday = terms("oven")
    passing = (
        "Start the proofing cabinet before the oven. "
        "A cabinet that lags behind the oven will still leave a glowing crust pale."
    )
    said = answer("How do I make the oven glow?", [passing], ["Running the Cabinet"], everyday)
    assert said.startswith(ONLY_TOUCHED)
    teaching = "An oven glows when its element heats. Turn the dial up to make the glow deeper."
    said = answer("How do I make the oven glow?", [teaching], ["The Element"], everyday)
    assert not said.startswith(ONLY_TOUCHED)


def test_a_follow_up_whose_answer_never_names_its_earlier_topic_gets_the_hedge():
    workspace = "Run the install step: it copies every recipe into the install folder."
    said = answer("how do i install it? (proofing cabinet)", [workspace], ["Installing"])
    assert said.startswith(ONLY_TOUCHED)
    cabinet = "Install the proofing cabinet on a level floor, away from the oven."
    said = answer("how do i install it? (proofing cabinet)", [cabinet], ["Setup"])
    assert not said.startswith(ONLY_TOUCHED)


def test_a_question_that_is_not_how_to_gets_no_command():
    said = answer("Why does my oven refuse the batch after I changed a recipe?", [CARDS])
    assert "ovenctl" not in said


def test_a_unit_under_a_subsection_heading_brings_the_heading():
    text = (
        "The oven sets a few variables for every batch.\n\n"
        "### `OVEN_BATCH_ID`\n\n"
        "Each tray in a run is numbered from one, so two trays never share a number."
    )
    said = answer("How can I tell two trays of the same run apart?", [text], ["Variables"])
    assert said.index("OVEN_BATCH_ID") < said.index("Each tray in a run is numbered")


def test_a_subsection_heading_after_a_sentence_is_a_paragraph_of_its_own():
    # Markdown joins lines that one line break separates: "… a diagram. [1] **Topics**"
    sources = [
        "The oven logs every batch. Each log names its tray.",
        "The oven sets a few variables.\n\n### Tray numbers\n\nEach tray in a batch is numbered.",
    ]
    said = answer("How are the trays of a batch numbered?", sources, ["Logs", "Variables"])
    assert "\n\n**Tray numbers**\n\nEach tray in a batch is numbered." in said


def test_a_unit_under_a_subsection_heading_brings_the_sentence_that_opens_it():
    text = (
        "A bakery shapes dough in three stages.\n\n"
        "### Proofing\n\n"
        "Shaped dough rests in warm, humid air until it has doubled. "
        "Cabinets hold the air at a steady warmth. "
        "Unlike kneading, proofing needs no attention."
    )
    said = answer("Does proofing need attention like kneading does?", [text], ["Shaping"])
    assert said.index("Proofing") < said.index("Shaped dough rests") < said.index("needs no")
    assert "Cabinets" not in said


def test_a_question_that_asks_why_gets_the_sentence_that_gives_the_reason():
    text = (
        "Loaf holding keeps loaves warm after baking ends. "
        "Turn on loaf holding in the oven's settings menu. "
        "Loaf holding works for every loaf size. "
        "The loaf holding light is on the oven's front panel. "
        "Holding timers end loaf holding after an hour. "
        "Probing each loaf costs energy, so it stays off unless you ask."
    )
    said = answer("Why isn't loaf holding on by default? (oven)", [text], ["Holding"])
    assert "so it stays off unless you ask" in said


def test_a_question_that_asks_what_to_do_gets_the_sentence_that_advises():
    text = (
        "Each loaf is proofed in a basket. "
        "Loaves share one proofing shelf in the oven room. "
        "The proofing shelf holds twelve loaves. "
        "A basket per loaf keeps loaves apart on the shelf. "
        "Every loaf on the shelf is turned once. "
        "We recommend proofing each rye loaf in a room of its own, away from the wheat."
    )
    said = answer("Should each loaf get its own shelf?", [text], ["Proofing"])
    assert "We recommend proofing each rye loaf in a room of its own" in said


def test_a_question_that_asks_how_long_gets_the_sentence_that_states_the_time():
    text = (
        "**The shelf keeps proofed dough covered while it waits to be shaped.** "
        "The shelf keeps a count of the dough waiting on it. "
        "When the count of waiting dough goes down to 0, the shelf starts a timer. "
        "**If the timer runs out before the dough is shaped, the shelf drops the dough.** "
        "Bakers often shape dough just as the shelf's timer is about to run out. "
        "Dough that is dropped goes to the compost bin. "
        "By default, that happens after 40 minutes, set by `doughLifetime`."
    )
    said = answer(
        "How long does the shelf keep waiting dough before dropping it?", [text], ["Dough"]
    )
    assert "after 40 minutes" in said


def test_a_sentence_the_author_set_in_bold_is_preferred_to_a_passing_one():
    text = (
        "Every starter is fed at noon with flour and water. "
        "A rye starter is fed more flour than a wheat starter. "
        "A starter fed twice a day rises faster. "
        "Each starter is fed from the same sack. "
        "**A starter that is not fed for a week is thrown away.** "
        "Jars are washed between feeds."
    )
    said = answer("How long can a starter go without being fed?", [text], ["Starters"])
    assert "thrown away" in said


def test_a_scene_that_mentions_the_command_line_does_not_make_a_request_for_code():
    ignore = (
        "A custom skip list replaces the default one instead of adding to it, so list the "
        "default's entries in your file too.\n\n```sh\nbake --skip-list=mine.txt --verbose\n"
        "bake --skip-list=default.txt --skip-list=mine.txt\nbake --dry-run\nbake --all\n"
        "bake --report\nbake --again\n```"
    )
    one_off = "For a one-off bake, exclude loaves by prefixing their names with `!`."
    question = (
        "I gave my own skip list on the command line and now the default skips are ignored. "
        "How do I keep both? And for a one-off bake, can I exclude loaves without a skip list?"
    )
    said = answer(question, [ignore, one_off], ["Skip lists", "One-off bakes"])
    assert "instead of adding to it" in said
    assert "prefixing their names" in said


def test_each_side_of_a_comparison_is_said_by_the_section_named_after_it():
    overview = (
        "The `--proof` and `--rest` flags both hold dough before baking. "
        "They take the same time limits."
    )
    rest = "`--rest` leaves the dough on the bench at room temperature without a cover."
    said = answer(
        "What is the difference between --proof and --rest?",
        [overview, "Ovens are cleaned nightly.", rest],
        ["Holding dough", "Cleaning", "`--rest`"],
    )
    assert "both hold dough" in said
    assert "on the bench at room temperature" in said


def test_a_side_with_no_section_of_its_own_is_said_by_the_page_named_after_it():
    proofer = (
        "A bakery describes its proofers in a **rack sheet**. "
        "Unlike a recipe card, a rack sheet lists every shelf and its humidity."
    )
    card = (
        "A **recipe card** is a printed sheet that lists one loaf's ingredients and steps. "
        "Cards are kept in a box by the oven."
    )
    question = "What's the difference between a recipe card and a rack sheet?"
    headings = ["Rack sheets", "Ingredients and steps"]
    titles = ["Proofing", "Writing Recipe Cards"]
    excerpts = select_excerpts(question, [proofer, card], headings, titles=titles)
    numbers = {document: n for n, document in enumerate(sorted({e.document for e in excerpts}), 1)}
    said = "".join(compose(excerpts, numbers))
    assert "lists every shelf" in said
    assert "printed sheet that lists one loaf" in said
    assert "printed sheet" not in answer(question, [proofer, card], headings)


def test_a_pages_prerequisites_do_not_speak_for_the_side_its_title_names():
    table = (
        "Pick the oven by the loaf.\n\n"
        "| | Deck oven | Rack oven |\n| --- | --- | --- |\n"
        "| Heat | stone floor | moving air |\n| Loaves | crusty | soft |"
    )
    before = "A lit deck oven with a loaded peel, from the previous lesson."
    question = "What's the difference between a deck oven and a rack oven?"
    sources, headings = [table, before], ["Choosing", "Prerequisites"]
    titles = ["Rack Ovens", "Baking in a Deck Oven"]

    def said(structural: frozenset[int]) -> str:
        excerpts = select_excerpts(
            question, sources, headings, structural_sources=structural, titles=titles
        )
        numbers = {d: n for n, d in enumerate(sorted({e.document for e in excerpts}), 1)}
        return "".join(compose(excerpts, numbers))

    assert "| Heat | stone floor | moving air |" in said(frozenset({1}))
    assert "loaded peel" not in said(frozenset({1}))
    assert "loaded peel" in said(frozenset())  # the same page's teaching section would speak


def test_a_side_is_said_by_the_section_named_exactly_after_it_not_one_that_holds_its_word():
    dry_run = "`--dry-bake` runs every step without heating the oven, and reports the timings."
    bake = "`--bake` heats the oven and bakes every loaf on the list."
    said = answer(
        "--bake vs --dry-bake?",
        [dry_run, "Ovens are cleaned nightly.", bake],
        ["`--dry-bake`", "Cleaning", "`--bake`"],
    )
    assert "without heating the oven" in said
    assert "bakes every loaf on the list" in said  # "`--dry-bake`" holds "bake" too


def test_asked_what_a_thing_is_the_section_named_after_it_says_what_it_is():
    overview = (
        "Proofing cabinets are a handy way to speed up a bake, and most bakeries keep one. "
        "Loaves cool on racks after the oven."
    )
    entry = (
        "Most likely you will never build a proofing cabinet yourself. "
        "A proofing cabinet is a warm, humid box that holds shaped dough while it rises."
    )
    said = answer(
        "Proofing cabinet - what is that? The recipes keep mentioning one.",
        [overview, "Ovens are cleaned nightly.", entry],
        ["Baking faster", "Cleaning", "Proofing cabinet"],
    )
    assert "warm, humid box" in said


def test_asked_for_a_setting_the_answer_names_it_not_only_the_readers_own_word():
    text = (
        "Control whether the oven gives a longer proof to rye loaves. "
        "Loaves marked `rye` in a recipe get a longer proof and a cooler oven. "
        "A longer proof suits rye flour, which rises slowly. "
        "Sometimes that is unwanted, as with a quick rye loaf. "
        "Ovens are cleaned nightly. "
        "The `ryeProof` switch turns it off."
    )
    said = answer(
        "I bake rye loaves and don't want the longer proof. What setting controls that?", [text]
    )
    assert "`ryeProof`" in said


def test_the_section_named_after_the_question_speaks_when_another_named_it_in_passing():
    passing = (
        "Loaves cool on racks after the oven. "
        "Cooling racks sit beside the proofing cabinet and the slicer."
    )
    cabinet = "It keeps shaped dough warm and moist while it rises."
    said = answer(
        "What is a proofing cabinet?",
        [passing, "Ovens are cleaned nightly.", cabinet],
        ["Cooling", "Cleaning", "The proofing cabinet"],
    )
    assert "warm and moist while it rises" in said


def test_a_configuration_block_of_a_few_lines_is_a_prose_answers_fact():
    text = (
        "Rye loaves need a longer proof than wheat ones. "
        "Rye gets its own proofing time in the oven's settings file.\n\n"
        '```json\n{\n  "proof": 40,\n  "overrides": [\n'
        '    { "loaves": ["rye"], "proof": 70 }\n  ]\n}\n```'
    )
    said = answer("How do I give rye loaves a longer proofing time?", [text], ["Proofing"])
    assert '"overrides"' in said


def test_an_answer_from_a_section_named_after_an_option_says_the_option():
    text = (
        "* Default: **false**\n* Type: **Boolean**\n\n"
        "If `true`, the mixer refuses to start when the recipe file is out of date."
    )
    said = answer(
        "Which flag stops the mixer when the recipe file is out of date?",
        [text],
        ["--strict-recipe"],
    )
    assert said.startswith("**--strict-recipe**")
    assert "refuses to start" in said


def test_a_section_named_in_words_is_not_headed_by_its_name():
    text = "The mixer refuses to start when the recipe file is out of date."
    said = answer("Why does the mixer not start?", [text], ["Out-of-date recipes"])
    assert "Out-of-date" not in said
    said = answer("Why does the mixer not start?", [text], ["Starting the mixer"])
    assert "**Starting the mixer**" not in said


def test_a_code_block_brings_the_sentence_that_says_what_it_shows():
    text = (
        "Every tray gets a line in the oven's log. "
        "Quiet mode leaves the good ones out.\n\n"
        "```console\n$ ovenctl bake --quiet\ntray 3: burnt\n```\n\n"
        "Logs are kept for a week."
    )
    said = answer("Show me a log of just the burnt trays", [text], ["Logs"])
    assert "ovenctl bake --quiet" in said
    assert "Quiet mode leaves the good ones out." in said


def test_a_sentence_offering_another_way_brings_the_first_way():
    text = (
        "Loaves can come out pale in a cold kitchen. "
        "One way to fix this is to proof them longer. "
        "In order to do this you can set the cabinet timer:\n\n"
        "```console\n$ ovenctl proof --minutes 90\n```\n\n"
        "Another alternative to getting darker crusts in a cold kitchen is to bake them hotter. "
        "Most ovens reach that in ten minutes."
    )
    said = answer("My crusts come out pale in a cold kitchen. What can I try?", [text])
    assert "bake them hotter" in said
    assert "ovenctl proof --minutes 90" in said
    assert "proof them longer" in said


def test_a_list_of_links_under_see_also_is_not_quoted_as_an_answer():
    text = (
        "Dough rises faster in a warm kitchen. Keep it near the oven while it proofs.\n\n"
        "#### See also\n\n"
        "- Forum: Why does my dough rise faster in a warm kitchen?\n"
        "- Blog: Warm kitchen proofing tricks"
    )
    said = answer("Why does dough rise faster in a warm kitchen?", [text], ["Proofing"])
    assert "near the oven" in said or "rises faster" in said
    assert "Forum:" not in said and "See also" not in said


def test_a_list_of_links_offered_as_further_reading_is_not_quoted():
    reading = (
        "Proof the dough in a warm kitchen until it has doubled.\n\n"
        "> **For more on how warm dough should proof, see:**\n>\n"
        "> - **[Warm proofing](https://example.org/warm)**\n"
        "> - **[Proofing FAQ](../faq/proofing.md)**"
    )
    said = answer("How warm should dough proof?", [reading], ["Proofing"])
    assert "doubled" in said
    assert "For more on" not in said and "Proofing FAQ" not in said
    # links that a lead-in does not offer as reading can be the answer
    tools = "Two tools measure a proofing kitchen:\n\n- [ProofMeter](https://example.org/pm)"
    assert "ProofMeter" in answer("Which tools measure a proofing kitchen?", [tools], ["Tools"])


def test_a_list_of_links_under_a_label_naming_reading_is_not_quoted():
    # the part of a split section that holds only its reading list: no heading above it
    discussions = (
        "**Discussions**\n\n"
        "- [#291: Where to proof dough in a cold kitchen](https://example.org/issues/291)\n"
        "- [Forum: Proofing dough in a cold kitchen](https://example.org/forum/7)"
    )
    teaching = "In a cold kitchen, proof the dough inside the switched-off oven with its lamp on."
    said = answer(
        "Where do I proof dough in a cold kitchen?",
        [discussions, teaching],
        ["Proofing FAQ", "Cold Kitchens"],
    )
    assert "switched-off oven" in said
    assert "#291" not in said and "Discussions" not in said
    # a label that does not name reading leaves its links to answer
    tools = "**Thermometers**\n\n- [ProofMeter](https://example.org/pm)"
    said = answer("Which thermometers suit a proofing kitchen?", [tools], ["Tools"])
    assert "ProofMeter" in said


def test_a_flag_is_met_where_it_is_written_not_by_its_word():
    said = answer(
        "What does --bake do?",
        [
            "This fires every loaf in the queue at once.",
            "I want to bake bread, not clean ovens.",
            "Note that `--bake` cannot be used with `--dry-run`.",
        ],
        ["`--bake`", "Why OvenOS?", "`--dry-run`"],
    )
    assert "fires every loaf" in said
    assert "cannot be used with" in said
    assert "I want to bake bread" not in said


def test_a_source_that_is_a_table_of_contents_is_not_quoted():
    faq = "Proofing in a cold kitchen takes longer. Keep the dough near the oven while it rises."
    contents = (
        "- [Why does dough rise faster in a warm kitchen?](faq.md#warm-kitchen)\n"
        "- [How long should dough rise in a cold kitchen?](faq.md#cold-kitchen)"
    )
    question = "How long should dough rise in a cold kitchen?"
    said = answer(question, [faq, contents], ["Cold kitchens", "Table of Contents"])
    assert "near the oven" in said or "takes longer" in said
    assert "faq.md#" not in said


def test_the_same_code_shown_in_two_language_tabs_is_quoted_once():
    block = (
        "/**\n * @oven-mode steam\n */\n\n"
        "test('bake rye with steam in this file', () => {\n"
        "  expect(bake('rye')).toBeMoist();\n});\n"
    )
    text = (
        "Loaves bake in the dry oven by default. If you are baking rye, you can use the steam "
        "oven through a mode comment instead.\n\n"
        f"```js\n{block}```\n\n```ts\n{block}```\n\n"
        "Each file bakes in an oven of its own."
    )
    question = "One of my test files needs the steam oven for rye. How do I set that per file?"
    said = answer(question, [text], ["Oven modes"])
    assert said.count("@oven-mode steam") == 1


def test_another_source_sharing_only_the_books_everyday_word_does_not_speak():
    # in a bakery book "bread" is on most pages: a sentence that shares only it with the
    # question is not about the question, from another source or under a heading naming it
    sources = [
        "A **banneton** gives the dough its shape while it rises. Dust it with rice flour.",
        "Crust colour comes from the oven's heat. The bread is left to cool on a rack.",
        "The bread rises overnight in the fridge.",
    ]
    headings = ["Proofing Baskets", "Baking", "Cold Bread"]
    question = "How do I keep my bread from sticking to the basket?"
    everyday = terms("bread")
    said = answer(question, sources, headings, everyday)
    assert "banneton" in said and "rack" not in said and "overnight" not in said
    # without that knowledge, a sentence sharing "bread" speaks (one: once it is said, the
    # other holds no word the answer lacks)
    assert "rack" in answer(question, sources, headings)


def test_a_recap_source_gives_way_to_the_sections_that_teach():
    sources = [
        "A **banneton** shapes the dough while it rises. Dust it with rice flour: dough does "
        "not stick to rice flour.",
        "- Choose a banneton for a round loaf\n- Keep the dough from sticking to its basket",
    ]
    question = "How do I keep my dough from sticking to the banneton?"
    headings = ["Proofing Baskets", "Learning Objectives"]
    said = answer(question, sources, headings, structural=frozenset({1}))
    assert "rice flour" in said and "round loaf" not in said and "[2]" not in said
    # read as teaching, the list's item that holds the question speaks
    assert "Keep the dough from sticking" in answer(question, sources, headings)
    # ranked first, it gives way to the section that teaches...
    first = answer(question, sources[::-1], headings[::-1], structural=frozenset({0}))
    assert first.startswith("A **banneton**") and "round loaf" not in first
    # ...and answers only when every source restates
    assert "Keep the dough from sticking" in answer(
        question, sources[1:], headings[1:], structural=frozenset({0})
    )


def test_every_topic_word_being_everyday_leaves_the_other_sources_free_to_speak():
    sources = ["The bread is scored before baking.", "The bread cools on a rack."]
    said = answer("Where does bread cool?", sources, ["Scoring", "Cooling"], terms("bread cool"))
    assert "rack" in said


def test_a_question_asking_for_settings_gets_each_speaking_sources_name_in_code():
    # a reference section says what an option does in prose and names it only in its table
    steam = (
        "Add a burst of steam when the loaf goes in.\n\n"
        "- `true` - Steam the oven.\n- `false` - Bake dry.\n\n"
        "| Default | CLI Override | API Override |\n| --- | --- | --- |\n"
        "| `false` | `--steam-burst` | `steamBurst: <bool>` |"
    )
    heat = (
        "Lower the top element so the crust browns slowly.\n\n"
        "| Default | CLI Override | API Override |\n| --- | --- | --- |\n"
        "| `220` | `--top-heat <int>` | `topHeat: <int>` |"
    )
    question = "I want a glossy crust that browns slowly. Which settings give me both?"
    said = answer(question, [steam, heat], ["Steam Burst", "Top Heat"])
    assert "steamBurst" in said and "topHeat" in said
    # a question that does not ask for a name keeps to the prose
    assert "topHeat" not in answer("Why should the crust brown slowly?", [heat], ["Top Heat"])


def test_an_answer_starts_with_its_table_and_ends_with_its_last_citation():
    text = (
        "| Flour | Protein |\n| --- | --- |\n| bread | 13 % |\n| cake | 8 % |\n\n"
        "Store flour in a cool, dry cupboard."
    )
    said = answer("Which flour has the most protein?", [text], ["Flours"])
    assert said.startswith("| Flour | Protein |")
    assert said.endswith("cupboard. [1]")
    table = text.split("\n\n")[0]
    said = answer("Which flour has the most protein?", [table], ["Flours"])
    assert said.endswith("| cake | 8 % |\n\n[1]")  # no blank lines after the last citation


def test_a_question_about_something_that_does_not_happen_gets_the_sentence_saying_when():
    working = (
        "The oven below bakes a tray of rolls every ten minutes; the cooling rack takes what "
        "it bakes. The tray holds twelve rolls."
    )
    failing = (
        "Every oven has a humidity setting. A rack set to dry air will not take anything from "
        "a steam oven: the two settings clash and the rack stays empty."
    )
    said = answer(
        "Why is my cooling rack not taking anything?", [working, failing], ["Baking", "Humidity"]
    )
    assert "cooling rack takes what it bakes" in said
    assert "will not take anything from a steam oven" in said


def test_a_later_table_that_holds_the_whole_comparison_is_quoted():
    first = (
        "A **proofer** is for long rises. Under the hood a proofer is built from ovens held at "
        "low heat. Give it a steady humidity."
    )
    table = (
        "Bakeries use three kinds of cabinets.\n\n"
        "| Cabinet | Heat | Typical use |\n| --- | --- | --- |\n"
        "| Cooler | none | dough kept overnight |\n| Oven | high | baking loaves |\n"
        "| Proofer | low, humid | rising dough for hours |\n"
    )
    said = answer(
        "What is the difference between an oven and a proofer?",
        [first, "An **oven** bakes at high heat.", table],
        ["Proofers", "Ovens", "Three Kinds of Cabinets"],
    )
    assert "| Proofer | low, humid | rising dough for hours |" in said


def test_a_long_question_hears_the_source_holding_the_few_words_that_name_its_ask():
    question = (
        "In our shared bakery kitchen we keep a patched copy of a family recipe inside the "
        "archive folder and want it baked as well, but when I point the oven at that folder it "
        "quietly does nothing, no error, no loaf. How do I make it go in there?"
    )
    wrong = (
        "The oven bakes every recipe you point it at. "
        "A copy of a recipe bakes like the original. "
        "Family recipes are welcome."
    )
    right = "Anything in an `archive` folder is skipped unless you pass `--with-archive`."
    said = answer(question, [wrong, right], ["Baking", "Skipped folders"])
    assert "--with-archive" in said  # two of twenty topic words, but the two that name the ask
    assert said.startswith("The oven bakes every recipe")  # the first source still opens


def test_a_long_question_gets_more_of_the_best_sources_units():
    question = (
        "My sourdough starter smells sharp, the crust burns, and the loaves come out flat and "
        "dense after the overnight proof in a cold kitchen. What should I change?"
    )
    text = (
        "A sharp smell means the starter is hungry. "
        "A cold kitchen slows the overnight proof. "
        "Flat loaves come from a proof that ran too long. "
        "Dense loaves come from a starter past its peak. "
        "A crust that burns means the oven is too hot. "
        "Ovens are cleaned nightly."
    )
    said = answer(question, [text])
    assert "starter is hungry" in said
    assert "oven is too hot" in said  # the fifth ask, and the fifth relevant sentence
    assert "cleaned nightly" not in said


def test_reading_two_more_sources_does_not_change_what_the_first_four_say():
    question = "Why does my sourdough starter smell sharp and how should I feed it?"
    first = [
        "A sharp smell means the starter is hungry. Feed it twice a day. Sourdough needs patience.",
        "Ovens are cleaned nightly.",
        "Racks are wiped.",
        "Flour is stored dry.",
    ]
    more = [  # the question's words on every line: rarer among six sources than among four
        "The starter lives in a jar. The starter sits on the shelf. A starter is old.",
        "Feed the starter flour. Feed the starter water. Feed it daily.",
    ]

    def said(texts: list[str]) -> list[str]:
        excerpts = select_excerpts(question, texts, [""] * len(texts))
        return [e.text for e in excerpts if e.document < len(first)]

    assert "Feed it twice a day." in said(first)
    assert said(first + more) == said(first)


def test_a_long_question_hears_more_of_the_other_sources():
    question = (
        "Our bakery's sourdough loaves come out flat, the crust burns on the bottom, the crumb "
        "is gummy, the starter smells sharp and the dough tears when shaped. What do we change?"
    )
    best = "Flat loaves come from a proof that ran too long."
    others = [
        f"{first} {second}"
        for first, second in [
            ("A crust that burns on the bottom needs a higher rack.", "Racks are wiped daily."),
            ("A gummy crumb means the loaf was cut while hot.", "Let it cool an hour."),
            ("A sharp-smelling starter is hungry.", "Feed it more often."),
            ("Dough that tears when shaped needs more kneading.", "Knead it for ten minutes."),
            ("Sourdough loaves keep for three days.", "Bakeries sell them by noon."),
        ]
    ]
    said = answer(question, [best, *others])
    asks = ["higher rack", "cut while hot", "starter is hungry", "more kneading", "three days"]
    assert sum(ask in said for ask in asks) > 4  # more than four of the other sources speak


def test_a_bold_label_is_quoted_with_the_list_it_heads_and_the_lead_in_above_it():
    text = (
        "### Proofing Schedules\n\n"
        "Change the proof as the kitchen warms up:\n\n"
        "**Temperature-Guided Proofing**\n"
        "- Shorten the proof above 26 degrees\n"
        "- Lengthen it below 20 degrees\n\n"
        "Ovens are cleaned nightly."
    )
    said = answer("What is temperature-guided proofing?", [text])
    assert "Shorten the proof above 26 degrees" in said
    assert "Lengthen it below 20 degrees" in said
    assert "Change the proof as the kitchen warms up:" in said
    assert "cleaned nightly" not in said


def test_an_italic_caption_is_quoted_with_the_code_it_names():
    # docs without a tab widget caption each side's code in italics
    text = (
        "A callback as the last argument is called once the other side acknowledges it:\n\n"
        "*Oven*\n\n```js\noven.on('loaf', (loaf, done) => done({ baked: true }));\n```\n\n"
        "*Baker*\n\n```js\nbaker.send('loaf', dough, (reply) => log(reply.baked));\n```\n\n"
        "Ovens are cleaned nightly."
    )
    said = answer("How does the oven acknowledge a loaf?", [text])
    assert "\n\n*Oven*\n\n```js\noven.on('loaf'" in said
    assert "*Oven* [1]" not in said  # a caption, shown as a heading: no citation of its own
    assert "cleaned nightly" not in said


def test_a_bold_formula_brings_the_sentence_that_explains_it():
    text = (
        "The proof time follows the starter's strength:\n\n"
        "**t = k / s**\n\n"
        "Where s is the starter's rise in an hour and k a constant of the flour.\n\n"
        "Ovens are cleaned nightly."
    )
    said = answer("How is the proof time for a starter calculated?", [text])
    assert "Where s is the starter's rise" in said


def test_a_list_items_example_in_captioned_tabs_comes_with_the_item():
    text = (
        "Options go under `ovenOptions`:\n\n"
        "- `strictProofing` (default `false`) can be set to `true` to let the oven check "
        "the dough before baking it.\n\n"
        "  **oven.config.js**\n\n  ```js\n  oven({ strictProofing: true });\n  ```\n\n"
        '  **.ovenrc**\n\n  ```json\n  { "strictProofing": true }\n  ```\n\n'
        "- `steam` (default `true`) keeps the crust soft.\n"
    )
    said = answer("How do I let the oven check the dough first?", [text])
    assert "**oven.config.js**\n\n```js\noven({ strictProofing: true });" in said
    assert '{ "strictProofing": true }' in said


def test_a_heading_over_a_sentence_another_source_already_said_is_left_out():
    sources = [
        "Proof the dough for an hour before baking. Warm kitchens need less time.",
        "### Proofing\n\nProof the dough for an hour before baking.",
    ]
    said = answer("How long do I proof the dough before baking?", sources, ["Bread", "Notes"])
    assert said.count("Proof the dough for an hour") == 1
    assert "**Proofing**" not in said


def test_a_table_another_source_already_gave_is_not_quoted_again():
    sources = [
        "Each oven setting suits one bake:\n\n| Setting | Heat | Use |\n| --- | --- | --- |\n"
        "| Steam | 230 °C | crusty bread |\n| Convection | 180 °C | pastries |\n",
        "### Oven settings\n\n| Setting | Use |\n| --- | --- |\n| **Steam** | crusty bread |\n"
        "| **Convection** | pastries |\n",
    ]
    said = answer("Steam or convection for crusty bread?", sources, ["Ovens", "Cheatsheet"])
    assert "| Steam | 230 °C | crusty bread |" in said
    assert "**Steam**" not in said and "[2]" not in said


def test_a_bold_formula_brings_its_legend_after_a_lead_in():
    text = (
        "The proof time follows the starter's strength:\n\n"
        "**t = k / s**\n\n"
        "Where:\n- k depends on the flour\n- s is how far the dough rises in an hour\n\n"
        "Ovens are cleaned nightly."
    )
    said = answer("How is the proof time for a starter calculated?", [text])
    assert "**t = k / s**\n\nWhere: [1]" in said
    assert "- k depends on the flour [1]" in said and "- s is how far the dough rises" in said


def test_a_title_over_nothing_the_answer_quotes_is_left_out():
    text = (
        "Steam keeps the crust of a baking loaf soft.\n\n"
        "**Baking with steam: a detailed example**\n\n"
        "### Cleaning\n\nWipe the oven door."
    )
    said = answer("What does steam do when baking?", [text])
    assert "crust of a baking loaf soft" in said
    assert "detailed example" not in said and "Wipe" not in said


def test_paragraphs_are_parted_by_one_blank_line_whatever_comes_after_a_note_or_a_block():
    units = [
        ONLY_TOUCHED,
        "### Proofing",
        "```text\nproof 45 min\n```",
        "### Baking",
        "- Bake at 230 °C",
        "Rye needs less time.",
    ]
    excerpts = [Excerpt(0, n, n, False, unit, note=n == 0) for n, unit in enumerate(units)]
    said = "".join(compose(excerpts, {0: 1}))
    assert "\n\n\n" not in said
    assert said.startswith(f"{ONLY_TOUCHED}\n\n**Proofing**\n\n```text")
    assert "[1]\n\n**Baking**\n- Bake at 230 °C [1]\n\nRye needs less time. [1]" in said


def test_a_bold_label_is_shown_as_a_heading_of_its_own_paragraph_without_a_citation():
    units = ["Ovens vary.", "**Steam baking**", "Pour water on the tray.", "It crisps the crust."]
    excerpts = [Excerpt(0, n, n, False, unit) for n, unit in enumerate(units)]
    said = "".join(compose(excerpts, {0: 1}))
    assert said == (
        "Ovens vary. [1] \n\n**Steam baking**\n\nPour water on the tray. [1] "
        "It crisps the crust. [1]"
    )


def test_another_source_sharing_one_word_of_the_question_in_another_sense_does_not_speak():
    # the best source answers in words spread over its sentences, so others may add to it;
    # "setting" in the shop's returns section is the same word in another sense
    sources = [
        "Steam keeps the crust soft while the loaf expands. Each oven has a setting for it.",
        "The shop's return setting lets a customer bring a loaf back within a day.",
        "Steam from the oven's setting fogs the window, so open the door slowly.",
    ]
    headings = ["Baking with Steam", "Returns", "Oven Safety"]
    said = answer("What does the oven's steam setting do?", sources, headings)
    assert "crust soft" in said and "return setting" not in said
    assert "fogs the window" in said  # another source sharing more than one word still speaks


def test_another_source_holding_all_the_question_asks_about_speaks_by_one_word():
    # in a bakery book "bread" is on most pages: "crust" is all the question asks about
    sources = [
        "Bread browns in the last minutes. Crust forms where the dough dries out.",
        "A thick crust comes from a long bake at high heat.",
    ]
    said = answer("Why does bread have a crust?", sources, ["Baking", "Heat"], terms("bread"))
    assert "thick crust" in said
    # so does a unit holding the thing a question asks to be defined
    sources = ["A banneton holds the dough.", "A **banneton** is a cane basket for proofing."]
    said = answer("What is a banneton in bakery terms?", sources, ["Tools", "Glossary"])
    assert "cane basket" in said
    # and one holding the earlier topic a follow-up was given
    sources = [
        "Brush the banneton once it is dry. Clean the cane with a stiff brush.",
        "Keep a banneton in a dry cupboard.",
    ]
    said = answer("How do I clean and store it? (banneton)", sources, ["Care", "Keeping"])
    assert "dry cupboard" in said


def test_a_pages_prerequisites_say_what_its_subject_needs_when_that_is_asked():
    question = "Does it need a stone deck? (Hearth Ovens)"
    needs = "You should have read the proofing lesson first."
    assert states_requirements(question, "Prerequisites", "Hearth Ovens", needs, frozenset())
    # or, when the question names no page, what it asks about
    deck = "You need an oven with a stone deck of at least 60 cm."
    assert states_requirements(
        "What stone deck do I need?", "Prerequisites", "Hearth Ovens", deck, frozenset()
    )
    # another page's prerequisites, or a question that asks no requirement, restate
    assert not states_requirements(question, "Prerequisites", "Proofing", needs, frozenset())
    assert not states_requirements(
        "How hot do hearth ovens get?", "Prerequisites", "Hearth Ovens", needs, frozenset()
    )
    assert not states_requirements(question, "Key Takeaways", "Hearth Ovens", needs, frozenset())
    # the thing asked about, when it is one of the book's everyday words, names nothing
    everyday = terms("stone deck")
    assert not states_requirements(
        "What stone deck do I need?", "Prerequisites", "Hearth Ovens", deck, everyday
    )


def test_each_part_of_a_question_is_met_by_its_best_unit():
    text = (
        "A shaper's job is to take the recipe and keep returning a Tray from shape. "
        "The shape callback keeps returning a Tray for each sub-loaf of the recipe. "
        "Bakewell calls shape for every recipe and keeps the returning loaves. "
        "Bakewell samples keep returning one loaf from shape. "
        "Recipe samples keep returning one Tray from shape each time. "
        "Shapers turn dough into a Bakewell intermediate form, also known as a Tray."
    )
    said = answer(
        "What's a Tray in Bakewell? The recipe samples keep returning one from shape.",
        [text, "Ovens are cleaned nightly."],
        ["Shapers", "Cleaning"],
    )
    # the units chosen for the whole question each hold "Tray" or "Bakewell", never both
    assert "also known as a Tray" in said


def test_a_command_line_how_to_gets_the_command_before_any_program():
    text = (
        "An oven is driven by a small program:\n\n"
        "```python\noven = Oven()\noven.bake(loaf, minutes=40)\n```\n\n"
        "You can bake from the terminal too: `ovenctl bake --minutes 40 loaf`."
    )
    said = answer("How do I bake a loaf from the command line?", [text], ["Baking"])
    assert "`ovenctl bake --minutes 40 loaf`" in said
    assert "oven.bake(" not in said
    # asked for code in general, the program comes first, as before
    assert "oven.bake(" in answer("Show me the code to bake a loaf", [text], ["Baking"])


def test_a_request_for_code_in_a_named_language_gets_a_block_in_that_language():
    sources = [
        "Steam keeps the crust thin. Consider this oven program:\n\n"
        "```js\noven.start({ steam: true, minutes: 40 });\n```",
        "An oven reads its settings from a file next to the recipe.\n\n"
        '```json\n{\n  "steam": true,\n  "minutes": 40\n}\n```',
    ]
    headings = ["Steam", "Oven settings"]
    said = answer("Show me the oven settings in JSON for a steamed loaf.", sources, headings)
    assert '"minutes": 40' in said
    # a file's extension names its language too
    assert '"minutes": 40' in answer("Show me an oven.json for steam.", sources, headings)
    # naming no language, the best-ranked source's block is the answer
    unnamed = answer("Show me the oven settings for a steamed loaf.", sources, headings)
    assert "oven.start" in unnamed and '"minutes": 40' not in unnamed


def test_a_sentence_telling_of_a_failure_brings_the_remedy_after_it():
    text = (
        "A crowded oven holds too much steam, so loaves fail to rise evenly. Bake at most six "
        "at a time and leave a hand's width between them.\n\n"
        "Rye flour is sold in sacks of twenty kilograms."
    )
    said = answer("Why do my loaves fail to rise evenly in a crowded oven?", [text], ["Ovens"])
    assert "Bake at most six" in said and "sacks" not in said
    # a sentence that tells of no failure does not bring the next one
    calm = text.replace("so loaves fail to rise evenly", "so loaves rise slowly")
    assert "Bake at most six" not in answer("Why do loaves rise slowly?", [calm], ["Ovens"])


def test_a_sentence_warning_against_something_brings_what_to_do_instead():
    text = (
        "Loaves can be scored by hand or with a lame. Try to avoid opening the oven door "
        "during the first ten minutes of a bake. A steam tray on the bottom shelf keeps "
        "the crust soft instead.\n\n"
        "Rye flour is sold in sacks of twenty kilograms."
    )
    said = answer("Can I open the oven door during the first minutes of a bake?", [text])
    assert "A steam tray on the bottom shelf" in said and "sacks" not in said
    calm = text.replace("Try to avoid opening", "Bakers rarely open")
    asked = "Do bakers open the oven door during the first minutes of a bake?"
    assert "A steam tray" not in answer(asked, [calm])


def test_a_reported_failure_is_answered_first_by_the_source_that_says_when_it_happens():
    sources = [
        "The order screen below lists each bread order as it arrives from the counter.\n\n"
        "```python\nscreen.show(orders, refresh_seconds=5)\n```",
        "An order screen that lost its connection will not update: the counter keeps taking "
        "orders it never sees. Reconnect it from the settings page.",
    ]
    headings = ["The order screen", "Connection"]
    said = answer("Why is the order screen not updating?", sources, headings)
    assert said.index("will not update") < said.index("lists each bread order")
    # asked how it works, the best-ranked source speaks first
    said = answer("How does the order screen list the orders?", sources, headings)
    assert said.startswith("The order screen below lists")


def test_asked_what_a_thing_is_or_does_the_section_named_after_it_opens_the_answer():
    sources = [
        "Shaping tools come in many kinds. A `banneton` is a shaping tool.",
        "Use a banneton to hold a round loaf while it proofs, so it keeps its shape.",
    ]
    headings = ["Shaping tools", "`banneton(size)`"]
    for question in ("What does the banneton do?", "What is a banneton?"):
        said = answer(question, sources, headings)
        assert said.index("Use a banneton to hold") < said.index("is a shaping tool"), question
    # without a section named after it, the sentence that says what it is opens the answer,
    # unhedged: a unit that defines the thing asked about is no passing mention of it
    said = answer("What is a banneton?", sources, ["Shaping tools", "Proofing"])
    assert said.split("\n\n")[0] == "A `banneton` is a shaping tool. [1]"


def test_a_heading_that_names_only_the_qualifier_of_the_asked_thing_does_not_speak():
    cabinet = (
        "A bakery is a graph of **stations**. A proofing cabinet is a warm, humid box "
        "where shaped dough rises before baking."
    )
    schedules = "Only when a rye dough proofs overnight is the proofing done in the cold room."
    said = answer(
        "What is a proofing cabinet?",
        [cabinet, schedules],
        ["Stations", "Proofing Schedules"],
    )
    assert "warm, humid box" in said
    assert "cold room" not in said


def test_a_block_brings_the_other_form_the_book_offers_after_an_or():
    text = (
        "A loaf is baked only when its ticket carries a stamp as its first line:\n\n"
        "```text\n# bake\n```\n\nor\n\n```text\n# oven\n```\n\n"
        "Rye flour is sold in sacks of twenty kilograms."
    )
    said = answer("Which stamp gets a loaf baked?", [text], ["Tickets"])
    assert "# bake" in said and "# oven" in said
    assert "\n\nor\n\n" in said  # a line of its own, uncited
    assert "sacks" not in said


def test_an_admonitions_title_brings_the_opening_of_its_body():
    text = (
        "Every oven has a steam setting that tells it how to bake.\n\n"
        "Tip: Match the steam to the flour.\n\n"
        "A rye loaf baked with wheat steam never rises: the crumb sets before the crust opens.\n\n"
        "Ovens are cleaned every night."
    )
    said = answer("What if the steam and the flour don't match?", [text], ["Steam"])
    assert "Tip: Match the steam to the flour." in said
    assert "A rye loaf baked with wheat steam never rises" in said
    assert "cleaned" not in said
    # an untitled tip reads the same; the list item after it is not its body
    untitled = (
        "Tip: Order rye loaves before noon.\n\n- Sourdough is fed at dawn.\n\nOvens are cleaned."
    )
    said = answer("When should I order rye loaves?", [untitled], ["Orders"])
    assert "before noon" in said and "Sourdough" not in said


def test_a_sentence_announcing_several_things_brings_what_it_announces():
    text = (
        "A loaf that rises in the proofer and falls in the oven has met **oven spring "
        "failure**. The failure has several causes. *Cold* dough: the yeast wakes too late. "
        "*Weak* flour: the gluten tears. *Wet* shaping: the crust seals before the loaf "
        "expands. Bakers start their shift at dawn.\n\n"
        "Flour is sold in sacks of twenty kilograms."
    )
    said = answer("What is oven spring failure?", [text], ["Oven Spring"])
    assert "several causes" in said
    for cause in ("*Cold* dough", "*Weak* flour", "*Wet* shaping"):
        assert cause in said
    assert "dawn" not in said and "sacks" not in said
    # a count in words brings that many
    two = (
        "Rye is proofed in baskets for two reasons. The dough is sticky. The loaves spread. "
        "The crumb sours."
    )
    said = answer("Why is rye proofed in baskets?", [two], ["Rye"])
    assert "The dough is sticky." in said and "The loaves spread." in said
    assert "sours" not in said


def test_a_sentence_adding_another_of_what_was_told_comes_with_it():
    text = (
        "Bakers can proof dough overnight in the fridge. Note that if the fridge is too cold, "
        "the dough will not rise at all by morning.\n\n"
        "Another drawback of this method is that the crust browns unevenly.\n\n"
        "Flour is sold in sacks of twenty kilograms."
    )
    question = "Is there a catch with proofing dough overnight in the fridge?"
    said = answer(question, [text], ["Proof"])
    assert "will not rise at all" in said
    assert "Another drawback of this method is that the crust browns unevenly." in said
    assert "sacks" not in said


def test_asked_what_a_thing_is_in_a_setting_the_settings_words_choose_no_sentence():
    text = (
        "A bakery runs many ovens at once. A **rota** plans them together, with their shifts "
        "and trays. Bakery rotas are usually written on a whiteboard in the bakery:\n\n"
        "```text\nbakery oven 1: rye\nbakery oven 2: wheat\n```\n\n"
        "A **tray** holds the loaves of one batch, which is how two ovens share one rack."
    )
    said = answer("What is a tray in a bakery?", [text], ["Rotas"])
    assert "A **tray** holds the loaves of one batch" in said
    assert "whiteboard" not in said and "bakery oven 1" not in said


def test_a_word_met_only_in_a_file_name_does_not_answer():
    # "talk" names the example's file, not what the shift does
    line = (
        "Ovens on one line share a bus. Each oven announces its heat on the bus, "
        "and the other ovens listen."
    )
    shift = "Run the morning shift with `bakectl start talk.shift.yaml`."
    said = answer("How do ovens talk to each other?", [line, shift])
    assert "announces its heat" in said and "bakectl" not in said
    said = answer("What does talk.shift.yaml start?", [line, shift])
    assert "bakectl start talk.shift.yaml" in said
