"""Answers composed from the book's own sentences, for when no LLM is configured.

Each graded chunk is cut into units (sentences, list items, headings, tables, code blocks) that
remember their paragraph or list. A unit's relevance is the share of the question's topic terms
it holds, each term weighted by how rare it is among the first four sources' units (a word on
every line, such as the book's subject, tells the units apart least), with some credit for the
headings above it. The best chunk's most relevant units speak first (the reranker's first choice
always contributes), another chunk adds a unit only when that unit is relevant on its own and
brings a topic term the answer lacks (or, when the best chunk answers only weakly, holds two of
the question's topic terms or all it asks about: one shared word is often a homonym). A long
question (a scene and several asks: more topic terms than `TYPICAL_TOPIC_TERMS`) gets more units
of each source, and another source's unit speaks at a lower share of its topic. When the best
chunk's units share few of the question's words (a reader's own words for the book's terms), its
opening comes too: the reranker chose it on more than words, and a section's first sentences say
what it is about. Then each unit gets what it needs to be read (`cohesion`): the sentence its
"it" points back to, its numbered list whole, what its lead-in introduces. A structural question
("what are the learning objectives…") gets its section's list (of a long nested one, the top-
level points), a request for code gets the best code block whole (in the language it names, if
it names one: "a .prettierrc in JSON"), a how-to question answered in prose gets the short
command that follows the explanation, and a question that asks why gets a sentence that gives a
reason. A sentence that tells of something failing brings the next one of its paragraph, where
books say what to do about it, and a reader who reports a failure is answered first by the
source that speaks of it going wrong. The source whose heading names the question (or each of
its parts) speaks. A unit the author set in bold counts more: it states a key point. A list
under a "See also", "Further information" or "Table of Contents" heading (inside the source, or
heading it) is links to elsewhere, not an answer, and is never chosen; nor is a list of links
offered as further reading ("For more…, see:"). The same code shown in two language tabs is said
once. A structural section (objectives, a summary, exercises, prerequisites) speaks for a
question that does not ask for one only when no source that teaches can. A source whose section
is named after a code name (an option, a flag, an API) opens with that name, which the chunk's
text leaves out. A question that asks how long or how many gets a sentence that states the
amount. When no unit holds the question's main topic, or the reader reports a failure that
nothing quoted speaks of, the answer says the book only touches it before giving the closest
material. When a how-to question is best met by a section listing what the reader should have
done before starting, the answer says the book assumes that step and quotes only that section."""

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import pairwise

from agent.offline.cohesion import (
    ALTERNATIVE,
    Place,
    answering_rows,
    ends_in_colon,
    introduces,
    leans_back,
    with_context,
)
from agent.offline.condense import appended_topic, asking_part
from agent.offline.decompose import question_parts
from agent.offline.text import (
    FILE_NAME,
    FLAG,
    LINK_ITEM,
    TYPICAL_TOPIC_TERMS,
    Unit,
    answer_terms,
    asks_advice,
    asks_amount,
    asks_command_line,
    asks_for_code,
    asks_how_to,
    asks_knowledge,
    asks_name,
    asks_requirement,
    asks_what_it_does,
    asks_why,
    block_language,
    defined_thing,
    defines,
    emphasised,
    failing_subject,
    failure_words,
    gives_advice,
    gives_reason,
    heading_answers_intent,
    heading_text,
    introduces_term,
    is_block,
    is_code,
    is_heading,
    is_label,
    is_list_item,
    is_shell_block,
    is_table,
    is_title,
    named_languages,
    names_code,
    names_in_code,
    negated,
    parse_units,
    says_command,
    speaks_of_trouble,
    states_amount,
    structural_intent,
    taught_elsewhere,
    tells_failure,
    tells_what_it_does,
    terms,
    thing_terms,
    topic_terms,
    warns_against,
    without_file_names,
    without_setting,
    written_in_asked_syntax,
)
from core.structure import titles_section

