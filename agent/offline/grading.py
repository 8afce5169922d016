"""The offline grader: keep the chunks that can support an answer, or none (off-book).

A question is off-book when it names something the book never mentions (a product, robot or
library: a capitalised, all-caps or CamelCase word outside the book's vocabulary, such as
"Roomba" or "MoveIt", or a capitalised word the book writes only in lower case, such as "Go" in
docs that use "go" as a verb, a file type such as ".scss", or another command of a tool the
book only shows as code, such as "deno fmt"; the names of the reader's own code do not count);
when it names something the book mentions only in passing and none of the chunks an answer
would be built from mention it (another library's feature, asked of docs that name that library
once in a comparison), or, asked how to use it, none is about it and about what is asked, or,
asked what it is, none is headed with it or says what it is; when it asks about another thing's
feature ("Yarn's zero-installs") and no such chunk names the two together, or names a
command-line flag that no such chunk spells out; or when most of its topic weight sits on words the
book never uses (a question about risotto), or when a follow-up's own words, its earlier topic
left aside, are all words the book never uses or uses everywhere. Plain unknown words alone do
not decide it: readers paraphrase ("drawbacks" for the book's "limitations"). Otherwise a chunk
is kept when its embedding is close enough to the question and it covers some of the question's
topic terms. The thresholds were calibrated on in-scope and out-of-scope questions; the graph's
context inherits them.
"""

import re
from dataclasses import dataclass
from itertools import pairwise

from agent.offline.condense import ANAPHORA, appended_topic, asking_part, topic_words
from agent.offline.text import (
    BOLD,
    COMPOUND,
    FLAG,
    QUOTED,
    asking_sentences,
    asks_how_to,
    asks_of_scene,
    compounds,
    defined_thing,
    identifier_like,
    outside_code_blocks,
    placed_words,
    pointed_names,
    question_names,
    terms,
    text_defines,
    thing_terms,
    topic_terms,
)
from agent.retrieval.vocabulary import Vocabulary
from agent.state import Candidate

ALIAS = re.compile(r"(?<=[\w`*_])\s\(([^()\n]{1,40})\)")
"""A short parenthesis right after a name: another name for it ("The `isaac_ros_visual_slam`
package (cuVSLAM)", "Flux Standard Action (FSA)")."""
LINK = re.compile(r"\[[^\]\n]*\]\([^)\s]*\)|<?https?://[^\s>)]+>?")
POSSESSIVE = re.compile(
    r"(?P<owner>(?:[A-Z][\w.+-]*\s)*[A-Z][\w.+-]*)['\u2019]s\s+(?P<feature>[\w.+-]+)"
)
"""A capitalised name's possession: "Yarn's zero-installs", "Apollo Client's cache"."""
PLAIN_CAPITALISED = re.compile(r"[A-Z][a-z]+")
"""A word capitalised as a name is ("Go", "Kotlin"), not all-caps, CamelCase or code."""
FILE_TYPE = re.compile(r"(?<![\w.])\.[A-Za-z][A-Za-z0-9]{0,9}\b")
"""A file type by its extension, as a question writes it: `.scss`, `*.vue`."""


OWN_SUBJECT_SHARE = 0.1
"""A name in more than this share of the book's chunks is what the book is about."""
PASSING_MENTIONS = 3
"""A name the book uses in at most this many chunks is only mentioned in passing."""
HOW_TO_COVERAGE = 0.3
"""Share of a how-to question's other topic weight a chunk that speaks of a name mentioned in
passing must hold to answer how to do something with it."""


def unknown_names(question: str, vocabulary: Vocabulary) -> list[str]:
    """Names in the question that the book never uses, or never uses as a name, file types
    it never writes (".scss", asked of docs that never mention Sass), and another tool's
    commands (`_unknown_subcommands`).

    A plain capitalised word ("Go" in "gofmt's rules for Go code") whose terms the book writes
    only in lower case ("go ahead and run…") names something the book never names, when the
    reader writes it: a follow-up's earlier topic keeps the capital of a word that opened the
    earlier turn ("People on my team…" carried as "(People team…)"). Words of
    other shapes (all-caps, CamelCase, identifiers) are judged by their terms alone: readers
    and books spell "DOF", "DoF" and "dof" alike. Only the sentences that ask are read (with a
    follow-up's earlier topic): a name in the scene a question sets ("Our CI machines are
    slow… What is the default waiting limit?") is the reader's setting, as in `passing_names`.
    """
    own = set(question_names(appended_topic(question)[0]))
    question = asking_part(question)
    file_types = FILE_TYPE.findall(QUOTED.sub(" ", question))
    return [
        name
        for name in [*file_types, *question_names(question)]
        if not all(vocabulary.knows(t) for t in terms(name))
        or (PLAIN_CAPITALISED.fullmatch(name) and name in own and not vocabulary.names(terms(name)))
    ] + _unknown_subcommands(question, vocabulary)


