"""What an excerpt needs to be read on its own: the sentence its "it", "these" or "another"
points back to, its numbered list whole, the lead-in of its list, the sentence before its code,
what its lead-in introduces (a sentence ending in ":", or one that names "the following" list,
table or code, or "the example below"; a bold label such as "**Performance-Guided
Randomization**" introduces the list or sentence under it, as a heading would), the other
subsections with code that a lead-in introduces with its first, the heading of the subsection
it sits in, the other form of a block that the book offers after a line "or",
the opening of an admonition whose title it is, the next sentence that adds "another" of what
it told, what a sentence announces ("The gap has several sources." and the sources), and, of
a long table, the header with the rows that answer. A lead-in whose next unit is not quoted is
left out."""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from agent.offline.text import (
    ADMONITION_TITLE,
    ORDERED_ITEM,
    heading_level,
    is_block,
    is_code,
    is_heading,
    is_label,
    is_list_item,
    is_title,
    terms,
)

OPENERS = frozenset(
    (
        *("this", "these", "that", "those", "such", "it", "its", "they", "them", "their"),
        *("both", "here", "however", "instead", "otherwise", "therefore", "thus", "hence"),
        *("so", "also", "then", "but", "still", "similarly", "likewise", "again"),
        *("alternatively", "consequently", "additionally", "moreover", "furthermore"),
        *("meanwhile", "another"),
    )
)
"""First words that make a sentence lean on the one before it."""
OPENING_PHRASES = (
    "for example",
    "for instance",
    "in that case",
    "in this case",
    "in other words",
    "as a result",
    "the same",
    "the former",
    "the latter",
    "in addition",
    "on the other hand",
)
DOING_IT = re.compile(r"\b(do|doing|does|did) (this|that|so)\b")
"""Words by which a sentence early on names what the one before it said ("To do so, …", "In order
to do this you can…")."""
REFERRING = frozenset(("it", "this", "they", "these", "its", "their"))
"""First words by which a sentence goes on about what the one before it said."""
EARLY_PRONOUNS = frozenset(("it", "they", "them"))
"""Pronouns that, among a sentence's first words, usually name something said before."""
EARLY_WORDS = 6
SEQUENCE_WORDS = frozenset(("then", "afterwards"))
"""Words by which a sentence early on says it comes after the one before it ("The middleware
will then inject that value…")."""
CONDITIONS = frozenset(("if", "when", "once", "after", "before", "until", "whenever"))
"""Words that open a clause within the sentence that its own "then" follows ("If it fails,
then…")."""
CLOSING_DEMONSTRATIVES = frozenset(("this", "that", "these", "those", "them"))
"""A sentence ending "…the standard framework for that." names what came before."""
CLOSING_REFERENCES = frozenset(("the two", "the other", "the others", "the former", "the latter"))
"""A sentence ending "…translates between the two." names what came before."""
WORD = re.compile(r"[a-z]+")
LIST_MARKER = re.compile(r"^([-*+]|\d+[.)])\s+")
MAX_ORDERED_ITEMS = 12
"""A numbered list up to this long is kept whole; a longer one keeps only the chosen steps."""
MAX_LIST_ITEMS = 8
"""A bulleted list up to this long is kept whole, and a lead-in ending in ":" brings it."""
FOLLOWING = re.compile(
    r"\b(?:the following|as follows|(?:shown|listed|given) below)\b"
    r"|\b(?:the|this|these)\s+(?:[\w-]+\s+){0,2}below\b(?!\s+(?:\d|(?:the|a|an|its|their)\b))",
    re.IGNORECASE,
)
"""Words by which a sentence without a closing ":" introduces the list or block after it ("the
following", "the publisher below sends…"; not "falls below the threshold")."""
EARLIER = re.compile(
    r"\bthe above\b|\b(?:shown|listed|given|described|defined) above\b"
    r"|\b(?:the|this|these)\s+(?:[\w-]+\s+){0,2}above\b(?!\s+(?:\d|(?:the|a|an|its|their|it)\b))",
    re.IGNORECASE,
)
"""Words by which a sentence names what came before it ("The above example would already
work…", "the code shown above"; not "everything above the bridge")."""
CATALOGUE_BLOCKS = 3
"""Code blocks under a list's items that make it a catalogue of examples (`_catalogue`)."""
MAX_TABLE_ROWS = 8
"""A longer table keeps its header and the rows that hold the question's terms."""
ALTERNATIVE = re.compile(r"^\s*(?:or|alternatively)\s*[:,]?\s*$", re.IGNORECASE)
"""A line that only offers what follows as another form of what came before ("or" between two
code blocks: a pragma written `@prettier` or `@format`)."""
ANNOUNCEMENT = re.compile(
    r"\b(?P<count>several|a few|a couple of|a number of|various|multiple|two|three|four|five)\s+"
    r"(?:(?:main|key|different|common|important|major|distinct|separate|possible|other)\s+)?"
    r"(?:reasons|causes|sources|things|ways|kinds|types|forms|parts|steps|stages|factors|aspects"
    r"|benefits|advantages|drawbacks|problems|issues|differences|approaches|options|categories"
    r"|cases)[.!]$",
    re.IGNORECASE,
)
"""A sentence that ends by announcing several things it does not name ("The gap has several
sources.", "There are two reasons.", "…easier to use in several ways."): a count, then a word
for kinds of things, not a count of things themselves ("stands on two narrow support
points.", "might save a few CPU cycles.")."""
ANNOUNCED = {"a couple of": 2, "two": 2, "three": 3, "four": 4, "five": 5}
"""How many sentences an announcement brings, by its count; any other count brings
`ANNOUNCED_VAGUELY`."""
ANNOUNCED_VAGUELY = 3
ASIDE = re.compile(r"\([^()]+\)[.!]?")
"""A sentence wholly in parentheses."""
MAX_SUBSECTIONS = 4
"""A lead-in to subsections brings up to this many of them (`_sibling_subsections`)."""