ARGUMENTS = re.compile(r"\([^()]*\)")
"""An API heading's argument list: the "(value)" of "`.toEqual(value)`"."""
CODE_FENCE_INFO = re.compile(r"^(`{3,}|~{3,})[^\n]*")
READING_LEAD = re.compile(
    r"\bsee\b|\bread\b|\bfurther\b|\bmore (?:about|on|information|details)\b|\bresources\b"
    r"|\breferences?\b",
    re.IGNORECASE,
)
"""A lead-in that sends the reader elsewhere: "For more on this, see:", "Further reading:"."""
READING_LABEL = re.compile(
    r"^\W*(?:documentation|docs|articles?|discussions?|further (?:reading|information)"
    r"|resources|references|see also|blog posts?|videos?|talks?)\W*$",
    re.IGNORECASE,
)
"""A bold label that names reading material: "**Articles**", "**Discussions**"."""
MAX_LIST_ITEMS = 8
CODE_DOCUMENTS = 2
"""Code is taken from the two best sources only; a lower one's block is rarely the answer."""
FIRST_UNITS = 4
"""How many units the best source gives on their own merit."""
LONG_QUESTION_UNITS = 2
"""How many more a question of more than `TYPICAL_TOPIC_TERMS` topic terms gets (a scene and
two asks), from the best source and from the others each (`SECONDARY_UNITS`). From the best
source: fact recall 0.738 / 0.691 / 0.599 -> 0.743 / 0.699 / 0.610 (shipped weights), no fact
lost, answers 1-5 % longer. From the others, once such a question reads six sources
(`agent.graph.answer_sources`): the fifth and sixth no longer take the places of the first
four's second-best units (Testing Library's "return `null` if no elements match"); fact recall
0.753 / 0.705 / 0.614 -> 0.755 / 0.711 / 0.621, Redux answers 14 % longer."""
OPENING_UNITS = 2
"""How many of the best source's first units come along when none of its units matches well."""
SECONDARY_UNITS = 4
"""How many units the other sources may add."""
UNITS_PER_SOURCE = 2
"""How many of those one other source may give."""
RELATIVE_RELEVANCE = 0.3
"""A unit of the best source must be this close to its best unit's relevance."""
MIN_SECONDARY_RELEVANCE = 0.1
"""Weighted share of the question's topic the best unit of another source must hold (its
second best, twice as much): low, because the reranker's first choice is often not the section
that answers, yet high enough to leave out a sentence that shares one common word. A question
with more than `TYPICAL_TOPIC_TERMS` topic terms asks for less (`_secondary_floor`): against a
floor that ignores the count, fact recall 0.728 / 0.676 / 0.581 -> 0.738 / 0.691 / 0.599 and
citation hit 0.781 / 0.717 / 0.752 -> 0.791 / 0.723 / 0.767 (humanoid / Redux / Prettier,
shipped weights), no fact lost, answers about 11 % longer; lowering the floor to 0.07 for every
question gained as much but added units that shared one word with short questions."""
STRONG_COVERAGE = 0.75
"""Once the best source holds this much of the question's topic in one unit, another source
speaks only to add a topic term (see also `DIRECT_COVERAGE`)."""
COMMAND_REACH = 4
"""How many units after a how-to answer's explanation its command may follow."""
THIN_EXPLANATION = 2
"""At most this many units of the best source explain a how-to thinly (`_command_after`)."""
EXAMPLE_LINES = 16
"""The longest program a prose answer quotes when it is all the best source holds."""
SHORT_CODE_LINES = 8
"""A prose answer may quote a code block this short (fence lines aside): a command or a few
lines of configuration. Against 4: Jest fact recall 0.72 -> 0.76 (held out), Prettier
citation hit 0.81 -> 0.82, humanoid one more fact; answers 1 % longer."""
HEADING_CREDIT = 0.3
"""What a topic term counts for when it is in a unit's heading rather than in the unit."""
EMPHASIS_CREDIT = 1.5
"""How much more a unit's share of the question counts when the author set it in bold (1.25
and 1.5 quote the same facts on the three question sets; 2 loses some)."""
FAILURE_COVERAGE = 0.5
"""How much of a question about something that does not happen a sentence of another source
must hold to be quoted as saying when it does not (`_failure`)."""
TAUGHT_COVERAGE = 0.5
"""How much of a how-to question another source's unit must hold (with every word of it
beyond the book's everyday ones) for the book to teach what a page's prerequisites ask for
(`_prerequisite`)."""
FULL_COVERAGE = 1.0
"""A table holding every topic term of the question compares what it asks about: another
source's such table speaks even when the chosen units already say all those words."""
DOCUMENT_PRIOR = (1.0, 0.75, 0.6, 0.5, 0.4)
WEIGHING_SOURCES = 4
"""A topic term's weight is its rarity among the units of this many first sources (the default
`top_k`): the two more a long question reads are scored with the same weights, so reading them
does not change which units of the first four speak. Against weighing over all six: fact
recall 0.745 / 0.711 / 0.625 -> 0.755 / 0.711 / 0.621, and on the spot-check books Socket.IO
0.73 -> 0.77 and Zustand 0.76 -> 0.82."""
DIRECT_COVERAGE = 0.35
"""Below this share of the question's topic in every unit (and with no heading naming any of
it), the book only touches the question. Set low: a paraphrased question shares few words with
the passage that answers it, and saying "not directly" of an answer is worse than not saying
it."""
ONLY_TOUCHED = "This does not seem to be answered directly; these are the closest passages:"
ONLY_A_PREREQUISITE = (
    "This is not explained here; it is only listed as something to have in place first:"
)
NOT_IN_SELECTION = (
    "The selected text does not seem to answer this question. Try selecting a passage that "
    "covers it, or ask without a selection to search the whole book."
)


@dataclass(frozen=True)
class Excerpt(Place):
    """A unit of text taken from a source, with how well it answers the question."""

    score: float = 0.0
    """Relevance times the source's rank prior: what the selection sorts by."""
    topic: frozenset[int] = frozenset()
    """The question's topic terms in the unit or its headings."""
    headed: bool = False
    """Whether the unit's heading holds one of the question's topic terms."""
    coverage: float = 0.0
    """Weighted share of the question's topic terms in the unit (and its headings)."""
    note: bool = False
    """A sentence of ours, not the book's: printed without a citation."""
    pointer: bool = False
    """Whether the unit only points elsewhere (a reading list, a "See also" section): it
    answers nothing itself."""


def _term_weights(wanted: frozenset[int], units: list[str]) -> dict[int, float]:
    """IDF of each wanted term over the units; terms no unit holds get the highest weight."""
    found = [terms(unit) for unit in units]
    weights = {}
    for term in wanted:
        frequency = sum(term in unit_terms for unit_terms in found)
        weights[term] = math.log(1 + len(found) / max(frequency, 0.5))
    return weights


def _coverage(weights: dict[int, float], unit: frozenset[int], heading: frozenset[int]) -> float:
    total = sum(weights.values())
    if not total:
        return 0.0
    inside = sum(w for t, w in weights.items() if t in unit)
    above = sum(w for t, w in weights.items() if t in heading and t not in unit)
    return (inside + HEADING_CREDIT * above) / total


def _score_units(question: str, parsed: list[list[Unit]], headings: list[str]) -> list[Excerpt]:
    """Every unit of the parsed sources, scored for `question`. A flag the question writes
    (`--write`) is met only where it is written, not by its word ("I want to write code")."""
    weighing = [u.text for units in parsed[:WEIGHING_SOURCES] for u in units]
    weights = _term_weights(answer_terms(question), weighing)
    flags = _flag_terms(question)
    files = frozenset(name.lower() for name in FILE_NAME.findall(question))
    excerpts = []
    for document, units in enumerate(parsed):
        prior = DOCUMENT_PRIOR[min(document, len(DOCUMENT_PRIOR) - 1)]
        own = headings[document] if document < len(headings) else ""
        heading = _written_terms(own, flags)
        links_only = titles_section("references", own)  # a "See also" or contents section
        reading_list = _reading_list(units)
        for position, unit in enumerate(units):
            if is_heading(unit.text):
                heading = _written_terms(heading_text(unit.text), flags)
                links_only = titles_section("references", heading_text(unit.text))
            pointer = links_only or position in reading_list
            said = _written_terms(without_file_names(unit.text, files), flags)
            coverage = 0.0 if pointer else _coverage(weights, said, heading)
            if emphasised(unit.text):
                coverage = min(1.0, coverage * EMPHASIS_CREDIT)
            score = coverage * prior + 0.05 / (1 + position)
            topic = frozenset(weights) & (said | heading)
            place = Excerpt(document, position, unit.group, unit.ordered, unit.text, unit.nested)
            headed = bool(heading & topic)
            excerpts.append(
                replace(
                    place,
                    score=score,
                    coverage=coverage,
                    topic=topic,
                    headed=headed,
                    pointer=pointer,
                )
            )
    return excerpts


def _flag_terms(question: str) -> dict[str, frozenset[int]]:
    """Each command-line flag the question writes, with its terms that the rest of the question
    does not say in words."""
    lowered = question.lower()
    flags = FLAG.findall(lowered)
    plain = terms(FLAG.sub(" ", lowered))
    return {flag: terms(flag) - plain for flag in flags}


def _written_terms(text: str, flags: dict[str, frozenset[int]]) -> frozenset[int]:
    """The terms of `text`, less those of each of `flags` it does not write as the flag."""
    found = terms(text)
    if not flags:
        return found
    lowered = text.lower()
    for flag, flag_terms in flags.items():
        if flag not in lowered:
            found -= flag_terms
    return found