def _unknown_subcommands(question: str, vocabulary: Vocabulary) -> list[str]:
    """A command the book shows only as code followed by a word the book never uses ("deno
    fmt", where the docs show only `deno install` and `deno x`): another tool's command,
    whatever case the reader writes it in."""
    words = [word for word, _ in placed_words(QUOTED.sub(" ", question))]
    return [
        f"{command} {word}"
        for command, word in pairwise(words)
        if command.islower()
        and vocabulary.is_command(terms(command))
        and terms(word)
        and not any(vocabulary.knows(t) for t in terms(word))
    ]


def passing_names(question: str, vocabulary: Vocabulary, kept: list[Candidate]) -> list[str]:
    """Names the book mentions only in passing that the `kept` chunks do not answer for.

    Such a name is what the question is about, and the chunks that would answer it are about
    something else: answering would explain the book's own topic in the other thing's place.
    A name is mentioned in passing when at most `PASSING_MENTIONS` chunks write it, or when no
    page or section of the book is titled with it, it is not the book's own subject and the
    question's asking sentence names it (a textbook that names PyBullet in seven exercise
    lists as one choice of simulator teaches another simulator). A name may be a hyphenated
    package name the book writes as code or a link's text (`parallel-prettier`), counted as
    written, whole.
    A kept chunk that mentions the name answers for it (`_mentions_in_account`), except when
    the question asks how to do something with it (a how-to whose asking sentence names it):
    then a kept chunk must speak of the name itself (`discusses`: a catalogue that links to
    the thing says that it exists, not how to use it) and hold `HOW_TO_COVERAGE` of the rest
    of what is asked (a warning that names Terser does not say how to keep Terser's class
    names). A name only in the scene a question sets ("Updating the store from a setTimeout
    callback causes glitches. How do I fix that?") is the reader's setting, not what they ask
    about: it needs no chunk that names it, and nor does a name only in a follow-up's earlier
    topic ("How can I try it out locally? (small Prettier plugin Lisp-like language…)": the
    conversation's setting), unless the asking sentence asks about a thing of the scene by
    "its" ("I use Sublime Text with the JsPrettier package. Which setting in its
    settings file…", `asks_of_scene`).
    """
    asked = appended_topic(question)[0]
    asking = asking_sentences(asked)
    of_scene = asks_of_scene(asked)
    in_asking = {
        name: of_scene or _writes(asking, name) for name in _question_names(question, vocabulary)
    }
    rare = [name for name, asked_of in in_asking.items() if _passing(name, vocabulary, asked_of)]
    if not rare:  # most questions: the kept chunks need not be read
        return []
    how_to = asks_how_to(asked)
    missing = []
    for name in rare:
        named = terms(name)
        if not in_asking[name]:
            continue  # only in the scene or the earlier turn: the reader's setting
        if how_to:
            rest = topic_terms(asking) - named
            answered = any(
                discusses(c["payload"], name)
                and vocabulary.coverage(rest, _chunk_terms(c["payload"])) >= HOW_TO_COVERAGE
                for c in kept
            )
        else:
            answered = any(_mentions_in_account(c["payload"], name) for c in kept)
        if not answered:
            missing.append(name)
    return missing


def unexplained_subject(question: str, vocabulary: Vocabulary, kept: list[Candidate]) -> str:
    """The thing a question asks to be defined ("What's xacro?", or a name of the scene it
    points back at: "…moved to useSyncExternalStore. What is that hook?"), when the book
    mentions it only in passing (in at most `PASSING_MENTIONS` chunks: the thing may be any
    words, so one that titles no section is not rare for that, as a name would be in
    `passing_names`) and no `kept` chunk explains it (`_explains`). The passing mention (a list
    of build tools, a namespace in an example) is all an answer could quote, and it does not
    say what the thing is. "" when the question asks no such thing or the book explains it."""
    thing = defined_thing(question)
    for asked in [thing] if thing else pointed_names(question):
        if not 0 < _mentions_of(asked, vocabulary) <= PASSING_MENTIONS:
            continue
        if not any(_explains_thing(c["payload"], asked) for c in kept):
            return asked
    return ""