@dataclass(frozen=True)
class Place:
    """Where a unit sits: document, position, paragraph/list/block group, numbered or not,
    nested under another list item or not."""

    document: int
    position: int
    group: int
    ordered: bool
    text: str
    nested: bool = False


P = TypeVar("P", bound=Place)


def leans_back(sentence: str) -> bool:
    """Whether a sentence needs the one before it: it opens with a pronoun, a demonstrative
    or a connective ("However", "Another"), names "it"/"them", "do this" or "then" among its
    first words, ends on "that" or "the two" (not on "like this:", which introduces what
    follows), names what came "above", or is an aside in parentheses ("(Error handling should
    be added.)", a note on the code above it)."""
    words = WORD.findall(LIST_MARKER.sub("", sentence).lower())
    if not words:
        return False
    if ASIDE.fullmatch(sentence.strip()):
        return True
    opening = " ".join(words[:3])
    introduces_next = sentence.rstrip().endswith(":")  # "…like this:" points forward
    return (
        words[0] in OPENERS
        or opening.startswith(OPENING_PHRASES)
        or any(word in EARLY_PRONOUNS for word in words[1:EARLY_WORDS])
        or bool(DOING_IT.search(" ".join(words[:EARLY_WORDS])))
        or _follows_on(words[:EARLY_WORDS])
        or (not introduces_next and words[-1] in CLOSING_DEMONSTRATIVES)
        or (not introduces_next and " ".join(words[-2:]) in CLOSING_REFERENCES)
        or bool(EARLIER.search(sentence))
    )


def adds_another(sentence: str) -> bool:
    """Whether a sentence opens by adding one more of what came before ("Another disadvantage
    of this approach…")."""
    words = WORD.findall(sentence.lower())
    return bool(words) and words[0] == "another"


def _follows_on(words: list[str]) -> bool:
    """Whether a sentence's first words say it comes next ("The middleware will then inject
    that extra value…"), not after a condition of its own ("If it fails, then…")."""
    for place, word in enumerate(words):
        if word in CONDITIONS:
            return False
        if place and word in SEQUENCE_WORDS:
            return True
    return False


def opens_with_reference(sentence: str) -> bool:
    """Whether a sentence's first word points back: "It", "This", "They", "These"."""
    words = WORD.findall(LIST_MARKER.sub("", sentence).lower())
    return bool(words) and words[0] in REFERRING