def _reading_list(units: list[Unit]) -> set[int]:
    """Positions of the units that only point elsewhere: a list whose every item is one link
    ("- **[You Might Not Need Redux](…)**"), with the sentence that introduces it as further
    reading ("For more thoughts on how Redux is meant to be used, see:") or the bold label
    that names it so ("**Discussions**", whose "#291: Trying to put API calls in the right
    place" would answer "Where do I put API calls?" in a link's title). A list of links
    without such a lead-in can be the answer (the tools that make ESLint and Prettier agree)."""
    groups: dict[int, list[int]] = {}
    for position, unit in enumerate(units):
        if is_list_item(unit.text):
            groups.setdefault(unit.group, []).append(position)
    pointing: set[int] = set()
    for positions in groups.values():
        lead = positions[0] - 1
        if lead < 0 or not all(LINK_ITEM.match(units[p].text) for p in positions):
            continue
        lead_in = units[lead].text
        reading_label = is_label(lead_in) and READING_LABEL.match(lead_in.strip("*_ "))
        if (ends_in_colon(lead_in) and READING_LEAD.search(lead_in)) or reading_label:
            pointing.update([lead, *positions])
    return pointing


def select_excerpts(
    question: str,
    texts: list[str],
    headings: list[str],
    everyday: frozenset[int] = frozenset(),
    structural_sources: frozenset[int] = frozenset(),
    sure_of_best: bool = False,
    titles: list[str] | None = None,
) -> list[Excerpt]:
    """The excerpts of `texts` (best document first) that answer `question`, in reading order.

    `everyday` are the question's terms that are on most of the book's pages (see
    `Vocabulary.everyday`): another source's unit that shares only these with the question
    ("The robot drives in a circle." for "How do I make my robot see obstacles?" in a
    robotics book) does not speak, unless every topic term of the question is one of them.
    `structural_sources` are the structural sections among them (objectives, summaries,
    exercises, prerequisites): unless the question asks for such a section, they restate what
    other sections teach or list what to have done first, so they speak only when no other
    source can
    ("Decide between a topic, a service and an action" after the sections that
    explain each; "You should have written the talker and listener…" after the tools that
    list running topics). `sure_of_best` says the reranker is sure of the best source (the
    graph's `sure_of_best_source`): the answer then does not say the book only touches the
    question, however few of its words the sources share ("What does compose actually do
    with the functions I pass it?": "Composes functions from right to left."). When it is not
    sure, a question whose topic words are all `everyday` ("How does the robot know where it
    is?") is said to be only touched: nothing but the meaning can match it."""
    named = [*headings, *[""] * (len(texts) - len(headings))]
    parsed = [_parsed(text, heading) for text, heading in zip(texts, named, strict=False)]
    every = _score_units(without_setting(question), parsed, headings)
    # headings come with what they head; a pointer elsewhere answers nothing
    excerpts = [e for e in every if not is_heading(e.text) and not e.pointer]
    if not excerpts:
        return []
    wanted = answer_terms(question)
    structural = _structural(question, excerpts, headings)
    prerequisite = _prerequisite(question, excerpts, headings, wanted - everyday)
    special = structural or prerequisite or _code(question, excerpts)
    everyday |= failure_words(question)  # "fails" tells no sentence of another source apart
    only_everyday = bool(wanted) and not wanted - everyday  # nothing but "robot" in a robot book
    if not wanted - everyday:
        everyday = frozenset()
    restating = frozenset() if structural_intent(question) else structural_sources
    subjects = _subjects(question, wanted - everyday)
    earlier = topic_terms(appended_topic(question)[1])
    chosen = special or [
        *_asked_example(question, excerpts),
        *_prose(excerpts, everyday, restating, len(wanted), subjects, earlier),
    ]
    thing = "" if special else defined_thing(question)  # what the question asks to be defined
    subject = thing_terms(thing)
    if not special:  # a prose answer: what the units chosen by shared words leave out
        named_by = (headings, titles or [])
        score_part = _part_scorer(parsed, headings)
        chosen += _named_sections(
            question, score_part, named_by, chosen, excerpts, everyday, subject, restating
        )
        chosen += _each_part(question, score_part, chosen, excerpts, everyday)
        if asks_how_to(question):
            chosen += _command_after(chosen, excerpts)
        if asks_why(question):
            chosen += _stated(chosen, excerpts, gives_reason)
        if asks_advice(question):
            chosen += _stated(chosen, excerpts, gives_advice)
        if asks_amount(question):
            chosen += _stated(chosen, excerpts, states_amount)
        if subject:
            chosen += _definition(chosen, excerpts, subject, asks_what_it_does(question))
            chosen = _naming_the_thing(chosen, every, subject)
        if asks_name(question):
            chosen += _names(question, chosen, excerpts)
        if negated(question):
            chosen += _failure(chosen, excerpts)
        chosen += _remedies(chosen, excerpts)
    named_after = _named_after(thing, headings)
    leading = _opening_source(chosen, subject, failing_subject(question), named_after)
    unique: dict[str, Excerpt] = {}
    in_order = sorted(
        with_context(chosen, every), key=lambda e: (e.document != leading, e.document, e.position)
    )
    tables: list[frozenset[int]] = []
    for excerpt in in_order:
        if is_block(excerpt.text):
            excerpt = replace(excerpt, text=answering_rows(excerpt.text, wanted))
        if is_table(excerpt.text):
            table = terms(excerpt.text)
            if any(table <= said for said in tables):
                continue  # another page's copy of a table already quoted (a cheatsheet's)
            tables.append(table)
        unique.setdefault(_said(excerpt.text), excerpt)  # split sections overlap: say once
    answer = _without_bare_headings(list(unique.values()))
    if prerequisite:
        return [replace(answer[0], text=ONLY_A_PREREQUISITE, note=True), *answer]
    if structural:
        return answer
    unsure = not sure_of_best and (
        only_everyday
        or (_only_touched(excerpts) and not _asked_directly(question, parsed, headings))
        or _met_in_passing(wanted - everyday, parsed, headings)
    )
    if not (
        unsure
        or _earlier_topic_unsaid(earlier, answer, everyday)
        or _failure_unmet(question, answer)
    ):
        return answer
    return [replace(answer[0], text=ONLY_TOUCHED, note=True), *answer]


def _without_bare_headings(answer: list[Excerpt]) -> list[Excerpt]:
    """`answer` without the headings and titles under which it says nothing of their source:
    what they head was said once already, by another source that repeats it (Jest's
    "TypeScript" section of its v29 migration notes, whose note on importing the Jest APIs is
    the Globals page's, word for word)."""

    def heads(excerpt: Excerpt) -> bool:
        return is_heading(excerpt.text) or is_title(excerpt.text)

    def bare(heading: Excerpt) -> bool:
        return not any(
            e.document == heading.document and e.position > heading.position and not heads(e)
            for e in answer
        )

    return [e for e in answer if not (heads(e) and bare(e))]