def _explains_thing(payload: dict, thing: str) -> bool:
    """Whether a chunk says what `thing` is: it explains the thing's last word (`_explains`),
    or, for a thing of several words, writes them all and explains one of them in its own
    right, by its own section's heading, a bold term or a definition ("What are xacro
    macros?" met by the "Xacro" section: "**Xacro** is an XML macro language… macros with
    parameters"); a page title that names one of them does not (the Isaac Sim lesson's one
    "ROS 2 bridge extension" says nothing of what Isaac Sim extensions are)."""
    if _explains(payload, thing_terms(thing), _headings(payload)):
        return True
    words = terms(thing)
    if len(words) < 2 or not words <= terms(f"{_headings(payload)}\n{payload.get('text', '')}"):
        return False
    own = " ".join([*payload.get("heading_path", [])[1:], *payload.get("section_headings", [])])
    return any(_explains(payload, frozenset({word}), own) for word in words)


def _explains(payload: dict, subject: frozenset[int], headings: str) -> bool:
    """Whether a chunk says what `subject` is: one of its `headings` names it, a sentence
    defines it, or the text sets it in bold, as books do where they introduce a term ("ROS 2
    is built on **DDS** (Data Distribution Service), an industry middleware standard…"), or
    gives it as another name of what it has just named (`ALIAS`: "The `isaac_ros_visual_slam`
    package (cuVSLAM) tracks features in stereo images…")."""
    text = payload.get("text", "")
    return (
        subject <= terms(headings)
        or any(subject <= terms(span) for span in BOLD.findall(text))
        or any(subject == terms(alias) for alias in ALIAS.findall(text))
        or text_defines(text, subject)
    )


def _mentions_in_account(payload: dict, name: str) -> bool:
    """Whether a chunk mentions `name` where it says something of it, or its page's keywords
    name it (`_keywords`). A package or product that a chunk shows only in its code blocks is
    used there, not explained (an example that imports `@prettier/plugin-oxc` says nothing of
    whether it is faster than the babel parser); an identifier (`INIT`, `userId`) is code's own
    word, and the code that uses it counts."""
    text = payload.get("text", "")
    if not identifier_like(name):
        text = outside_code_blocks(text)
    return _writes(f"{_keywords(payload)}\n{text}", name, every_term=False)


def _question_names(question: str, vocabulary: Vocabulary) -> list[str]:
    """`question_names`, the hyphenated package names of the book's code and links that the
    question writes, and the words it writes in lower case that the book writes only as names
    ("isaac sim in a docker container", of a book that writes only "Docker")."""
    names = question_names(question)
    unquoted = QUOTED.sub(" ", question)
    written = {name.lower() for name in names}
    code = compounds(unquoted) & vocabulary.compound_chunks.keys()
    lower = {word for word, _ in placed_words(unquoted) if word in vocabulary.name_words}
    return names + sorted((code | lower) - written)


def _passing(name: str, vocabulary: Vocabulary, asked: bool) -> bool:
    """Whether the book mentions `name` only in passing (see `passing_names`). A name that
    titles nothing counts only when the reader `asked` about it in their own sentence, not
    when it comes with a follow-up's earlier topic ("…(RViz)"), which sets the scene."""
    mentions = _mentions_of(name, vocabulary)
    if not 0 < mentions <= OWN_SUBJECT_SHARE * vocabulary.chunks:
        return False
    untitled = vocabulary.headed is not None and not terms(name) <= vocabulary.headed
    return mentions <= PASSING_MENTIONS or (untitled and asked)


def _mentions_of(name: str, vocabulary: Vocabulary) -> int:
    """How many chunks write `name`: a package name counted whole, any other by its rarest
    term (`_mentions`)."""
    if name.lower() in vocabulary.compound_chunks:
        return vocabulary.compound_chunks[name.lower()]
    return _mentions(terms(name), vocabulary)


def _writes(text: str, name: str, *, every_term: bool = True) -> bool:
    """Whether `text` writes `name`: a package name whole; any other by its terms, every one
    of them or (`every_term` False) any."""
    if COMPOUND.fullmatch(name.lower()):
        return name.lower() in compounds(text)
    named, written = terms(name), terms(text)
    return named <= written if every_term else bool(named & written)