def with_context(chosen: Iterable[P], places: list[P]) -> list[P]:
    """`chosen` and what it needs to be read, in no particular order."""
    by_position = {(p.document, p.position): p for p in places}
    chosen = set(chosen)
    picked = set(chosen)
    picked |= _continuations(picked, by_position)
    picked |= _introduced(picked, by_position, places)
    # An antecedent can open a list, a list's lead-in can lean back, a step of a list kept
    # whole can lead in ("3. Configure the following settings:"), and a lead-in can introduce
    # a bold label, which heads the list under it.
    for _ in range(2):
        picked |= _antecedents(picked, by_position)
        picked |= _whole_lists(picked, places)
        leading = {p for p in picked if is_list_item(p.text) or is_label(p.text)}
        picked |= _introduced(leading, by_position, places)
        picked |= _list_lead_ins(picked, by_position, places)
        picked |= _code_lead_ins(picked, by_position)
        picked |= _alternatives(picked, by_position)
        picked |= _admonition_openings(picked, by_position)
        picked |= _announced(picked, by_position)
    picked = _without_dangling_lead_ins(picked, by_position)
    picked |= _subsection_headings(picked, by_position, places)
    picked |= _sibling_subsections(picked, by_position, chosen)
    return list(picked)


def _sibling_subsections(
    picked: set[P], by_position: dict[tuple[int, int], P], chosen: set[P]
) -> set[P]:
    """The later subsections a lead-in introduces, when it was chosen for the answer and the
    first one's heading and code are quoted: such subsections are the same thing done another
    way (a platform, a tool, a shell), and answer together ("You may install pnpm … using the
    following scripts." above "On Windows" and "On POSIX systems" gave the Windows script
    alone). Each next subsection of the first one's level, up to `MAX_SUBSECTIONS` in all and
    until a heading above them, brings its heading, its opening sentence and its first code
    block with the line that leads in to it. Subsections in prose (a lesson's principles) are
    left to the first one: brought whole, they lengthened six answers of the shared books with
    what the question did not ask, for one fact gained."""
    found: set[P] = set()
    for lead in chosen:
        first = _after(lead, by_position)
        if first not in picked or not _leads_to_subsections(lead.text, first.text):
            continue
        sections = _subsections(first, by_position)
        if len(sections[0]) > 1 and is_list_item(sections[0][1].text):
            continue  # subheadings of a list, which `_introduced` reads with the list
        if not any(is_code(p.text) and p in picked for p in sections[0]):
            continue  # prose subsections (principles, features): the first says enough
        for heading, *body in sections[1:MAX_SUBSECTIONS]:
            shown: list[P] = []
            if body and _is_sentence(body[0].text) and not _is_lead_in(body[0].text):
                shown.append(body[0])
            code = next((p for p in body if is_code(p.text)), None)
            if code is not None:
                lead_in = _before(code, by_position)
                shown += [lead_in, code] if lead_in and _is_lead_in(lead_in.text) else [code]
            found.update([heading, *shown] if shown else [])
    return found


def _leads_to_subsections(lead: str, following: str) -> bool:
    """Whether `lead` introduces subsections: a heading follows a sentence that ends in ":"
    or names "the following"."""
    return (
        is_heading(following)
        and _is_sentence(lead)
        and (ends_in_colon(lead) or bool(FOLLOWING.search(lead)))
    )


def _subsections(first: P, by_position: dict[tuple[int, int], P]) -> list[list[P]]:
    """From the heading `first` on, each subsection of its level as its heading and the units
    under it, until a heading above that level or the end of the chunk."""
    level = heading_level(first.text)
    sections: list[list[P]] = []
    place: P | None = first
    while place is not None:
        if is_heading(place.text) and heading_level(place.text) < level:
            break
        if is_heading(place.text) and heading_level(place.text) == level:
            sections.append([place])
        else:
            sections[-1].append(place)
        place = _after(place, by_position)
    return sections