def _met_in_passing(
    uncommon: frozenset[int], parsed: list[list[Unit]], headings: list[str]
) -> bool:
    """Whether a question about one thing (a single topic term beyond the book's everyday
    words) meets it in the best source only in passing: in one of its units at most, and not
    in its headings ("How do I make the robot walk?" met by Visual SLAM's "…will still make a
    walking robot stumble"). With two such terms or more, one met once is common in a source
    that answers: measured on eleven books, that reading hedged 27 answers, 18 of them
    holding every fact. A unit that defines the thing ("4. **Grounding**: resolve…") meets it
    in its own right."""
    if len(uncommon) != 1 or not parsed:
        return False
    if uncommon & terms(headings[0] if headings else ""):
        return False
    if any(defines(unit.text, uncommon) for unit in parsed[0]):
        return False
    return sum(bool(uncommon & terms(unit.text)) for unit in parsed[0]) <= 1


def _earlier_topic_unsaid(
    earlier: frozenset[int], answer: list[Excerpt], everyday: frozenset[int]
) -> bool:
    """Whether a follow-up's `earlier` topic ("how do i install it? (gazebo)") is beyond the
    book's everyday words and no unit the answer quotes holds it, in itself or its heading
    (`Excerpt.topic`): the sources answer the follow-up's words about something else (building
    a workspace's `install/` folder)."""
    topic = earlier - everyday
    return bool(topic) and not topic & frozenset().union(*(e.topic for e in answer))


def _failure_unmet(question: str, answer: list[Excerpt]) -> bool:
    """Whether the reader reports that something goes wrong and nothing the answer quotes
    speaks of anything going wrong: the sources then say how the thing works, not why it
    fails ("colcon build fails, what do I do?" met by how to build a workspace), and the
    answer says that it is not the answer asked for, however sure the reranker is of them. A
    unit that shares only the failure's word ("…makes TF lookups fail") speaks of another
    thing going wrong."""
    subject = failing_subject(question)
    return bool(subject) and not any(
        speaks_of_trouble(e.text) and subject & terms(e.text) for e in answer
    )


def states_requirements(
    question: str, heading: str, title: str, text: str, everyday: frozenset[int]
) -> bool:
    """Whether a structural section says what the question asks its subject to require rather
    than restating what other sections teach: prerequisites that name the page the question
    names, or the thing it asks about, when it asks what is needed ("Does it need a GPU?
    (Isaac Sim)", "What GPU do I need?": Isaac Sim Fundamentals' "You need tier 2 hardware:
    an NVIDIA RTX GPU…"). Otherwise a page's prerequisites list what to have done before it
    ("You should have written the talker and listener…" for "How do I see what topics are
    running?")."""
    if not (asks_requirement(question) and titles_section("prerequisites", heading)):
        return False
    return bool((terms(f"{title} {text}") & answer_terms(question)) - everyday)


def _said(unit: str) -> str:
    """What a unit says: a code block without its fence's language, since docs show the same
    code once per language tab (`js` and `ts` alike) and an answer should show it once."""
    return CODE_FENCE_INFO.sub(r"\1", unit) if is_code(unit) else unit


def _parsed(text: str, heading: str) -> list[Unit]:
    """A source's units. A section named after a code name (an option, a flag, an API:
    "`rootMode`", "--frozen-lockfile") opens with its heading, which the chunk's text leaves
    out: what the section says is about that name, and an answer from it must say the name
    ("Which flag makes the install fail on an outdated lockfile?")."""
    units = parse_units(text)
    if names_code(heading):
        return [Unit(f"### {heading}", group=-1), *units]
    return units


def _only_touched(excerpts: list[Excerpt]) -> bool:
    """Whether these excerpts barely meet the question: no unit holds a good part of its topic,
    and no heading names any of it."""
    return not any(e.coverage >= DIRECT_COVERAGE or e.headed for e in excerpts)


def _asked_directly(question: str, parsed: list[list[Unit]], headings: list[str]) -> bool:
    """Whether a question that sets a scene before it asks is met directly in what it asks:
    the scene's words (the reader's setup, symptoms, earlier attempts) need not be in the book
    ("…the HTML it dumps gets chopped off with '...'. How do I get it to print more?")."""
    own = asking_part(question)
    if own == question.strip():
        return False
    units = _score_units(own, parsed, headings)
    return not _only_touched([e for e in units if not is_heading(e.text)])


def _structural(question: str, excerpts: list[Excerpt], headings: list[str]) -> list[Excerpt]:
    """The best section, when the question asks for that kind of section: its opening with
    its list whole, or, when its lists are too long for that, their top-level points (the
    sub-items only detail them)."""
    intent = structural_intent(question)
    if not (intent and headings and heading_answers_intent(intent, headings[0])):
        return []
    section = [e for e in excerpts if e.document == 0]
    items = [e for e in section if is_list_item(e.text)]
    if len(items) <= MAX_LIST_ITEMS:
        return section[:MAX_LIST_ITEMS]
    points = [e for e in items if not e.nested] or items
    return points[:MAX_LIST_ITEMS]


def _prerequisite(
    question: str, excerpts: list[Excerpt], headings: list[str], asked: frozenset[int]
) -> list[Excerpt]:
    """The best source's relevant units alone, when a how-to question is best met by a
    section listing what the reader should have done before starting, in a unit that holds
    most of what is asked ("Install ROS 2 Jazzy and source its setup script"): the book
    assumes that step rather than teaching it, and the other sources' steps (creating a
    workspace) would answer a different question. A unit that says what the reader should
    already know ("You need to know ROS 2 actions and what a VLA model does") is not such a
    step: the book teaches that elsewhere or takes it as read, and the sections that use it
    answer. Nor is a step that says where the book teaches it ("A running Gazebo world with a
    spawned robot, from the previous lesson"): the caveat would be untrue. Nor when another
    source's sentence holds most of the question and every word of it beyond the book's
    everyday ones (`asked`: "an emergency stop that cuts motor power…" in "Layers of Safety",
    for "How do I stop the robot in an emergency?", whose lesson's prerequisites ask for a
    robot with one): the book teaches it there. A program does not teach it by its words (a
    workspace's `colcon build --symlink-install` in a book whose commands all start `ros2`
    does not say how to install ROS 2)."""
    if not (asks_how_to(question) and headings) or structural_intent(question):
        return []
    if not heading_answers_intent("prerequisites", headings[0]):
        return []
    own = _best(e for e in excerpts if e.document == 0 and e.coverage > 0)
    if not own or own[0].coverage < STRONG_COVERAGE:  # it does not name what is asked
        return []
    if asks_knowledge(own[0].text) or taught_elsewhere(own[0].text):  # not a step it leaves out
        return []
    if asked and any(
        e.document and asked <= e.topic and e.coverage >= TAUGHT_COVERAGE and not is_code(e.text)
        for e in excerpts
    ):
        return []  # another source says all of it: the book teaches it there
    return own[:FIRST_UNITS]