def foreign_features(question: str, vocabulary: Vocabulary, kept: list[Candidate]) -> list[str]:
    """Another thing's feature ("Yarn's zero-installs", "Mocha's --bail") that no `kept` chunk
    names together with its owner.

    Docs name the tools they are compared with, and their own feature of the same name
    (Jest's `bail`) answers a different question. The book's own subject is not another
    thing: an owner in more than `OWN_SUBJECT_SHARE` of the book's chunks ("Redux's opinion
    on form state", in Redux's docs) is left to the other rules, and so is a feature named
    only by framing words ("Whisper's role").
    """
    found = []
    for match in POSSESSIVE.finditer(QUOTED.sub(" ", question)):
        owner = terms(match["owner"])  # none for "What's", "That's"
        feature = topic_terms(match["feature"])
        own_subject = _mentions(owner, vocabulary) > OWN_SUBJECT_SHARE * vocabulary.chunks
        if not owner or not feature or own_subject:
            continue
        if not any(owner | feature <= _chunk_terms(c["payload"]) for c in kept):
            found.append(match.group())
    return found


def _mentions(name: frozenset[int], vocabulary: Vocabulary) -> int:
    """In how many of the book's chunks a name can occur: as many as hold its rarest term."""
    return min((vocabulary.document_frequency.get(t, 0) for t in name), default=0)


def unnamed_flags(question: str, kept: list[Candidate]) -> list[str]:
    """Command-line flags the question names (`--backend`) that no `kept` chunk names.

    Docs spell out each flag they document, and its words alone ("backend") are common ones
    the book may use for anything else, so the flag must appear as written.
    """
    flags = FLAG.findall(QUOTED.sub(" ", question).lower())
    if not flags:
        return []
    written = {f for c in kept for f in FLAG.findall(c["payload"].get("text", "").lower())}
    return [flag for flag in dict.fromkeys(flags) if flag not in written]


def _chunk_terms(payload: dict) -> frozenset[int]:
    return terms(" ".join([payload.get("text", ""), *payload.get("heading_path", [])]))


def discusses(payload: dict, name: str) -> bool:
    """Whether a chunk speaks of a name itself: its headings name it, or its text does outside
    links (a catalogue that only links to the thing points elsewhere for how to use it)."""
    prose = LINK.sub(" ", payload.get("text", ""))
    return _writes(f"{_headings(payload)}\n{prose}", name, every_term=False)


def _headings(payload: dict) -> str:
    """A chunk's headings: those above it and those inside it, and its page's keywords
    (`_keywords`), as one line."""
    headings = [*payload.get("heading_path", []), *payload.get("section_headings", [])]
    return " ".join([*headings, _keywords(payload)])


def _keywords(payload: dict) -> str:
    """The page's front-matter keywords and tags, as one line: what its author says each of its
    sections is about, in the author's words. A lesson keyed "llm planner" teaches planning with
    an LLM in sections that say "language model", and may write "LLM" only in its objectives."""
    return " ".join(payload.get("keywords") or [])


@dataclass(kw_only=True)
class GradeThresholds:
    """Where relevance starts (the graph's `Context` inherits these, as per-request knobs)."""

    min_text_coverage: float = 0.2
    """Share of the question's topic weight the chunk must contain."""
    min_dense: float = 0.25
    """Minimum cosine of question and chunk."""
    max_unknown_share: float = 0.65
    """Above this share of topic weight on terms the book never uses, the question is off-book."""
    kept_first: int = 4
    """How many of the reranker's first candidates are kept whenever any candidate passes: as
    many as an answer reads by default (`top_k`), so a source the reranker chose for it is not
    replaced by a lower one that repeats more of the question's words."""


def unknown_share(question: str, vocabulary: Vocabulary) -> float:
    """IDF-weighted share of the question's topic terms that the book never uses."""
    wanted = topic_terms(question)
    total = sum(vocabulary.idf(t) for t in wanted)
    unknown = sum(vocabulary.idf(t) for t in wanted if not vocabulary.knows(t))
    return unknown / total if total else 0.0


def off_book(question: str, vocabulary: Vocabulary, thresholds: GradeThresholds) -> bool:
    """Whether the question is about something the book never covers, whatever is retrieved."""
    return (
        bool(unknown_names(question, vocabulary))
        or unknown_share(question, vocabulary) > thresholds.max_unknown_share
        or _asks_only_unknown_words(question, vocabulary)
    )