def _without_dangling_lead_ins(picked: set[P], by_position: dict[tuple[int, int], P]) -> set[P]:
    """`picked` without the lead-ins (a unit ending in ":") whose next unit it lacks: what
    they introduce is in the next chunk ("We suggest trying these approaches, in this
    order:" cannot end an answer), or is not what was picked ("…as an optimization
    problem:" above the second of the planners it lists). A lead-in whose next unit is left
    out goes too ("…as a domain adaptation problem:" above "Given:"). So does a title (a
    label that is no sentence, `is_title`) over a next unit of its chunk that is not picked: a
    title over nothing ("**Detailed Explanation: FSAs and Errors**" once the quote under it is
    left out) says nothing, while a bold sentence, or a title that ends its chunk (a formula
    whose legend is not in it), still says something. All of `picked` when nothing else is
    left."""
    kept = set(picked)
    while True:
        places = {(p.document, p.position) for p in kept}
        dangling = {p for p in kept if _dangles(p, places, by_position)}
        if not dangling:
            return kept or picked
        kept -= dangling


def _dangles(place: P, kept: set[tuple[int, int]], by_position: dict[tuple[int, int], P]) -> bool:
    """Whether `place` leads in to, or titles, a next unit that is not `kept`."""
    after = (place.document, place.position + 1)
    if after in kept:
        return False
    return _is_lead_in(place.text) or (is_title(place.text) and after in by_position)


def ends_in_colon(text: str) -> bool:
    """Whether `text` ends in ":", inside its closing emphasis too ("**…, see:**")."""
    return text.rstrip().rstrip("*_").endswith(":")


def _is_lead_in(text: str) -> bool:
    return not is_block(text) and ends_in_colon(text)


def _before(place: P, by_position: dict[tuple[int, int], P]) -> P | None:
    return by_position.get((place.document, place.position - 1))


def _after(place: P, by_position: dict[tuple[int, int], P]) -> P | None:
    return by_position.get((place.document, place.position + 1))


def _antecedents(picked: set[P], by_position: dict[tuple[int, int], P]) -> set[P]:
    found: set[P] = set()
    for place in picked:
        while not is_heading(place.text) and leans_back(place.text):
            previous = _before(place, by_position)
            if previous is None or is_heading(previous.text) or previous in picked | found:
                break
            found.add(previous)
            place = previous
    return found


def _subsection_headings(
    picked: set[P], by_position: dict[tuple[int, int], P], places: list[P]
) -> set[P]:
    """The heading of the subsection each unit sits in, when its chunk holds one above it, and
    the sentence that opens that subsection: on a reference page the heading names what the
    unit is about ("`OVEN_BATCH_ID`" above "Each tray in a run is numbered from one"), in a
    tutorial it says which step the unit belongs to, and the opening sentence says what the
    subsection is ("**Proofing** rests shaped dough…") before the unit goes on about it, unless
    it leads in to what the answer does not quote ("Dynamically adjust randomization based on
    performance:" comes with the label and list it introduces)."""
    headings: dict[int, list[P]] = {}
    for place in places:
        if is_heading(place.text):
            headings.setdefault(place.document, []).append(place)
    found: set[P] = set()
    for place in picked:
        above = [h for h in headings.get(place.document, []) if h.position < place.position]
        if not above or is_heading(place.text):
            continue
        heading = max(above, key=lambda h: h.position)
        found.add(heading)
        opening = _after(heading, by_position)
        introduced = by_position.get((heading.document, heading.position + 2))
        if (
            opening is not None
            and _is_sentence(opening.text)
            and (not _is_lead_in(opening.text) or introduced in picked)
        ):
            found.add(opening)
    return found


def _is_sentence(text: str) -> bool:
    """Whether a unit is a sentence: not a heading, a block or a list item."""
    return not (is_heading(text) or is_block(text) or is_list_item(text))


def _continuations(picked: set[P], by_position: dict[tuple[int, int], P]) -> set[P]:
    """The next sentence of a paragraph when it goes on about the same thing ("It also…"), and
    the next sentence, in its paragraph or the next, that adds another of what it told
    ("Note that if there's a syntax error…, the whole buffer will be replaced…" then "Another
    disadvantage of this approach is that the cursor position won't be preserved.")."""
    found: set[P] = set()
    for place in picked:
        nxt = _after(place, by_position)
        if nxt is not None and (
            (nxt.group == place.group and opens_with_reference(nxt.text))
            or (_is_sentence(nxt.text) and adds_another(nxt.text))
        ):
            found.add(nxt)
    return found