def _code(question: str, excerpts: list[Excerpt]) -> list[Excerpt]:
    """The best-ranked source's best code block with its best sentences, for a code request;
    of the blocks in the language the question names, when a source holds one (Prettier's
    "Show me a .prettierrc in JSON…" ranks its rationale's JavaScript about semicolons first
    and the configuration page's JSON second)."""
    if not asks_for_code(question):
        return []
    code = [e for e in excerpts if is_code(e.text) and e.document < CODE_DOCUMENTS]
    if asks_command_line(question):  # a command to type, before any program
        near = [e for e in excerpts if e.document < CODE_DOCUMENTS and e.coverage > 0]
        shell = [e for e in near if is_shell_block(e.text)]
        code = shell or [e for e in near if says_command(e.text)] or code
    if not code:
        return []
    languages = named_languages(question)
    code = [e for e in code if block_language(e.text) in languages] or code
    best = min(code, key=lambda e: (e.document, -e.score))  # rank beats a block's word overlap
    prose = [e for e in excerpts if not is_code(e.text)]
    lead = _best(e for e in prose if e.document == best.document)
    top = _best(e for e in prose if e.document == 0)
    return [best, *lead[:2], *(top[:2] if best.document else [])]


def _best(excerpts: Iterable[Excerpt]) -> list[Excerpt]:
    """Relevant excerpts, best first, that come close enough to the best one."""
    ranked = sorted(excerpts, key=lambda e: -e.score)
    if not ranked:
        return []
    floor = RELATIVE_RELEVANCE * ranked[0].coverage
    return [ranked[0], *(e for e in ranked[1:] if e.coverage > 0 and e.coverage >= floor)]


def _prose(
    excerpts: list[Excerpt],
    everyday: frozenset[int],
    restating: frozenset[int],
    asked: int,
    subjects: list[frozenset[int]],
    earlier: frozenset[int],
) -> list[Excerpt]:
    """The best source's most relevant units, then what the others add (none that shares only
    `everyday` terms with the question). Long programs are left out unless the sources hold
    nothing else; a source that is only a program gives way, as does a `restating` one. A
    question of more than `TYPICAL_TOPIC_TERMS` topic terms (`asked`) asks for more: the best
    source and the others each give `LONG_QUESTION_UNITS` more units, and the others' units
    speak at a lower share of its topic (`_secondary_floor`). `subjects` are the ways the
    question says what it is about (`_subjects`), `earlier` a follow-up's earlier topic."""
    excerpts = [e for e in excerpts if _readable(e.text)] or excerpts
    excerpts = [e for e in excerpts if e.document not in restating] or excerpts
    first = min(e.document for e in excerpts)
    own = [e for e in excerpts if e.document == first]
    more = LONG_QUESTION_UNITS if asked > TYPICAL_TOPIC_TERMS else 0
    chosen = _best(own)[: FIRST_UNITS + more]
    if _only_touched(chosen):
        chosen += [e for e in own[:OPENING_UNITS] if e not in chosen]
    others = [
        e
        for e in excerpts
        if e.document > first and not e.topic <= everyday and e.document not in restating
    ]
    floor = _secondary_floor(asked)
    most = SECONDARY_UNITS + more
    return chosen + _from_others(chosen, others, floor, most, subjects, earlier)


def _part_scorer(parsed: list[list[Unit]], headings: list[str]) -> Callable[[str], list[Excerpt]]:
    """`_score_units` for a part of the question, each part scored once however many rules
    read it (`_named_sections`, `_each_part`)."""
    scored: dict[str, list[Excerpt]] = {}

    def score(part: str) -> list[Excerpt]:
        if part not in scored:
            scored[part] = _score_units(part, parsed, headings)
        return scored[part]

    return score


def _named_sections(
    question: str,
    score_part: Callable[[str], list[Excerpt]],
    named_by: tuple[list[str], list[str]],
    chosen: list[Excerpt],
    excerpts: list[Excerpt],
    everyday: frozenset[int],
    subject: frozenset[int],
    restating: frozenset[int],
) -> list[Excerpt]:
    """The best unit of the best-ranked source whose heading names the question (for a
    question in parts, each part: "the difference between `--check` and `--list-different`"),
    when that source has not spoken: the units chosen by shared words often come from a
    source that names the topic in passing, and the section named after it says what it is.
    A heading that is exactly the part's name comes before a longer one that holds it
    (`--check` before `--debug-check`, which answers the other side of "--check vs
    --debug-check"). A side of a comparison that no heading names is named by a source's page
    title ("the difference between URDF and SDF": the URDF lesson's "Links and Joints", after
    "Worlds in SDF" said "Unlike URDF…"), and its unit that says what the side is comes
    first. For a question that asks what `subject` is, a heading names the question only if
    it names the subject ("GPU-Accelerated ROS 2" names the ROS 2 of "What is a ROS 2 node?",
    not a node), and the section's unit that says what it is
    speaks, even when the section has spoken without saying it ("A store enhancer is a
    higher-order function…" from the glossary's "Store enhancer", after its "you'll never
    write a store enhancer"). A heading that shares only `everyday` terms with the question
    does not name it. `named_by` holds the sources' headings and page titles. A `restating`
    source (a page's prerequisites, objectives or summary) speaks for no side: its page's
    title names the side, but what it says is what to have done first ("A running Gazebo
    world with a spawned robot, from the previous lesson." for "the difference between Gazebo
    and Isaac Sim")."""
    headings, titles = named_by
    by_place = {(e.document, e.position): e for e in excerpts}
    heading_terms = [terms(h) for h in headings]
    said = [*chosen]
    asked = appended_topic(question)[0]
    parts = question_parts(asked)
    for part in parts or [asked]:
        wanted = answer_terms(part)
        named = subject if subject <= wanted else frozenset()  # a part may ask another thing
        naming = [
            d
            for d, h in enumerate(heading_terms)
            if wanted
            and 2 * len(wanted & h) >= len(wanted)
            and (wanted & h) - everyday
            and named <= h
        ]
        side: frozenset[int] = frozenset()
        if not naming and len(parts) > 1 and wanted - everyday:
            naming = [
                d for d, title in enumerate(titles) if wanted <= terms(title) and d not in restating
            ]
            side = wanted
        if not naming:
            continue
        document = next((d for d in naming if heading_terms[d] == wanted), naming[0])
        spoken = [e.text for e in said if e.document == document]
        if spoken and not _lacks_definition(spoken, subject):
            continue
        own = [
            e
            for e in score_part(part)  # scored by the part's words
            if e.document == document and (e.document, e.position) in by_place
        ]
        readable = [e for e in own if _readable(e.text)]
        defining = [e for e in readable if defines(e.text, subject or side)]
        if defining or (readable and not spoken):
            best = max(defining or readable, key=lambda e: e.score)
            said.append(by_place[(best.document, best.position)])
    return said[len(chosen) :]