def _asks_only_unknown_words(question: str, vocabulary: Vocabulary) -> bool:
    """Whether a follow-up condensed with its earlier topic ("can it dance? (domain
    randomization)") asks, in its own words, only about words the book never uses, or uses
    everywhere (a robotics book's "robot"): the topic's words are the book's, and would
    otherwise make anything asked of it look covered. The words that point back to the topic
    ("is there one for safari?") are not its own."""
    own, topic = appended_topic(question)
    asked = topic_terms(ANAPHORA.sub(" ", own))
    telling = {t for t in asked if vocabulary.knows(t)} - vocabulary.everyday(asked)
    return bool(topic and asked) and not telling


def ask_coverage(
    question: str, candidates: list[Candidate], vocabulary: Vocabulary
) -> dict[str, float]:
    """For a question that sets a scene before it asks ("My feet slip in Gazebo. How do I add
    friction?"), each candidate's share of the topic of the sentences that ask
    (`asking_sentences`); {} when every sentence asks.

    The scene's words (the reader's setup, symptoms, earlier attempts) need not be in the
    section that answers, and they dilute the question's topic when it is counted whole.
    """
    question, topic = appended_topic(question)
    asking = asking_sentences(question)
    if asking == question.strip():
        return {}
    asked = topic_terms(f"{asking} {topic}")
    return {
        c["id"]: vocabulary.coverage(asked, terms(c["payload"].get("embedded_text", "")))
        for c in candidates
    }


WHOLE_TOPIC_WORDS = 2
"""A question whose topic is at most this many words names one thing ("loop closure")."""


def naming_whole_topic(
    question: str, candidates: list[Candidate], vocabulary: Vocabulary
) -> frozenset[str]:
    """The candidates whose text writes the whole topic of a question of one or two topic
    words, all of them the book's ("loop closure", "explain grounding", "grounding?"), as the
    question writes it. Such a question is far in embedding space from every chunk longer
    than a sentence, while a chunk that writes the very thing says something of it."""
    words = topic_words(question)
    if not 0 < len(words) <= WHOLE_TOPIC_WORDS or unknown_share(question, vocabulary) > 0:
        return frozenset()
    phrase = re.compile(
        r"(?<![\w-])" + r"[\s-]+".join(map(re.escape, words)) + r"(?![\w-])", re.IGNORECASE
    )
    return frozenset(c["id"] for c in candidates if phrase.search(c["payload"].get("text", "")))


def grade_offline(
    ranked: list[Candidate],
    thresholds: GradeThresholds,
    asked: dict[str, float] | None = None,
    known: float = 1.0,
    named: frozenset[str] = frozenset(),
) -> list[Candidate]:
    """The reranked candidates that support an answer, best first (may be empty).

    A candidate covers enough of the question when it covers enough of the whole question, or
    of its asking sentence (`asked`, from `ask_coverage`). The section a structural question
    asks for ("I finished the quick start; where do I go next?" meeting "What's Next?") needs
    no embedding closeness: such a question's words are about the reader's course, not the
    section's content; nor, when the book uses every word of the question, does a chunk that
    says what it asks to be defined (the `defines` signal: "what is grounding?" met by one
    step of a six-step list, "4. **Grounding**: resolve…", a chunk the question is far from as
    a whole). The subject is the asked thing's head noun ("rate" of "What is the capital gains
    tax rate…?"), so a question with words the book never uses is not exempt; nor do the
    chunks that write the whole topic of a question of a word or two (`named`, from
    `naming_whole_topic`: "loop closure", "explain grounding"). When anything
    passes, the reranker's first choices (`kept_first`) are kept too: the reranker combines
    every signal, while a threshold looks at one, and the section that answers a paraphrased
    question, or a long section's part that answers it, often shares few of the question's
    words.

    Coverage is judged over the words the book uses (`known`: their share of the question's
    topic weight, from `unknown_share`): a reader's own word that the book never uses can be
    covered by no chunk, and `off_book` already judges those words.
    """
    asked = asked or {}
    passing = [
        c
        for c in ranked
        if max(c["signals"]["text"], asked.get(c["id"], 0.0))
        >= thresholds.min_text_coverage * known
        and (
            max(c["dense_score"], c.get("spoken_dense", 0.0)) >= thresholds.min_dense
            or c["signals"].get("asked_section")
            or (c["signals"].get("defines") and known >= 1.0)
            or c["id"] in named
        )
    ]
    if not passing:
        return []
    # a chunk that writes the very thing asked about answers it; the reranker's other first
    # choices met it by a stem or by meaning ("ground-truth" for "grounding")
    first = [] if any(c["id"] in named for c in passing) else ranked[: thresholds.kept_first]
    kept = {c["id"] for c in [*passing, *first]}
    return [c for c in ranked if c["id"] in kept]