def _alternatives(picked: set[P], by_position: dict[tuple[int, int], P]) -> set[P]:
    """The other form of a block, when the book offers it with a line of its own ("or") between
    the two: a block brings the "or" after it and the block that follows."""
    found: set[P] = set()
    for place in picked:
        if not is_block(place.text):
            continue
        between = _after(place, by_position)
        if between is None or not ALTERNATIVE.match(between.text):
            continue
        other = _after(between, by_position)
        if other is not None and is_block(other.text):
            found |= {between, other}
    return found


def _admonition_openings(picked: set[P], by_position: dict[tuple[int, int], P]) -> set[P]:
    """The opening sentence of an admonition whose title is picked: the title heads the tip or
    warning ("Tip: Match QoS on both ends."), and what it says is in the body ("A subscriber
    that asks for `RELIABLE` delivery will not receive anything from a `BEST_EFFORT`
    publisher…"). A body that opens with code brings nothing: a whole program would outweigh
    the title that shares the question's words. Nor does a list item: an untitled admonition
    reads the same ("Tip: You can set `--plugin` options multiple times."), and the item after
    it is the list it sits in, not its body."""
    found: set[P] = set()
    for place in picked:
        if not ADMONITION_TITLE.match(place.text.strip()):
            continue
        body = _after(place, by_position)
        if body is not None and _is_sentence(body.text):
            found.add(body)
    return found


def _announced(picked: set[P], by_position: dict[tuple[int, int], P]) -> set[P]:
    """What a sentence announces without a colon: as many of the next sentences of its
    paragraph as it counts ("The gap has several sources." and "*Visual* differences: …",
    "*Physical* differences: …", "*Timing* differences: …"). Quoted alone, it promises what the
    answer does not say."""
    found: set[P] = set()
    for place in picked:
        announcement = ANNOUNCEMENT.search(place.text.strip()) if _is_sentence(place.text) else None
        if announcement is None:
            continue
        count = ANNOUNCED.get(announcement["count"].lower(), ANNOUNCED_VAGUELY)
        nxt = _after(place, by_position)
        while count and nxt is not None and nxt.group == place.group and _is_sentence(nxt.text):
            found.add(nxt)
            count -= 1
            nxt = _after(nxt, by_position)
    return found


def _group(place: P, places: list[P]) -> list[P]:
    return [p for p in places if p.document == place.document and p.group == place.group]


def _items(group: list[P]) -> int:
    return sum(is_list_item(p.text) for p in group)


def _whole_lists(picked: set[P], places: list[P]) -> set[P]:
    """The lists of picked items, whole when short enough. A bulleted list whose items carry
    code blocks is a catalogue of examples (an API's features, each with its program): its
    picked items come with what sits under them, and its picked code with its item, not the
    whole list."""
    found: set[P] = set()
    for place in picked:
        if is_list_item(place.text) or place.ordered:
            group = _group(place, places)
            if not place.ordered and _catalogue(group):
                found.update(_under_item(place, group))
            elif _items(group) <= (MAX_ORDERED_ITEMS if place.ordered else MAX_LIST_ITEMS):
                found.update(group)
        elif is_code(place.text) and _catalogue(group := _group(place, places)):
            found.update(_owner(place, group))
    return found


def _owner(code: P, group: list[P]) -> list[P]:
    """The list item a code block of a catalogue sits under."""
    before = [p for p in group if p.position < code.position and is_list_item(p.text)]
    return [max(before, key=lambda p: p.position)] if before else []


def _catalogue(group: list[P]) -> bool:
    """Whether a list is a catalogue of examples: a bulleted list (no steps in it) most of
    whose items carry a code block (at least `CATALOGUE_BLOCKS`)."""
    if any(p.ordered or ORDERED_ITEM.match(p.text) for p in group):
        return False
    blocks = sum(is_code(p.text) for p in group)
    return blocks >= CATALOGUE_BLOCKS and 2 * blocks >= _items(group)


def _under_item(item: P, group: list[P]) -> list[P]:
    """What sits under a list item up to the next one: its code blocks, the labels that
    caption them (the tabs "**eslint.config.js**" and "**.eslintrc.js**" of one example) and
    the tip it holds ("You can set `--plugin` options multiple times.")."""
    after = sorted((p for p in group if p.position > item.position), key=lambda p: p.position)
    owned: list[P] = []
    for place in after:
        if is_list_item(place.text):
            break
        owned.append(place)
    return owned