def _each_part(
    question: str,
    score_part: Callable[[str], list[Excerpt]],
    chosen: list[Excerpt],
    excerpts: list[Excerpt],
    everyday: frozenset[int],
) -> list[Excerpt]:
    """For a question in parts ("how do I get the state into the page, and then start the
    browser's store from it?"), each part's best unit among the sources, scored by the part's
    own words, when no unit chosen meets that part as well: units chosen for the whole
    question favour the part whose words the sources repeat."""
    parts = question_parts(appended_topic(question)[0])
    if len(parts) < 2:
        return []
    by_place = {(e.document, e.position): e for e in excerpts}
    said = [*chosen]
    for part in parts:
        scored = [
            e
            for e in score_part(part)
            if (e.document, e.position) in by_place and _readable(e.text) and not e.pointer
        ]
        if not scored:
            continue
        best = max(scored, key=lambda e: e.score)
        meeting = {(e.document, e.position): e.coverage for e in scored}
        met = max((meeting.get((e.document, e.position), 0.0) for e in said), default=0.0)
        if best.coverage >= STRONG_COVERAGE and best.coverage > met and best.topic - everyday:
            said.append(by_place[(best.document, best.position)])
    return said[len(chosen) :]


def _lacks_definition(spoken: list[str], subject: frozenset[int]) -> bool:
    """Whether a question asks what `subject` is and none of the `spoken` units says it."""
    return bool(subject) and not any(defines(unit, subject) for unit in spoken)


def _stated(
    chosen: list[Excerpt], excerpts: list[Excerpt], states: Callable[[str], bool]
) -> list[Excerpt]:
    """The best source's most relevant sentence that `states` what the question asks for,
    when what was chosen from it states none: for a question that asks why, a reason
    ("…incurs a small upfront cost, so it's not enabled by default"); for one that asks what
    to do, advice ("the intended pattern is to have only a single store"); for one that asks
    how long or how many, an amount with its unit ("…removed from the cache after 60
    seconds"); for one that asks what a thing is, the sentence that says it ("A node is a
    process…", where "A ROS 2 system is a graph of nodes" shares more of "What is a ROS 2
    node?"). Such a sentence often shares only one word with the question."""
    first = _best_source(chosen)
    own = [e for e in excerpts if e.document == first and e.coverage > 0]
    return _first_stating([e for e in chosen if e.document == first], own, states)


def _definition(
    chosen: list[Excerpt], excerpts: list[Excerpt], subject: frozenset[int], asks_doing: bool
) -> list[Excerpt]:
    """For a question that asks what a thing is, the best source's sentence that says it
    (`_stated`); when that source says none, another source's: a section about the thing's
    limits ("Limits of Today's VLAs") can outrank the one that defines it. Asked what a tool
    does (`asks_doing`), first the sentence that names it in bold or code and says what it does
    (`tells_what_it_does`), from any source: "Bridging `/clock` is essential…" says what
    bridging one topic needs, not what the bridge does."""

    def says_what(unit: str) -> bool:
        return defines(unit, subject)

    def says_what_it_does(unit: str) -> bool:
        return tells_what_it_does(unit, subject)

    relevant = [e for e in excerpts if e.coverage > 0]
    doing = _first_stating(chosen, relevant, says_what_it_does) if asks_doing else []
    stated = doing or _stated(chosen, excerpts, says_what)
    return stated or _first_stating(chosen, relevant, says_what)


def _naming_the_thing(
    chosen: list[Excerpt], every: list[Excerpt], subject: frozenset[int]
) -> list[Excerpt]:
    """For a question that asks what a thing is, once a chosen unit introduces it as a term
    (`introduces_term`: says what it is, its name in bold or code), only the units that name
    it: the others were chosen for the words that set the thing in its field ("What is a ROS
    2 topic?" chose "A ROS 2 system is a graph of **nodes**." and the DDS sentence before "A
    **topic** is a named, typed channel…"). What a kept unit leans on or leads in to comes
    back with it (`with_context`). So does a unit of the paragraph that introduces it, or one
    that leans back on a unit naming it ("Prettier does nothing to help with those kind of
    rules. They are also the most important ones…"): both go on about it. A plain sentence
    that seems to say what the thing is does not decide: "the difference between the two" or
    "the steps" are no terms."""
    introducing = {(e.document, e.group) for e in chosen if introduces_term(e.text, subject)}
    if not introducing:
        return chosen
    at = {(e.document, e.position): e for e in every}

    def about_it(unit: Excerpt) -> bool:
        previous = at.get((unit.document, unit.position - 1))
        return (
            subject <= terms(unit.text)
            or (unit.document, unit.group) in introducing
            or (leans_back(unit.text) and previous is not None and subject <= terms(previous.text))
        )

    return [e for e in chosen if about_it(e)]


def _named_after(thing: str, headings: list[str]) -> frozenset[int]:
    """The sources whose own heading is the `thing` a question asks about, an API's arguments
    aside (Jest's "`.toEqual(value)`" for "what does toEqual do?")."""
    wanted = terms(thing)
    return frozenset(
        document
        for document, heading in enumerate(headings)
        if wanted and terms(ARGUMENTS.sub(" ", heading)) == wanted
    )


def _opening_source(
    chosen: list[Excerpt], subject: frozenset[int], failing: frozenset[int], named: frozenset[int]
) -> int:
    """The source an answer opens with: the best-ranked one, but for a question that asks what
    `subject` is, the best-ranked one `named` after the thing, or else, when the best-ranked
    one does not say what it is, the best-ranked one that does (what the thing is, before what
    else is said of it: a section named after it says so better than another's sentence that
    only classifies it, Jest's "`toEqual` is a matcher."); and for a reader who reports that
    `failing` goes wrong, when that source does not speak of it going wrong, the best-ranked
    one that does ("why is my subscriber not receiving messages?": the QoS section's "A subscriber
    that asks for `RELIABLE` delivery will not receive anything…", before the lesson's
    publisher and subscriber program, which shows them working)."""
    best = _best_source(chosen)
    spoken = {e.document for e in chosen}
    if named & spoken:
        return min(named & spoken)
    defining = {
        e.document
        for e in chosen
        if defines(e.text, subject) or tells_what_it_does(e.text, subject)
    }
    if defining:
        return best if best in defining else min(defining)
    troubled = {
        e.document
        for e in chosen
        if (speaks_of_trouble(e.text) or negated(e.text)) and failing & terms(e.text)
    }
    return best if not troubled or best in troubled else min(troubled)


def _failure(chosen: list[Excerpt], excerpts: list[Excerpt]) -> list[Excerpt]:
    """For a question about something that does not happen ("Why is my subscriber not
    receiving anything?"), the sentence of any source that says when it does not ("A
    subscriber that asks for `RELIABLE` delivery will not receive anything from a
    `BEST_EFFORT` publisher"), if what was chosen says none: the units chosen by shared words
    describe the thing working ("the subscriber prints what it receives")."""
    pool = [e for e in excerpts if e.coverage >= FAILURE_COVERAGE and not is_code(e.text)]
    return _first_stating(chosen, pool, negated)


def _remedies(chosen: list[Excerpt], excerpts: list[Excerpt]) -> list[Excerpt]:
    """The sentence after each chosen one that tells of something failing (`tells_failure`)
    or warns the reader against something (`warns_against`), in its paragraph: a book states a
    problem, then what to do about it ("…the URL can become too large causing HTTP errors like
    `414 URI Too Long`." then "The `maxURLLength` option will limit the number of requests
    that can be sent together in a batch."; "Try to avoid dispatching several times
    synchronously in a row…" then "There are a number of addons and approaches that can batch
    up dispatches as well.")."""
    by_place = {(e.document, e.position): e for e in excerpts}

    def remedy(excerpt: Excerpt) -> Excerpt | None:
        after = by_place.get((excerpt.document, excerpt.position + 1))
        if after is None or after.group != excerpt.group or after in chosen:
            return None
        if is_block(after.text) or is_list_item(after.text):
            return None
        shown = by_place.get((after.document, after.position + 1))
        if ends_in_colon(after.text) and not (shown and is_block(shown.text)):
            return None  # "For example:" over an example the chunk lost
        return after

    found = (remedy(e) for e in chosen if tells_failure(e.text) or warns_against(e.text))
    return [after for after in found if after is not None]


def _first_stating(
    said: list[Excerpt], pool: list[Excerpt], states: Callable[[str], bool]
) -> list[Excerpt]:
    """The most relevant unit of `pool` that `states` what is asked, unless `said` already
    holds one."""
    if any(states(e.text) for e in said):
        return []
    return sorted((e for e in pool if states(e.text)), key=lambda e: -e.score)[:1]


def _names(question: str, chosen: list[Excerpt], excerpts: list[Excerpt]) -> list[Excerpt]:
    """For a question that asks which setting or API, the name from each source that speaks
    without saying one: its most relevant unit that writes a name in code, however few of the
    question's words it shares. A reference section says what an option does in prose and
    names it only in its table (`bracketSameLine: <bool>`), and "Which settings give me
    both?" is answered by the names. A name the question already says is not the one asked
    for."""
    asked = terms(question)
    added = []
    for document in dict.fromkeys(e.document for e in chosen):
        if any(names_in_code(e.text, asked) for e in chosen if e.document == document):
            continue
        named = [
            e
            for e in excerpts
            if e.document == document and names_in_code(e.text, asked) and _readable(e.text)
        ]
        if named:
            added.append(max(named, key=lambda e: e.score))
    return added


def _command_after(chosen: list[Excerpt], excerpts: list[Excerpt]) -> list[Excerpt]:
    """For a how-to question answered in prose, the short command or configuration block
    that follows the best source's explanation (within `COMMAND_REACH` units of its last
    chosen unit), with the lead-in that introduces it: the explanation says why, the block
    says what to run ("Run it with a flag that writes them again:" `ovenctl bake
    --rewrite-cards`). When the explanation is thin (at most `THIN_EXPLANATION` units), a
    program of any length: a recipe says what it is for in a sentence and how in its code.
    Only a block that, with its lead-in, shares a term with the question; none when the best
    source already gives a command, and only a command when it gives a program (an example
    component that the explanation walks through is not what to run: `jest --updateSnapshot`
    after the test it updates)."""
    first = _best_source(chosen)
    said = [e for e in chosen if e.document == first]
    if any(is_shell_block(e.text) for e in said):
        return []
    shown_code = any(is_code(e.text) for e in said)
    own = [e for e in excerpts if e.document == first]
    thin = len(said) <= THIN_EXPLANATION
    last = max((e.position for e in said), default=0)
    best: list[Excerpt] = []
    best_coverage = 0.0
    for previous, block in zip([None, *own], own, strict=False):
        if not (is_code(block.text) and (thin or _short(block.text))):
            continue
        if shown_code and not is_shell_block(block.text):
            continue
        if not last < block.position <= last + COMMAND_REACH:
            continue
        lead = previous if previous and introduces(previous.text, block.text) else None
        coverage = block.coverage + (lead.coverage if lead else 0.0)
        if coverage > best_coverage:
            best, best_coverage = [e for e in (lead, block) if e], coverage
    return best


def _secondary_floor(asked: int) -> float:
    """The share of the question's topic another source's best unit must hold: a long question
    (a scene, symptoms and two asks) spreads its weight over many terms, so a unit holding the
    two rare ones that name what is asked ("`--with-node-modules`" for fifteen topic terms
    about a patched dependency in `node_modules`) holds a small share of it."""
    return MIN_SECONDARY_RELEVANCE * min(1.0, TYPICAL_TOPIC_TERMS / max(1, asked))


def _from_others(
    chosen: list[Excerpt],
    others: list[Excerpt],
    floor: float,
    most: int,
    subjects: list[frozenset[int]],
    earlier: frozenset[int],
) -> list[Excerpt]:
    """The other sources' best units: any that add a topic term to what `chosen` says
    (`_adds`, with a follow-up's `earlier` topic), any that meets the question better than the
    best of `chosen` does in more than one word (the words `chosen` spread over several units,
    said in one: "the only way to cause an update to the state is to … dispatch it";
    `_says_in_one`), a table that holds the whole question (a
    later section's table comparing the two things a question contrasts, after the first
    source's sentence that names both), or, when `chosen` answers only weakly, any relevant
    one that `_on_topic` says is about the question: `most` in all. A source's best unit must
    hold `floor` of the question's topic weight, its second best twice that."""
    said = frozenset().union(*(e.topic for e in chosen))
    best_said = max((e.coverage for e in chosen), default=0.0)
    strong = best_said >= STRONG_COVERAGE
    documents = sorted({e.document for e in others})
    ranked = [_best(e for e in others if e.document == d)[:UNITS_PER_SOURCE] for d in documents]
    rounds = [(i, units[i]) for i in range(UNITS_PER_SOURCE) for units in ranked if i < len(units)]
    added: list[Excerpt] = []
    for i, excerpt in rounds:  # each source's best unit first, then each one's second best
        if excerpt.coverage < floor * (1 + i) or len(added) == most:
            continue
        adds = (
            _adds(excerpt, said, earlier) or _says_in_one(excerpt, best_said) or _compares(excerpt)
        )
        if adds or (not strong and _on_topic(excerpt, subjects)):
            added.append(excerpt)
            said |= excerpt.topic
    return added