def _list_lead_ins(
    picked: set[P], by_position: dict[tuple[int, int], P], places: list[P]
) -> set[P]:
    found: set[P] = set()
    for place in picked:
        if is_list_item(place.text):
            first = min(_group(place, places), key=lambda p: p.position)
            lead = _before(first, by_position)
            if lead is not None and introduces(lead.text, first.text):
                found.add(lead)
    return found


def _code_lead_ins(picked: set[P], by_position: dict[tuple[int, int], P]) -> set[P]:
    """The sentence right before each code block, whatever it ends in: code does not say what
    it shows ("With `@babel/plugin-transform-runtime`, it would replace the reference…" above
    the compiled output it describes)."""
    found: set[P] = set()
    for place in picked:
        if is_code(place.text):
            lead = _before(place, by_position)
            if lead is not None and _is_sentence(lead.text):
                found.add(lead)
    return found


def introduces(sentence: str, following: str) -> bool:
    """Whether `sentence` is the lead-in of the unit after it: it ends in ":", it is a bold
    label and no heading follows, or it names "the following" (or "as follows", "the … below")
    and a list, table or code block follows."""
    return (
        sentence.rstrip().endswith(":")
        or bool(is_label(sentence) and not is_heading(following))
        or bool(FOLLOWING.search(sentence) and (is_list_item(following) or is_block(following)))
    )


def _introduced(picked: set[P], by_position: dict[tuple[int, int], P], places: list[P]) -> set[P]:
    """What lead-ins introduce: the next sentence, table or code, or the list right after them
    (with the subheadings inside it: each one that heads items) up to `MAX_LIST_ITEMS` items.
    A heading after the list's last item opens the next section, not a part of the list. When
    subsections in prose follow ("…several core principles:" above "Principle 1: Embodiment"),
    the first one's heading and opening sentence, with what that sentence introduces in turn
    ("#### Reinforcement Learning" then "Learning through environmental feedback:" and its
    list). A label's lead-in brings what it introduces ("**ẍ = g/h (x - zmp)**", "Where:" and
    the list that names each symbol)."""
    found: set[P] = set()
    for place in picked:
        nxt = _after(place, by_position)
        if nxt is not None and _answers_asked(place, nxt):
            found.add(nxt)
            continue
        if nxt is None or not introduces(place.text, nxt.text):
            continue
        if not (is_list_item(nxt.text) or is_heading(nxt.text)):
            found.add(nxt)
            if is_label(place.text) and _is_lead_in(nxt.text):  # a title over "Where:" and
                found |= _introduced({nxt}, by_position, places)  # its list: that list too
            continue
        items = 0
        heading: P | None = None  # the subheading the next items sit under
        while nxt is not None and (is_list_item(nxt.text) or is_heading(nxt.text)):
            if is_heading(nxt.text):
                heading = nxt
            else:
                items += 1
                if items > MAX_LIST_ITEMS:
                    break
                found.update(_group(nxt, places) if nxt.ordered else [nxt])
                found.update([heading] if heading else [])
                heading = None
            nxt = _after(nxt, by_position)
        if heading is not None and items == 0 and nxt is not None and _is_sentence(nxt.text):
            found.update([heading, nxt])  # subsections follow: the first one's opening
            found |= _introduced({nxt}, by_position, places)  # and its list, if it leads in
    return found


def _answers_asked(asking: Place, following: Place) -> bool:
    """Whether `following` answers the question the prose asks in `asking` ("How much synthetic
    data do you need…? There is no universal number, but…"): the next sentence of its
    paragraph. A question that is a paragraph of its own (a quiz's, above its options) or a
    list item is not the prose asking."""
    return (
        asking.text.rstrip().endswith("?")
        and following.group == asking.group
        and not is_list_item(asking.text)
        and _is_sentence(following.text)
    )


def answering_rows(table: str, wanted: frozenset[int]) -> str:
    """A table, or of a long one its header and the rows that hold any of `wanted`."""
    lines = table.split("\n")
    header, rows = lines[:2], lines[2:]
    if len(rows) <= MAX_TABLE_ROWS or is_code(table):
        return table
    answering = [row for row in rows if wanted & terms(row)][:MAX_TABLE_ROWS]
    return "\n".join([*header, *(answering or rows[:MAX_TABLE_ROWS])])