def _adds(excerpt: Excerpt, said: frozenset[int], earlier: frozenset[int]) -> frozenset[int]:
    """The topic terms a unit adds to what the answer `said`. A word of a follow-up's earlier
    topic of several words counts only with the rest of it: "file" alone, of "(SDF file)",
    names another file ("A **launch file** starts them together")."""
    added = excerpt.topic - said
    return added - earlier if len(earlier) > 1 and not earlier <= excerpt.topic else added


def _subjects(question: str, uncommon: frozenset[int]) -> list[frozenset[int]]:
    """The terms of what a question is about, each way it can say it: the thing it asks to be
    defined, the earlier topic a follow-up was given, and its topic terms that are not
    everyday words of the book (`uncommon`)."""
    ways = [terms(defined_thing(question)), terms(appended_topic(question)[1]), uncommon]
    return [subject for subject in ways if subject]


def _on_topic(excerpt: Excerpt, subjects: list[frozenset[int]]) -> bool:
    """Whether another source's unit that adds nothing new is about the question: it holds two
    of its topic terms, or all of one of its `subjects`. One shared word is often the same word
    in another sense: the QoS "policy" of "What does the reliability QoS policy do?" is not the
    learned "robot policy" of a VLA section, while "A **reducer** is a function…" answers "What
    is a reducer in Redux terms?" by its one word."""
    return len(excerpt.topic) > 1 or any(subject <= excerpt.topic for subject in subjects)


def _says_in_one(excerpt: Excerpt, best_said: float) -> bool:
    """Whether a unit says in one what the chosen units spread over several: it holds more of
    the question's topic weight than any of them, in more than one of its words. One word that
    outweighs them is not that ("runs" for "How do I see what topics are running?", once the
    answer lists the topics)."""
    return len(excerpt.topic) > 1 and excerpt.coverage > best_said


def _compares(excerpt: Excerpt) -> bool:
    """Whether an excerpt is a table holding every topic term of the question."""
    return is_table(excerpt.text) and excerpt.coverage >= FULL_COVERAGE


def _best_source(chosen: list[Excerpt]) -> int:
    """The best-ranked source among the chosen excerpts: the one the answer opens with."""
    return min((e.document for e in chosen), default=0)


def _asked_example(question: str, excerpts: list[Excerpt]) -> list[Excerpt]:
    """The best source's program, when it is all that source holds, in a syntax the question
    names, and at most `EXAMPLE_LINES` long: a section that is only an example ("Handlebars":
    `{{! prettier-ignore }}` above the block it keeps) answers "What comment do I put above
    it in my .hbs template?", where a long program would otherwise give way to the next
    source's prose."""
    best = min(e.document for e in excerpts)
    own = [e for e in excerpts if e.document == best]
    if len(own) != 1 or not is_code(own[0].text) or _readable(own[0].text):
        return []  # prose, several units, or a program short enough to be read anyway
    example = own[0].text
    asked = written_in_asked_syntax(example, question)
    return own if asked and _short(example, EXAMPLE_LINES) else []


def _readable(unit: str) -> bool:
    """Whether a unit can be part of a prose answer: anything but a long program."""
    return not is_code(unit) or _short(unit)


def _short(code: str, lines: int = SHORT_CODE_LINES) -> bool:
    """Whether a code block is short enough to be a prose answer's fact (a command, a line of
    configuration), rather than a program that a request for code should ask for: at most
    `lines` lines, fence lines aside."""
    return code.count("\n") <= lines + 1


def compose(excerpts: list[Excerpt], numbers: dict[int, int]) -> list[str]:
    """Answer pieces: each excerpt followed by its citation `[n]`, ready to stream. The
    answer opens with its first excerpt, not with the blank line a table or heading takes, ends
    with its last citation, and paragraphs are parted by one blank line, however many the pieces
    on either side bring. Each source's sentences start a paragraph of their own."""
    pieces = []
    after_line = False  # a sentence after a heading, label or list item starts a paragraph
    source = excerpts[0].document if excerpts else 0
    for excerpt in excerpts:
        after_line |= excerpt.document != source
        source = excerpt.document
        citation = f"[{numbers[excerpt.document]}]"
        if excerpt.note:
            pieces.append(f"{excerpt.text}\n\n")
        elif is_heading(excerpt.text):
            # a paragraph of its own: after a sentence, one line break would run it into it
            pieces.append(f"\n\n**{heading_text(excerpt.text)}**")
        elif is_label(excerpt.text) or ALTERNATIVE.match(excerpt.text):
            # a heading in all but markup, or the "or" between two blocks: a line, uncited
            pieces.append(f"\n\n{excerpt.text.strip()}")
        elif is_block(excerpt.text):
            # a blank line after the block: a `[n]` right under a table would be one more row
            pieces.append(f"\n\n{excerpt.text}\n\n{citation}\n\n")
        elif is_list_item(excerpt.text):
            pieces.append(f"\n{excerpt.text} {citation}")
        else:
            paragraph = "\n\n" if after_line else ""
            pieces.append(f"{paragraph}{excerpt.text} {citation} ")
        after_line = any(test(excerpt.text) for test in (is_heading, is_label, is_list_item))
    if pieces:
        pieces[0] = pieces[0].lstrip()
    for before, at in pairwise(range(len(pieces))):
        if pieces[before].endswith("\n\n"):  # one blank line between paragraphs, not two
            pieces[at] = pieces[at].lstrip("\n")
    if pieces:
        pieces[-1] = pieces[-1].rstrip()
    return pieces


def answer_from_selection(question: str, selection: str) -> str:
    """The sentences of the reader's selection that answer the question, or a plain 'no'."""
    parsed = [parse_units(selection)]
    excerpts = [e for e in _score_units(question, parsed, []) if not is_heading(e.text)]
    if not topic_terms(question):  # "what does this mean?": the selection is the topic
        return " ".join(e.text for e in excerpts[:3])
    relevant = [e for e in excerpts if e.score > 0.1]
    if not relevant:
        return NOT_IN_SELECTION
    best = sorted(relevant, key=lambda e: -e.score)[:3]
    return " ".join(e.text for e in sorted(best, key=lambda e: e.position))
