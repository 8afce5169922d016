"""Lexical analysis shared by the offline nodes: terms, sentences, question intents.

Terms are the stemmed, stopword-free token ids of Qdrant's BM25 analyzer, so what the grader
and the extractive answerer call "a term" is exactly what the keyword index matches on.
"""

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from agent.offline.irregular import base_forms
from core.embeddings import bm25_analyzer
from core.safety import SCHEME
from core.structure import titles_section

QUESTION_FRAMING = (
    "explain describe tell show give list mean meaning difference different purpose role "
    "work works working use used using example examples book chapter lesson section please "
    "understand know learn need want would could should main key way ways thing "
    "things something anything happen happens also versus vs summarise make "
    "summarize summary see cover covers covered say says many much"
)
"""Words that frame a question rather than name its topic; they never decide relevance."""
FRAMING_PHRASE = re.compile(
    r"\b(?:stands?|stood) for\b|\bshort for\b|\b(?:types?|kinds?|sorts?) of\b"
    r"|\b(?:this|the|your) (?:course|handbook|textbook|tutorial|guide|manual)\b"
    r"|\bimportan(?:t|tly|ce)\b|\b(?:make|makes|making|made|be) sure\b",
    re.IGNORECASE,
)
"""Phrases that frame a question though their words need not ("What does URDF stand for?"
asks about URDF; "How does the robot stand up?" is about standing), and a reader's names for
the documentation itself ("Do I need a GPU for this course?" asks about GPUs, whatever the
book calls itself; "docs" and "site" are left out, being topics of documentation tools).
"important" is matched as written: its stem is "import", a topic of every JavaScript book
("An import of just one name goes past my print width"). "Make sure" asks for a way, while a
robot that "isn't sure what it's looking at" is about uncertainty."""
CHAT_WORDS = frozenset(
    ("ok", "okay", "fyi", "btw", "imo", "imho", "tbh", "tldr", "afaik", "iirc", "asap", "thx")
)
"""Words of chat ("Is it OK to…", "OK, and…", "FYI"): they frame a question too, and readers
often write them in capitals, where they would read as names."""
STRUCTURAL_INTENTS = {
    "learning objectives": re.compile(
        r"\bobjectives?\b|\blearning (goals|outcomes)\b|\bgoals of (the|this)\b"
        r"|\bbe able to do\b|\bwill i learn\b|\blearn in (the|this)\b"
        r"|\b(what|which) topics (does|do|are|will)\b[^?]*\bcover"
        r"|\bwhat (does|will) (the|this|that) \w+ cover\b"
    ),
    "prerequisites": re.compile(
        r"\bprerequisites?\b|\bneed (to know )?before\b|\bbefore (starting|i start|beginning)\b"
    ),
    "key takeaways": re.compile(
        r"\btakeaways?\b|\b(key|main) points\b|\bsummar|\brecap\b"
        r"|\bremember from\b|\bshould i remember\b|\btake away from\b"
    ),
    "next steps": re.compile(
        r"\bnext steps?\b|\bcomes? (next|after (the|this))\b|\bwhere do i go\b"
        r"|\b(read|study|learn|do) next\b"
    ),
    "starting point": re.compile(
        r"\bwhere (?:do|should|can|would|to) (?:i |we |you |one )?(?:start|begin)\b"
        r"(?=\s*(?:$|[?.!,;:]|with\b|reading\b|learning\b|if\b|as\b|when\b|in\b|here\b))"
        r"|\b(?:read|study|learn) first\b|\bfirst (?:page|chapter|lesson|module) to read\b"
        r"|\bin (?:what|which) order (?:should|do|can) (?:i|we|you) (?:read|take|follow|go)\b"
    ),
}
"""Structural sections a question can ask for, and the phrases that ask for them: phrases about
the reader's course ("what will I learn", "what comes after this chapter", "what should I read
first?"), not words that also ask about the topic ("how does the robot remember", "what do I
need to know about QoS", "where do I start the bridge?")."""
HEADING = re.compile(r"^#{1,6}\s+\S")
LIST_ITEM = re.compile(r"^([-*+]|\d+[.)])\s+")
COMMAND_ASKED = (
    r"(?:which|what|exact) (?:\S+ )?commands?|commands? line"
    r"|commands? (?:to|for) (?!(?:my|the|a|an|your|our|its|this|that|it|them)\b)"
    r"|commands? (?:do|should|can|would|must) (?:i|we|you)"
)
"""A command the reader asks for: "which command…", "the exact npm command", "the command to
reset", "the command line", "the `--check` command". A command given or sent ("the LLM gives a
dangerous command", "velocity commands to my robot", "a voice command") is what a program or
a person tells a robot, not a command line."""
CODE_INTENT = re.compile(
    rf"\b(code|snippet|example|{COMMAND_ASKED}|script"
    r"|how do i (write|run|launch|create|build|install|start|configure)|show me|syntax|cli"
    r"|terminal|how (?:do|can|should) (?:i|we|you) [^?.]* in (?:python|typescript|javascript"
    r"|c\+\+|rust|java|kotlin|swift))\b|(?:`[^`]+`|(?<![\w-])--?\w[\w-]*) commands?\b",
    re.IGNORECASE,
)
"""Words that ask for code or a command line, and a how-to in a programming language ("how do I
make one in Python?")."""
WHY = re.compile(r"\bwhy\b|\bhow come\b|\bwhat(?:'s| is) the (?:reason|point)\b", re.I)
REASON = re.compile(
    r"\b(?:because|since|so that|therefore|thus|hence|due to|the reason|otherwise|"
    r"in order to|that's why|this is why|which is why)\b|, so\b",
    re.I,
)
FAILURE_REPORTED = re.compile(
    r"\b(?:(?<!\bto )fail(?:s|ed|ing)?(?!\s+(?:if|when|whenever|on|unless)\b)"
    r"|errors?|crash(?:es|ed|ing)?|broken(?!\s+(?:up|into|onto|down|across|out|over)\b)"
    r"|hangs|freezes"
    r"|(?:does|do|did|is|are|wo|can)(?:n't| not) (?:work|start|run|build|compile|load|connect"
    r"|receiv|arriv|updat|re-?render|fir|trigger|respond)\w*"
    r"|not (?:working|starting|running|building|loading|connecting|receiving|arriving|updating"
    r"|re-?rendering|firing|triggering|responding))\b",
    re.I,
)
"""Words with which a reader reports that something goes wrong ("colcon build fails", "my
node doesn't start", "my subscriber is not receiving messages"); not a failure they want ("I
want CI to fail on unformatted code", "make the build fail if…"), nor a string "broken up"
into lines."""
TROUBLE = re.compile(
    r"\b(?:fail\w*|errors?|crash\w*|problems?|troubleshoot\w*|fix\w*|warn\w*|exceptions?"
    r"|issues?|mistakes?|wrong|debug\w*|symptoms?|broken|pitfalls?)\b",
    re.I,
)
"""Words with which a book speaks of something going wrong, or of putting it right."""
WARNING = re.compile(
    r"^(?:(?:so|but|and|however|also|instead),?\s+)?"
    r"(?:(?:try|please|be careful|make sure)\s+(?:not\s+to|to\s+avoid|never)\b"
    r"|(?:avoid|don['’]t|do not|never)(?![\w-]))",
    re.I,
)
"""How a sentence opens that tells the reader not to do something ("Try to avoid…", "Don't
mutate…", "However, never…"; not "Never-ending…" nor "Avoiding it takes practice")."""
ADVICE_ASKED = re.compile(
    r"\bshould (?:i|we|you|my|our|it|they|each|every)\b|\bhow should\b"
    r"|\bis it (?:ok|okay|fine|safe|bad|wise|a good idea|recommended|better)\b"
    r"|\b(?:can|could) i just\b|\bbest (?:way|practice)\b|\brecommend"
    r"|\bdo i (?:need|have) to\b",
    re.I,
)
ADVICE = re.compile(
    r"\brecommend|\byou should\b|\bshould(?:n't| not| never| always)\b|\bintended\b"
    r"|\bbest practice|\bprefer|\bavoid\b|\bmust\b|\bencourage|\bsuggest"
    r"|\bdo not\b|\bdon't\b|\bnever\b|\bgood idea\b|\bbad idea\b",
    re.I,
)
REQUIREMENT_ASKED = re.compile(r"\b(?:needs?|required?|requires|requirements?)\b", re.I)
"""Words by which a question asks what a thing needs ("Does it need a GPU?")."""
NAME_ASKED = re.compile(
    r"\b(?:which|what)\s+(?:\w+\s+)?(?:options?|settings?|flags?|config(?:uration)?s?|keys?"
    r"|propert(?:y|ies)|parameters?|api|calls?|functions?|methods?|hooks?|plugins?|packages?)\b"
    r"|\bwhat do (?:i|we) (?:set|pass|put|add|change)\b|\bwhat (?:can|should) (?:i|we) set\b"
    r"|\bis there (?:a|an) (?:option|setting|flag)\b",
    re.I,
)
WHAT_IS = r"^\s*what(?:'s|s|\s+is|\s+are)\s+"
NARROWING = (
    r"(?:\s+(?:in|of|for|on|with|when|used|as)\b[^?]*"
    r"|,?\s+and\s+(?:how|what|why|when|where|which|who|is|are|does|do|can|should)\b[^?]*)?"
    r"\s*\??\s*$"
)
DEFINITION_ASKED = (
    re.compile(
        rf"{WHAT_IS}(?:meant\s+by|the\s+(?:deal|story)\s+with)\s+(?:an?\s+|the\s+)?"
        rf"(?P<subject>[^?]+?){NARROWING}",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*what\s+(?:does|do)\s+(?:people|you|they|we|folks)\s+mean\s+by\s+(?:an?\s+|the\s+)?"
        rf"(?P<subject>[^?]+?){NARROWING}",
        re.IGNORECASE,
    ),
    re.compile(
        rf"{WHAT_IS}(?:an?\s+|the\s+)?(?P<subject>[^?]+?)(?:,?\s+(?:exactly|actually|really))?"
        rf"{NARROWING}",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*what\s+(?:does|do)\s+(?:an?\s+|the\s+)?(?P<subject>[^?]+?)\s+"
        r"(?:actually\s+|really\s+|even\s+)?mean\b[^?]*\??\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*what\s+(?:does|do)\s+(?:an?\s+|the\s+)?(?P<subject>[^?]+?)\s+"
        r"(?:actually\s+|really\s+|exactly\s+)?do(?:\s+(?:with|to|for|in)\b[^?]*"
        r"|,?\s+and\s+(?:how|what|why|where|which|is|are|does|do|can|should)\b[^?]*)?\s*\??\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(?P<subject>[^?,:;]+?)\s*(?:[-:,\u2013\u2014]+\s*|\s)what(?:'s|s|\s+is|\s+are)\s+"
        r"(?:that|it|this|those|these|they)\b[^?]*\??\s*$",
        re.IGNORECASE,
    ),
)
"""How a reader asks what a thing is: "What is a ROS 2 node?", "What's a thunk, exactly?",
"What does hydration mean?", "What is meant by the reality gap?", "What's the deal with
ducks?", "Store enhancer: what is that?"."""
POINTING_WORDS = frozenset(("that", "this", "these", "those", "it", "they", "them"))
"""A subject that opens so points back at the reader's scene ("What does that comment
mean?"): it asks what one thing there means, not what a term of the docs is."""
OWNING_WORDS = frozenset(("its", "their", "my", "your", "our"))
"""A subject that opens with a possessive asks for a property of a thing named elsewhere
("What's its default value?" after printWidth), not what a term of the docs is."""
JUDGING_WORDS = frozenset(
    [
        "good",
        "best",
        "better",
        "right",
        "ideal",
        "typical",
        "reasonable",
        "recommended",
        "sensible",
        "safe",
        "normal",
        "usual",
        "optimal",
        "preferred",
        "correct",
        "proper",
        "appropriate",
        "suitable",
        "realistic",
        "maximum",
        "minimum",
    ]
)
"""A subject that opens with a judgement asks for a value or a choice ("What's a good update
rate for the IMU?", "What is the best way to…"), not what a term of the docs is."""
DEFINING_VERB = re.compile(r"\s(?:is|are|means|refers to|stands for)\s", re.IGNORECASE)
GLOSSARY_ENTRY = re.compile(
    r"^(?:(?:[-*+]|\d{1,3}[.)])\s+)?(?:\*\*(?P<bold>[^*\n]{1,80})\*\*|__(?P<under>[^_\n]{1,80})__)"
    r"(?:\s*\([^)\n]*\))?\s*(?::|[-\u2013\u2014]\s)"
)
"""A glossary's way of defining: a term set in bold and followed by a colon or a dash, alone
or as a list item, numbered or not ("- **Real-time factor**: the ratio of…", "4.
**Grounding**: resolve…")."""
PARENTHESISED = re.compile(r"\([^)]*\)")
LINK_TARGET = re.compile(r"(?<=\])\([^)\s]*\)")
"""A Markdown link's target, after its text: `[Redux Toolkit](https://…)`."""
NAME_MARKUP = re.compile(r"[*_`\[\]]+")
"""Emphasis, code and link brackets around the words of a name."""
MAX_DEFINITION_QUESTION = 120
"""A question that asks what a thing is is short; a longer one is not read for it (which also
bounds the pattern's backtracking on long input)."""
PREPOSITION = re.compile(
    r"(?<=\S)\s+(?:in|of|for|with|on|from|at|by|inside|within|under|between|through|into|about"
    r"|across|without|behind)\s",
    re.IGNORECASE,
)
"""A preposition after the first word, where the phrase that names a sentence's subject ends."""
OPENING_PHRASE = re.compile(
    r"^\s*(?:in|on|for|at|by|with|from|within|inside|under|after|before|when|as)\b[^,]*,",
    re.IGNORECASE,
)
"""A phrase that opens a sentence before its subject ("In ROS 2, an action is…")."""
OPENING_CLAUSE = re.compile(
    r"^\s*(?:if|when|whenever|while|although|though|unless|once|because|since|whereas)\b[^,.;:]*,",
    re.IGNORECASE,
)
"""A clause that opens a sentence with a verb of its own ("If real images are available,
…"): what it says is a condition, not what the sentence's subject is."""
HOW_IT_IS = re.compile(
    r"\s*(?:(?:now|still|currently|also|always|usually|often|very)\s+)?[A-Za-z-]+[.!]?\s*",
    re.IGNORECASE,
)
"""A predicate that says how a thing is, not what it is: one plain word, perhaps after an
adverb ("VLAs are young.", "`factory` is optional.", "Immer 10.0 is now final, and has…"). A
name in code or in bold after the verb still says what the thing is. The predicate's first
phrase is read, up to a comma or a second clause (`PREDICATE_END`)."""
PREDICATE_END = re.compile(r"[,;]|\s(?:and|but|so)\s")
"""Where a predicate's first phrase ends; not at a colon, after which a definition goes on
("**\"Normalized state\"** means that:" and its list)."""
DEFINED_WORDS = 6
"""A definition names what it defines among its first words, before its verb ("A **node** is
a process…", "The reality gap is…")."""
LITERAL = re.compile(r"^(?:true|false|null|undefined|none|-?\d[\w.]*|\"[^\"]*\"|'[^']*')$", re.I)
"""A code span that is a value, not a name: `true`, `"auto"`, `80`."""
NAME_LETTERS = re.compile(r"[A-Za-z]{2}")
"""A name has letters: `>` or `{}` is a symbol the prose talks about."""
BARE_WORD = re.compile(r"[a-z]+")
"""A code span of one lower-case word (`auto`, `off`): as often an option's value as a name; a
name asked for is written as one (`embeddedLanguageFormatting: "off"`, `--no-semi`)."""
AMOUNT_ASKED = re.compile(
    r"\bhow (?:long|many|much|often|big|large|small|far|fast|soon|old|frequently)\b", re.I
)
NUMBER = (
    r"(?:\d+(?:[.,]\d+)*|an?|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty"
    r"|sixty|a few|several|hundreds? of|thousands? of)"
)
UNIT = (
    r"(?:%|percent|ms|milli(?:second)?s?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?"
    r"|months?|years?|[kmgt]i?b|bytes?|kilobytes?|megabytes?|gigabytes?|characters?|chars"
    r"|lines?|columns?|times|px|pixels?|hz|khz|fps|frames?|steps?|retries|attempts|requests?"
    r"|workers?|threads?|cores?|processes|degrees?|meters?|metres?|m/s|cm|mm|km|kg|grams?"
    r"|volts?|watts?|amps?|nm|rpm)"
)
AMOUNT = re.compile(rf"(?<![\w.`/#-]){NUMBER}[\s-]?{UNIT}(?!\w)|\btwice\b|\bevery {NUMBER}\b", re.I)
KNOWLEDGE = re.compile(
    r"\b(?:know|knowledge|familiar(?:ity)?|comfortable with|experience with|understand(?:ing)?)\b",
    re.I,
)
"""What a prerequisite says the reader should already know, rather than do."""
PART_OF_BOOK = r"(?:lesson|chapter|module|section|unit|week|part|tutorial|guide|page)"
TAUGHT_ELSEWHERE = re.compile(
    rf"\b(?:previous|earlier|last|prior|first|second|third) {PART_OF_BOOK}\b"
    rf"|\b(?:covered|taught|explained|introduced|described|shown) (?:in|by)\b"
    rf"|\b{PART_OF_BOOK} \d+(?:\.\d+)*\b"
    r"|\]\((?!\w+:)[^)\s]+\)",
    re.I,
)
"""Where a prerequisite says the book teaches it: another of its parts ("from the previous
lesson", "(covered in Module 1)") or a link to one of its pages."""
NEGATION = re.compile(r"\b(?:not|never|nothing|none|cannot|no longer)\b|n't\b", re.I)
BOLD = re.compile(r"\*\*[^*]+\*\*|__[^_]+__")
LABEL = re.compile(r"^\s*(\*\*|__)[^*_\n]+\1\s*:?\s*$")
CAPTION = re.compile(r"^\s*([*_])(?![*_\s])[^*_\n.!?]{1,40}(?<!\s)\1\s*:?\s*$")
"""A few words in italics on a line of their own, no sentence: a caption such as "*Server*" or
"*Client (ES modules)*" over the code block it names, as docs write tabs without a tab widget."""
LINK_ITEM = re.compile(r"^(?:[-*+]|\d+[.)])\s+([*_]{0,2})\[[^\]\n]+\]\([^)\s]+\)\1\s*$")
"""A list item that is one link and nothing else."""
TYPICAL_TOPIC_TERMS = 8
"""The median count of topic terms (`answer_terms`) in a reader's question: 7 to 8 on the three
shared question sets."""
HOW_TO = re.compile(r"\bhow (?:do|can|should|would) (?:i|we|you)\b|\bhow to\b", re.I)
SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)(?<!\bcf\.)\s+(?=[A-Z0-9`*\"'(\[])"
)
"""Where a sentence ends: not after "e.g.", "i.e.", "vs." or "cf." (the example after "e.g."
belongs to its sentence)."""
WORD = re.compile(r"[A-Za-z][A-Za-z0-9+#._-]*[A-Za-z0-9+#]|[A-Za-z]")
QUESTION_SENTENCE_END = re.compile(rf"(?<=\?)\s+|{SENTENCE_END.pattern}")
"""Where a sentence of the reader's ends: as in a book, and after any question mark, whatever
follows (readers type on in lower case: "what is recast? the docs say it was forked")."""
SENTENCE_ENDS = ".?!:"
FENCE = re.compile(r"^(`{3,}|~{3,})")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9]")
"""A command-line flag as a question writes it: `--frozen-lockfile`."""
CODE_NAME = re.compile(r"`[^`]+`|(?<!\S)\S*[-_./@]\w\S*|(?<!\w)\w*[a-z][A-Z]\w*")
ORDERED_ITEM = re.compile(r"^\d+[.)]\s+")
ADMONITION = re.compile(r"^:::")
TAG_LINE = re.compile(r"^</?[A-Za-z][\w.]*(\s[^<>]*)?/?>$")
BLOCKQUOTE = re.compile(r"^\s*(>\s?)+")
ADMONITION_TITLE = re.compile(
    r"^(?:Note|Tip|Info|Caution|Warning|Danger|Important|Success|Secondary): (?P<title>.+)$",
    re.MULTILINE,
)
"""An admonition's title as ingest writes it (`ingest.mdx`: ":::tip What You'll Learn" becomes
the line "Tip: What You'll Learn.")."""


QUOTED = re.compile(r"(?<!\w)'[^'\n]+'(?!\w)|\"[^\"\n]+\"|“[^”\n]+”")
ABBREVIATIONS = frozenset(("e.g", "i.e"))
"""Written like identifiers, named nothing."""
READERS_OWN = re.compile(
    r"\b(?:[Mm]y|[Oo]ur|[Aa]n?)\s+(?:own\s+)?`?\w*[a-z][A-Z][\w.$-]*`?"
    r"(?=\s+(?:key|field|variable|function|method|class|component|hook|prop|property|reducer"
    r"|action|selector|thunk|slice|store|module|constant|type|interface|parameter|argument"
    r"|attribute|object|array|value|test|route|endpoint|query|mutation)s?\b)"
)
"""A name the reader gives their own code, written as code is (camelCase) and introduced as
theirs: "my TodoList component", "an apiBaseUrl key" (but "a Pinia store" names a library)."""


ACRONYM_PLURAL = re.compile(r"\b([A-Z][A-Z0-9]+)s\b")
"""An all-caps name with a plural "s" ("GPUs", "LLMs"), which the stemmer keeps apart from
the name ("gpus" is not "gpu")."""


PREFIX_HYPHENED = re.compile(
    r"\b(?P<prefix>re|pre|non|sub|multi|co|un|de|inter|over|under|post|auto)-(?P<word>[a-z]+)",
    re.IGNORECASE,
)
"""A word with a prefix and its hyphen ("re-render", "non-blocking"), which writers as often
leave out: read as written and as one word."""


VERSIONED_NAME = re.compile(r"(?<![\w.-])(?P<name>[a-z]{2,}|[A-Z]{2,})[0-9](?![\w.-])")
"""A name with its major version written on ("ROS2", "tf2", "HTML5"), which writers as often
set apart ("ROS 2") or leave out ("TF" for tf2): read as written and as the name alone. Only
a name in one case: a capitalised word with a digit is more often a name in example code
(`App2`, `Item1`) than a version."""


@lru_cache(maxsize=4096)
def terms(text: str) -> frozenset[int]:
    """Stemmed term ids of `text`, stopwords removed (Qdrant's BM25 analyzer), irregular forms
    taken as their base form (`agent.offline.irregular`: "written" is "write"), an all-caps
    name's plural as the name ("Do I need two GPUs?" asks about the book's GPU) and a
    prefixed word with a hyphen also as one word ("re-renders" also as "rerenders")."""
    singular = ACRONYM_PLURAL.sub(r"\1", text)
    joined = PREFIX_HYPHENED.sub(lambda m: f"{m.group()} {m['prefix']}{m['word']}", singular)
    joined = VERSIONED_NAME.sub(lambda m: f"{m.group()} {m['name']}", joined)
    return frozenset(bm25_analyzer().embed_query(base_forms(joined)).indices)


def placed_words(text: str) -> Iterator[tuple[str, bool]]:
    """Each word of `text` (identifiers such as `max_width` and `rustfmt.toml` whole), and
    whether it opens a sentence, where any word is written capitalised."""
    for match in WORD.finditer(text):
        before = match.start() - 1
        while before >= 0 and text[before].isspace():
            before -= 1
        yield match.group(), before < 0 or text[before] in SENTENCE_ENDS


def capitalised_terms(texts: Iterable[str]) -> frozenset[int]:
    """Terms of the words `texts` write capitalised where no sentence opens: what they name
    ("Go", "Redux", a heading's "Store"), as opposed to words they only use ("go ahead").
    Each distinct word is analysed once, however many texts write it."""
    written = {
        word
        for text in texts
        for word, opens in placed_words(text)
        if word[0].isupper() and not opens
    }
    return frozenset[int]().union(*(terms(word) for word in written))


NAMED_AFTER_A_WORD = re.compile(r"(?<![\w.])[a-z]+ +([A-Z][a-z]+)\b")
"""A capitalised word after a lower-case one, in the middle of a sentence ("run it in Docker")."""
LOWER_CASE_WORD = re.compile(r"\b[a-z]+\b")


def name_words(texts: Iterable[str]) -> frozenset[str]:
    """Lower-cased words `texts` write only as names: capitalised after a lower-case word in
    prose (not in code, nor in a heading, which may be written in title case), and never in
    lower case anywhere, code included. A reader who types "docker" in a book that only writes
    "Docker" names the same thing; a book that also writes `docker run` uses it as a command."""
    named: set[str] = set()
    lower: set[str] = set()
    for text in texts:
        lower.update(LOWER_CASE_WORD.findall(text))
        prose = "\n".join(
            line for line in outside_code_blocks(text).splitlines() if not HEADING.match(line)
        )
        named.update(match[1].lower() for match in NAMED_AFTER_A_WORD.finditer(prose))
    return frozenset(named - lower)


INLINE_CODE = re.compile(r"`([^`\n]*)`")
PROMPT = re.compile(r"^\s*[$>]\s+")


FILE_NAME = re.compile(
    r"(?<![\w./-])(?:[\w-]+/)*\.?[\w-]+(?:\.[\w-]+)*\."
    r"(?:[cm]?[jt]sx?|json5?|ya?ml|toml|mdx?|xml|html|s?css|less|sh|txt|lock|ini|cfg|env"
    r"|py|rb|rs|go|java|kt|php|urdf|xacro|sdf|usda?|vue|svelte)(?![\w.-])",
    re.IGNORECASE,
)
"""A file's name as code writes it, by one of the common extensions (`talk.launch.py`,
`src/store.ts`, `.prettierrc.json`)."""


def without_file_names(unit: str, asked: frozenset[str]) -> str:
    """A unit with the file names its code passes to a command or program blanked out, except
    those in `asked` (the lower-cased names a question writes): such a name is the example's
    choice ("talk" in `ros2 launch my_robot_bringup talk.launch.py`), and its words say
    nothing of the passage ("How do nodes talk to each other?"). A code span that is a file's
    name alone is the prose naming that file ("reference it in your `package.json`"), kept."""

    def blank(match: re.Match[str]) -> str:
        return match.group() if match.group().lower() in asked else " "

    def in_span(span: re.Match[str]) -> str:
        if FILE_NAME.fullmatch(span[1].strip()):
            return span.group()
        return FILE_NAME.sub(blank, span.group())

    if is_code(unit):
        return FILE_NAME.sub(blank, unit)
    return INLINE_CODE.sub(in_span, unit)


def command_terms(texts: Iterable[str]) -> frozenset[int]:
    """Terms of the words `texts` show only as commands: each opens a line of a code block or a
    code span (`deno install`, `npx prettier`) and is never written outside code."""
    opening: set[str] = set()
    prose: set[str] = set()
    for text in texts:
        for line, in_block in _marked_lines(text):
            if in_block:
                opening.update(_first_word(PROMPT.sub("", line)))
            else:
                for span in INLINE_CODE.findall(line):
                    opening.update(_first_word(span))
                prose.update(m.group().lower() for m in WORD.finditer(INLINE_CODE.sub(" ", line)))
    only_code = frozenset[int]().union(*(terms(word) for word in opening))
    return only_code - frozenset[int]().union(*(terms(word) for word in prose))


def outside_code_blocks(text: str) -> str:
    """`text` without its fenced code blocks: what it says in prose, lists, tables and
    headings."""
    return "\n".join(line for line, in_code in _marked_lines(text) if not in_code)


def _marked_lines(text: str) -> Iterator[tuple[str, bool]]:
    """Each line of `text` but the fences, and whether it is inside a fenced code block."""
    fence: str | None = None
    for line in text.splitlines():
        opened = FENCE.match(line.strip())
        if fence is None and opened:
            fence = opened.group(1)[0]
        elif fence is not None and opened and opened.group(1)[0] == fence:
            fence = None
        else:
            yield line, fence is not None


COMPOUND = re.compile(r"(?<![\w.-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?![\w-])")
"""A lower-case hyphenated word: a package name such as `connected-react-router`, or a prose
compound (`old-style`). Identifiers with `_` or `.` (`console.error`, `max_width`) are names
by `question_names` already and are read by their terms: docs write `console.error` as
"error" under `console` as often as whole."""
LINK_TEXT = re.compile(r"\[([^\]\n]+)\]\(")
LINKED_NAME = re.compile(rf"(?:@?[\w.-]+/)?{COMPOUND.pattern}")
"""A link's whole text naming a package, with its owner or scope if any
(`supasate/connected-react-router`, `@scope/eslint-config`)."""


def compounds(text: str) -> set[str]:
    """The hyphenated words `text` writes (`COMPOUND`), lower-cased."""
    return set(COMPOUND.findall(text.lower()))


def code_compounds(texts: Iterable[str]) -> frozenset[str]:
    """Hyphenated words `texts` write as code or as the whole text of a link: the names of
    packages and commands (`parallel-prettier`), as opposed to prose compounds (`old-style`,
    or "front-end" in a linked article's title, "Overwhelmed with learning front-end…")."""
    named: set[str] = set()
    for text in texts:
        for line, in_block in _marked_lines(text):
            links = [
                t for t in LINK_TEXT.findall(line.lower()) if LINKED_NAME.fullmatch(t.strip("`*_ "))
            ]
            in_code = [line] if in_block else [*INLINE_CODE.findall(line), *links]
            named.update(*(compounds(piece) for piece in in_code))
    return frozenset(named)


def _first_word(code: str) -> list[str]:
    match = WORD.match(code.strip())
    return [match.group().lower()] if match else []


@lru_cache(maxsize=1)
def framing_terms() -> frozenset[int]:
    """Term ids of the question-framing words and the words of chat."""
    return terms(f"{QUESTION_FRAMING} {' '.join(CHAT_WORDS)}")


def topic_terms(question: str) -> frozenset[int]:
    """The terms that say what a question is about."""
    return terms(FRAMING_PHRASE.sub(" ", question)) - framing_terms()


def answer_terms(question: str) -> frozenset[int]:
    """The topic terms, plus every term of a name written as code (`--list-different`,
    `use_sim_time`, `createSelector`), where even a framing word names the topic."""
    names = " ".join(CODE_NAME.findall(question))
    return topic_terms(question) | (terms(names) if names else frozenset())


def long_question(question: str) -> bool:
    """Whether a question has more topic terms than a typical one (`TYPICAL_TOPIC_TERMS`): a
    scene, symptoms and more than one ask, which an answer needs more of the book to meet."""
    return len(answer_terms(question)) > TYPICAL_TOPIC_TERMS


def structural_intent(question: str) -> str | None:
    """Which structural section a question asks for (objectives, takeaways, ...), if any."""
    lowered = question.lower()
    for section, cues in STRUCTURAL_INTENTS.items():
        if section in lowered or cues.search(lowered):
            return section
    return None


def heading_answers_intent(intent: str, heading: str, text: str = "") -> bool:
    """Whether a section, by its heading or by an admonition title in its `text`, is the
    structural section a question asks for (tutorials often open a page with ":::tip What
    You'll Learn" or ":::info Prerequisites" rather than a heading)."""
    titles = [heading, *(match["title"] for match in ADMONITION_TITLE.finditer(text))]
    return any(titles_section(intent, title) for title in titles)


def asks_how_to(question: str) -> bool:
    """Whether the question asks how to do something ("how do I…", "how to…")."""
    return bool(HOW_TO.search(question))


def asks_why(question: str) -> bool:
    """Whether the question asks for a reason ("why…", "how come…")."""
    return bool(WHY.search(asking_sentences(question)))


def failing_subject(question: str) -> frozenset[int]:
    """The topic terms of what the reader reports goes wrong in what they ask ("colcon build
    fails, what do I do?": colcon, build); empty when they report nothing going wrong. A
    failure told in the scene of a question that asks something else ("Do I really have to set
    up Redis…? Right now clients fail to connect.") is the reader's setting, and a report with
    no question mark is itself the ask (a pasted error message)."""
    reported = _reported(question)
    if not FAILURE_REPORTED.search(reported):
        return frozenset()
    return topic_terms(FAILURE_REPORTED.sub(" ", reported))


def tells_failure(sentence: str) -> bool:
    """Whether a sentence tells of something failing, in the words a reader would report it
    with ("…causing HTTP errors like `414 URI Too Long`", "the build fails"), not only of
    problems or fixes in general."""
    return bool(FAILURE_REPORTED.search(INLINE_CODE.sub(" ", sentence)))


def warns_against(sentence: str) -> bool:
    """Whether a sentence tells the reader not to do something ("Try to avoid dispatching
    several times synchronously in a row…", "Don't mutate…"): what to do instead usually
    follows it."""
    return bool(WARNING.match(sentence.strip().lstrip("*_")))


def failure_words(question: str) -> frozenset[int]:
    """The terms of the words with which the reader reports a failure ("fails", "error"): a
    sentence that shares only these with the question speaks of another thing going wrong
    ("…makes TF lookups fail" for "colcon build fails…")."""
    return terms(" ".join(FAILURE_REPORTED.findall(_reported(question))))


def _reported(question: str) -> str:
    """Where a reader's report of a failure is read: the sentences that ask, or the whole
    question when none ends in "?", without its code spans."""
    asking = asking_sentences(question)
    return INLINE_CODE.sub(" ", asking if asking.rstrip().endswith("?") else question)


def speaks_of_trouble(unit: str) -> bool:
    """Whether a unit speaks of something going wrong: a failure, an error, a fix, or that a
    thing does not happen ("A subscriber that asks for `RELIABLE` delivery will not
    receive anything…")."""
    return bool(TROUBLE.search(INLINE_CODE.sub(" ", unit))) or negated(unit)


def gives_reason(sentence: str) -> bool:
    """Whether a sentence gives a reason ("…, so it's not enabled by default", "because…")."""
    return bool(REASON.search(sentence))


def asks_advice(question: str) -> bool:
    """Whether the question asks what to do ("should I…", "is it OK to…", "how should…"),
    not which section to read ("what should I remember from…")."""
    return bool(ADVICE_ASKED.search(asking_sentences(question))) and not structural_intent(question)


def gives_advice(sentence: str) -> bool:
    """Whether a sentence says what to do ("the intended pattern is…", "we recommend…")."""
    return bool(ADVICE.search(sentence))


def defined_thing(question: str) -> str:
    """The thing a question asks to be defined, as the reader writes it ("What is a ROS 2
    node?": "ROS 2 node"; "What does the ROS Gazebo bridge do?", which asks what it is for:
    "ROS Gazebo bridge"), or "" when it asks something else. The words after "in", "of"…
    narrow the question ("What is a reducer in Redux terms?"), not the thing defined, and a
    second ask after "and" ("What is X and how does it differ from Y?") is another part."""
    words = _defined_words(question)
    if not 0 < len(words) <= 4 or words[0].lower() in POINTING_WORDS | OWNING_WORDS | JUDGING_WORDS:
        return ""
    return " ".join(words)


def without_setting(question: str) -> str:
    """A question that asks what a thing is, without the setting it names right after the thing
    ("What is a TF tree in ROS 2?" as "What is a TF tree?"): in a book about ROS 2 every
    section is in ROS 2, so the setting's words tell the sentence that says what the thing is
    from no other. Any other question as it is."""
    thing = defined_thing(question)
    if not thing:
        return question
    setting = re.compile(rf"(?<={re.escape(thing)})\s+in\b[^?]*", re.IGNORECASE)
    return setting.sub("", question, count=1)


def pointed_names(question: str) -> list[str]:
    """The names a question that asks what something is points back at, in the scene it sets
    before asking ("I read that React-Redux moved to useSyncExternalStore. What is that
    hook?": "React-Redux", "useSyncExternalStore"); none when it asks no such thing."""
    words = _defined_words(question)
    if not words or words[0].lower() not in POINTING_WORDS:
        return []
    return scene_names(question)


OWNED_BY_THE_SCENE = re.compile(r"\bits\b", re.IGNORECASE)
"""A possessive by which an asking sentence asks about a thing the scene named ("I use Sublime
Text with the JsPrettier package. Which setting in its settings file…")."""


def asks_of_scene(question: str) -> bool:
    """Whether the question's asking sentences ask about a thing its scene named, by "its",
    rather than about the reader's situation ("…causes glitches. How do I fix that?")."""
    asking = asking_sentences(question)
    return asking != question.strip() and bool(OWNED_BY_THE_SCENE.search(asking))


def scene_names(question: str) -> list[str]:
    """The names a question mentions only in the scene it sets before it asks."""
    asked = set(question_names(asking_sentences(question)))
    return [name for name in question_names(question) if name not in asked]


def _defined_words(question: str) -> list[str]:
    """The words of what the asking sentence asks to be defined, as written; none when it asks
    no such thing (or is too long to be asking only that)."""
    asked = QUESTION_SENTENCE_END.split(asking_sentences(question))[0]  # "What is X? Is it…?"
    if len(asked) > MAX_DEFINITION_QUESTION:
        return []
    found = next((m for p in DEFINITION_ASKED if (m := p.match(asked))), None)
    return found["subject"].strip("\"'`\u201c\u201d ").split() if found else []


def defined_subject(question: str) -> frozenset[int]:
    """The terms of the last word of the thing a question asks to be defined ("What is a ROS
    2 node?": node), which a definition names before its verb; none when it asks no such
    thing."""
    return thing_terms(defined_thing(question))


LINKED_PAIR = re.compile(r"\S+ to \S+")
"""A thing named by two words linked by "to" ("sim to real", "end to end"): the compound
that books write with hyphens, which names neither word alone."""


def thing_terms(thing: str) -> frozenset[int]:
    """The terms of a `defined_thing`'s last word (none for ""), which a definition names
    before its verb; for a `LINKED_PAIR`, the terms of both its words."""
    if LINKED_PAIR.fullmatch(thing):
        return terms(thing)
    return terms(thing.split()[-1]) if thing else frozenset()


DOING_ASKED = re.compile(r"^\s*what\s+(?:does|do)\s+[^?]+?\s+do\b", re.IGNORECASE)
"""How a reader asks what a tool does ("What does the ros gazebo bridge do?")."""


def asks_what_it_does(question: str) -> bool:
    """Whether the asking sentence asks what a thing does."""
    return bool(DOING_ASKED.match(asking_sentences(question)))


MARKED_NAME = re.compile(r"(\*\*|`)(?P<name>[^*`\n]{1,60})\1")
"""A name set in bold or as code, as docs write the tool or API they introduce."""
ACTING_VERB = re.compile(r"\s(?P<verb>[a-z]{3,}[^s\W]s)\b")
"""A verb in the present tense of a singular subject ("translates", "publishes")."""


def tells_what_it_does(sentence: str, subject: frozenset[int]) -> bool:
    """Whether a sentence says what a tool does: it opens by naming it, set in bold or as code,
    and goes on with what it does ("The **`ros_gz_bridge`** package translates between the
    two." for "what does the ros gazebo bridge do?"); "Each bridged topic names…" names no
    tool."""
    around = _around_verb(sentence, ACTING_VERB)
    return bool(subject) and around is not None and _marks_name(around[0], subject)


def introduces_term(sentence: str, subject: frozenset[int]) -> bool:
    """Whether a sentence `defines` the subject and sets its name in bold or as code, as a book
    marks the term it introduces ("A **topic** is a named, typed channel…", "**Real-time
    Factor**: Ratio of…")."""
    return defines(sentence, subject) and _marks_name(sentence, subject)


def _marks_name(text: str, subject: frozenset[int]) -> bool:
    """Whether `text` sets a name of the subject in bold or as code (`MARKED_NAME`)."""
    return any(subject <= terms(m["name"]) for m in MARKED_NAME.finditer(text))


def _around_verb(sentence: str, verb: re.Pattern[str]) -> tuple[str, str] | None:
    """The words before and after the main clause's `verb` (after an `OPENING_CLAUSE`), when
    at most `DEFINED_WORDS` words come before it: where a sentence names what it speaks of."""
    main_clause = OPENING_CLAUSE.sub("", sentence, count=1)
    found = verb.search(main_clause)
    if found is None or len(main_clause[: found.start()].split()) > DEFINED_WORDS:
        return None
    return main_clause[: found.start()], main_clause[found.end() :]


def defines(sentence: str, subject: frozenset[int]) -> bool:
    """Whether a sentence says what `subject` is: it names it among the words before its verb
    ("A node is a process…", not "A ROS 2 system is a graph of nodes") and more than how it is
    after it (not "Nodes are cheap."), or it is a glossary entry whose bold term names it (by
    its last word, `_entry_term`). The verb is the main clause's, after an `OPENING_CLAUSE`
    ("If real images are available, …" does not say what real images are). A subject of
    several terms (a hyphenated name: "sim-to-real", "redux-thunk") is named only by all of
    them ("**NVIDIA Isaac Sim** is…" does not say what sim-to-real is). A one-term subject
    written only as the front of a longer capitalised name is not named by it ("**RTK Query**
    is…" does not say what RTK is, nor "Redux Toolkit is…" what Redux is; "Redux Toolkit (RTK)
    is…" and "The rclpy library is…" do)."""
    if not subject:
        return False
    if entry := GLOSSARY_ENTRY.match(sentence.lstrip()):
        return subject <= terms(_entry_term(entry["bold"] or entry["under"], subject))
    around = _around_verb(sentence, DEFINING_VERB)
    if around is None:
        return False
    before, after = around
    if HOW_IT_IS.fullmatch(PREDICATE_END.split(after, maxsplit=1)[0]):
        return False
    return subject <= terms(_named(before, subject)) and not _front_of_name(before, subject)


def _named(before: str, subject: frozenset[int]) -> str:
    """The words before a sentence's verb that name what it is about: after an opening phrase
    ("In ROS 2, an action is…"), and before the phrase that narrows it ("A **node**, in ROS 2,
    is…" is about a node, "Sensors in Gazebo are…" about sensors, "Familiarity with Gazebo
    helps but is…" about familiarity); a one-term subject is not named by a hyphened word that
    holds it ("A vision-language-action model is…" is about a model, not an action)."""
    named = PREPOSITION.split(OPENING_PHRASE.sub("", before), maxsplit=1)[0]
    return COMPOUND.sub(" ", named.lower()) if len(subject) == 1 else named


def _front_of_name(before: str, subject: frozenset[int]) -> bool:
    """Whether a one-term subject is written, in the words before a sentence's verb, only as
    the front of a longer name: each word holding it followed by a capitalised word ("RTK" of
    "**RTK Query**"), not by a common noun ("rclpy library"), a number ("ROS 2") or a
    parenthesis ("NITROS (NVIDIA…)")."""
    if len(subject) != 1:
        return False
    words = NAME_MARKUP.sub(" ", LINK_TARGET.sub("", before)).split()
    holding = [i for i, word in enumerate(words) if subject <= terms(word)]
    return bool(holding) and all(i + 1 < len(words) and words[i + 1][0].isupper() for i in holding)


def _entry_term(bold: str, subject: frozenset[int]) -> str:
    """The words of a glossary entry's bold term that name what it defines: for a one-term
    subject, its last word outside parentheses ("**Real-time factor** (RTF)" defines a
    factor; "**TF Tree Problems**" defines problems, not a TF tree)."""
    words = PARENTHESISED.sub(" ", bold).split()
    return words[-1] if len(subject) == 1 and words else bold


def text_defines(text: str, subject: frozenset[int]) -> bool:
    """Whether any sentence, list item or glossary entry of a chunk's text `defines` the
    subject (never when there is none)."""
    return bool(subject) and any(defines(unit, subject) for unit in split_units(text))


def asks_amount(question: str) -> bool:
    """Whether the question asks for an amount ("how long…", "how many…", "how often…")."""
    return bool(AMOUNT_ASKED.search(asking_sentences(question)))


def states_amount(sentence: str) -> bool:
    """Whether a sentence states an amount with its unit outside its code ("…after 60
    seconds", "10 ms", "twice"): a bare number is as often a version, a count of nothing or an
    index."""
    return bool(AMOUNT.search(INLINE_CODE.sub(" ", sentence)))


def asks_requirement(question: str) -> bool:
    """Whether the question asks what something needs or requires ("Does Isaac Sim need a
    GPU?", "What are the hardware requirements?")."""
    return bool(REQUIREMENT_ASKED.search(asking_sentences(question)))


def asks_name(question: str) -> bool:
    """Whether the question asks for the name of a setting or an API ("which option…", "what
    do I set…", "which API call…"): its answer must say the name, as the docs write it in code."""
    return bool(NAME_ASKED.search(asking_sentences(question)))


def names_in_code(unit: str, said: frozenset[int] = frozenset()) -> bool:
    """Whether a unit writes a name in code (`--bracket-same-line`, `bracketSameLine: <bool>`,
    a short configuration block, or a flag in a table, where MDX docs write code as HTML that
    the book's text keeps plain), not only a value (`true`, `"auto"`, a lone `off`) or one
    word of `said` (the question's terms: "a tagged template with a tag named `html`" answers
    "HTML inside a template string: what setting controls that?" with the reader's own word,
    not a setting; `--end-of-line`, made of the words of "line endings", is the setting)."""
    if is_code(unit) or (is_table(unit) and FLAG.search(INLINE_CODE.sub(" ", unit))):
        return True
    return any(
        NAME_LETTERS.search(span)
        and not LITERAL.match(span.strip())
        and not BARE_WORD.fullmatch(span.strip())
        and not _one_of(span, said)
        for span in INLINE_CODE.findall(unit)
    )


def _one_of(span: str, said: frozenset[int]) -> bool:
    """Whether a code span is a single word of `said`."""
    words = terms(span)
    return len(words) == 1 and words <= said


def asks_knowledge(sentence: str) -> bool:
    """Whether a sentence asks the reader to know something ("You need to know ROS 2 actions
    (Module 1)"), not to do a step ("Install ROS 2 Jazzy and source its setup script")."""
    return bool(KNOWLEDGE.search(sentence))


def taught_elsewhere(sentence: str) -> bool:
    """Whether a prerequisite says where the book teaches it ("A running Gazebo world with a
    spawned robot, from the previous lesson"), rather than asking for a step the book leaves
    to the reader ("Install ROS 2 Jazzy and source its setup script")."""
    return bool(TAUGHT_ELSEWHERE.search(sentence))


def negated(text: str) -> bool:
    """Whether a text says something does not happen ("…will not receive anything")."""
    return bool(NEGATION.search(INLINE_CODE.sub(" ", text)))


def points_only(text: str) -> bool:
    """Whether a text only sends the reader elsewhere: each of its lines a list item that is
    one link, a bold label ("**Discussions**") or a heading (the tail of an FAQ entry's
    "Further information", split from the entry's answer)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bool(lines) and all(
        LINK_ITEM.match(line) or is_label(line) or is_heading(line) for line in lines
    )


ANY_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")
PAGE_FILE = re.compile(r"(?P<path>[^#]+\.mdx?)(?:#(?P<anchor>.+))?")
"""A link target that is a page of the book by its file (`../api/store.md#subscribe`), when it
has no scheme and is not a route or an anchor of the same page."""
POINTING = re.compile(
    r"\b(?:see|refer to|can be found|check out|read (?:more|about)|documented|described|"
    r"explained|covered|more here|for (?:more|details))\b",
    re.I,
)
"""Words by which a sentence sends the reader elsewhere."""
SIGNPOST_UNITS = 2
"""At most this many sentences (headings aside) make a section that only points elsewhere."""


def signpost_link(text: str) -> tuple[str, str] | None:
    """The page file and anchor a section sends the reader to when that is all it does: at
    most `SIGNPOST_UNITS` sentences besides its headings, each holding a link, one of them
    pointing ("See [TypeScript Usage](MockFunctionAPI.md#jestmockedsource) chapter of Mock
    Functions page for documentation.") to another page of the book. None otherwise."""
    said = [u.text for u in parse_units(text) if not is_heading(u.text)]
    if not 0 < len(said) <= SIGNPOST_UNITS or not all(ANY_LINK.search(u) for u in said):
        return None
    if not any(POINTING.search(u) for u in said):
        return None
    targets = [link["target"] for unit in said for link in ANY_LINK.finditer(unit)]
    page = next((found for target in targets if (found := _page_file(target))), None)
    return (page["path"], page["anchor"] or "") if page else None


def _page_file(target: str) -> re.Match[str] | None:
    """`target` read as a page file of the book (`PAGE_FILE`), or None: a link with a scheme
    (`SCHEME`, as the answer's link policy reads one), a route or an anchor is no page file."""
    if SCHEME.match(target) or target.startswith(("/", "#")):
        return None
    return PAGE_FILE.fullmatch(target)


def is_label(unit: str) -> bool:
    """Whether a unit is only a bold label ("**Performance-Guided Randomization**", a formula
    such as "**t = k / s**") or an italic caption (`CAPTION`): a heading in all but markup for
    what is under it. Quoted alone it said nothing; with what it heads
    (`agent.offline.cohesion`), fact recall 0.755 / 0.711 / 0.621 -> 0.767 / 0.714 / 0.621
    (humanoid / Redux / Prettier, shipped weights), no fact lost, answers under 2 % longer."""
    return bool(LABEL.match(unit) or CAPTION.match(unit))


def is_title(unit: str) -> bool:
    """Whether a unit is a label that is no sentence ("**Detailed Example: Custom Store
    Setup**", "*Server*", a formula): it heads what is under it, unlike a sentence set in
    bold, which says something of its own."""
    return is_label(unit) and not unit.strip().strip("*_").rstrip().endswith((".", "!", "?"))


def emphasised(unit: str) -> bool:
    """Whether most of a unit is in bold: the author's own mark of a key statement."""
    return sum(len(span) for span in BOLD.findall(unit)) >= len(unit) / 2


COMMAND_LINE_ASKED = re.compile(
    r"\b(?:from|in|on|at|with) (?:the|a) (?:command[- ]line|terminal|shell)\b", re.I
)
"""Words by which a how-to asks for a command to type rather than a program ("…from the
command line?"); a tool's CLI is a name ("the Prettier CLI")."""
SHELL_BLOCK = re.compile(
    rf"{FENCE.pattern}\s*(?:bash|sh|shell|console|zsh|fish|powershell|ps1|cmd)\b"
)
"""A code block in a shell's language."""
COMMAND_WORD = re.compile(r"\w")
"""A word of a command has a letter or digit: `ros2 service call`, not the `>` of a prompt."""


def asks_command_line(question: str) -> bool:
    """Whether a how-to's asking sentences want a command to type ("How do I call a service
    from the command line?"), not only say where a flag was passed ("…I pass a flag on the
    command line, which one wins?")."""
    asking = asking_sentences(question)
    return asks_how_to(asking) and bool(COMMAND_LINE_ASKED.search(asking))


CODE_LANGUAGES = {
    "json": ("json", "jsonc", "json5"),
    "yaml": ("yaml", "yml"),
    "toml": ("toml",),
    "javascript": ("js", "javascript", "jsx", "mjs", "cjs"),
    "typescript": ("ts", "typescript", "tsx", "mts", "cts"),
    "python": ("python", "py"),
    "html": ("html",),
    "css": ("css",),
    "xml": ("xml",),
}
"""Languages a reader names ("in JSON", "a lefthook.yml"), each with the fence info strings
a code block in it opens with."""
_LANGUAGE_OF_SPELLING = {
    spelling: language
    for language, spellings in CODE_LANGUAGES.items()
    for spelling in (language, *spellings)
}
NAMED_LANGUAGE = re.compile(
    rf"\b({'|'.join(sorted(_LANGUAGE_OF_SPELLING, key=len, reverse=True))})\b",
    re.IGNORECASE,
)
"""A language's name or file extension as a word: "JSON", the "yml" of "lefthook.yml"."""
BLOCK_LANGUAGE = re.compile(rf"{FENCE.pattern}\s*([\w+-]+)")
"""A fence's info string, up to its first space: the `json` of ```json title="x.json"."""
SYNTAX_WORD = re.compile(r"[\w+-]+")
"""A word of a question that may name a syntax: "hbs" of "a .hbs template"."""


def named_languages(question: str) -> frozenset[str]:
    """The code languages a question names, by name or by a file's extension ("Show me a
    .prettierrc in JSON", "a lefthook.yml", "my babel.config.js")."""
    return frozenset(_LANGUAGE_OF_SPELLING[m.lower()] for m in NAMED_LANGUAGE.findall(question))


def _fence_info(unit: str) -> str | None:
    """A code block's fence info string, lower-cased, up to its first space (None: none)."""
    found = BLOCK_LANGUAGE.match(unit.lstrip())
    return found.group(2).lower() if found else None


def block_language(unit: str) -> str | None:
    """The language a code block is written in, by its fence's info string (None: unnamed,
    or one `CODE_LANGUAGES` does not know)."""
    info = _fence_info(unit)
    return _LANGUAGE_OF_SPELLING.get(info) if info else None


def written_in_asked_syntax(unit: str, question: str) -> bool:
    """Whether a code block's fence names a syntax the question writes, as a word or a file's
    extension: ```hbs for "a .hbs template", whatever `CODE_LANGUAGES` knows."""
    info = _fence_info(unit)
    return bool(info) and info in {word.lower() for word in SYNTAX_WORD.findall(question)}


def is_shell_block(unit: str) -> bool:
    """Whether a unit is a code block in a shell's language (```bash, ```console)."""
    return bool(SHELL_BLOCK.match(unit.lstrip()))


def says_command(unit: str) -> bool:
    """Whether a sentence gives a command in its code, two words or more ("You can call a
    service from the terminal too: `ros2 service call /add_two_ints …`")."""
    return not is_code(unit) and any(
        len([word for word in span.split(" ") if COMMAND_WORD.search(word)]) > 1
        for span in INLINE_CODE.findall(unit)
    )


def asks_for_code(question: str) -> bool:
    """Whether the question wants code or a command rather than prose, by the sentences that
    ask: "I passed my own ignore file on the command line…" sets the scene and asks nothing."""
    return bool(CODE_INTENT.search(asking_sentences(question)))


def asking_sentences(question: str) -> str:
    """The sentences of `question` that ask (those ending in "?", else its last one); the
    others set the scene (the reader's setup, symptoms, earlier attempts)."""
    sentences = QUESTION_SENTENCE_END.split(question.strip())
    return " ".join(s for s in sentences if s.rstrip().endswith("?")) or sentences[-1]


@dataclass(frozen=True)
class Unit:
    """A sentence, list item, heading, table or code block, with the block it belongs to."""

    text: str
    group: int
    """Units of one paragraph, one list or one block share it; blocks are groups of their own."""
    ordered: bool = False
    """An item of a numbered list (readers need such a list whole)."""
    nested: bool = False
    """A list item indented under another one (a detail of the item above it)."""


def split_units(markdown: str) -> list[str]:
    """Sentences, list items, headings, whole tables and whole code blocks of a chunk's text,
    in order. A heading unit keeps its `#` marks (see `is_heading`)."""
    return [unit.text for unit in parse_units(markdown)]


def parse_units(markdown: str) -> list[Unit]:
    """The units of `markdown` in order, each with its paragraph, list or block."""
    return _Parser().parse(markdown)


def _unindented(fence: list[str]) -> str:
    """A fenced block's lines without the indent of its opening fence (as Markdown reads a
    block nested in a list item): quoted on its own, the block would otherwise be indented
    code, its fences shown as text."""
    indent = len(fence[0]) - len(fence[0].lstrip(" "))
    return "\n".join(line[min(indent, len(line) - len(line.lstrip(" "))) :] for line in fence)


class _Parser:
    """One pass over the lines: paragraphs become sentences, lists items, blocks stay whole."""

    def __init__(self) -> None:
        self.units: list[Unit] = []
        self.group = 0
        self.paragraph: list[str] = []
        self.table: list[str] = []
        self.fence: list[str] | None = None
        self.list_ordered: bool | None = None  # None outside a list
        self.blank = False

    def parse(self, markdown: str) -> list[Unit]:
        for line in markdown.splitlines():
            self.line(line)
        self.flush()
        if self.fence:
            self.add(_unindented(self.fence))
        return self.units

    def add(self, text: str, ordered: bool = False, nested: bool = False) -> None:
        self.units.append(Unit(text, self.group, ordered, nested))

    def new_group(self) -> None:
        self.group += 1

    def flush(self) -> None:
        """End the open paragraph (or list item's text) and the open table."""
        if self.paragraph:
            text = " ".join(line.strip() for line in self.paragraph)
            continues = self.units and is_list_item(self.units[-1].text) and not is_label(text)
            if self.list_ordered is not None and continues:
                last = self.units.pop()  # a list item's continuation lines belong to it,
                # but not a caption over its example's code ("**eslint.config.js**")
                self.add(f"{last.text} {text}", last.ordered, last.nested)
            else:
                self.units.extend(
                    Unit(s.strip(), self.group) for s in SENTENCE_END.split(text) if s.strip()
                )
            self.paragraph.clear()
        if self.table:
            self.new_group()
            self.add("\n".join(self.table))
            self.table.clear()
            self.new_group()

    def end_list(self) -> None:
        if self.list_ordered is not None:
            self.list_ordered = None
            self.new_group()

    def line(self, line: str) -> None:
        if self.fence is not None:
            self.fence.append(line)
            if FENCE.match(line.strip()) and len(self.fence) > 1:
                self.add(_unindented(self.fence))
                self.fence = None
                if self.list_ordered is None:
                    self.new_group()
            return
        line = BLOCKQUOTE.sub("", line)  # a quote's text is text: its `>` would land mid-answer
        stripped = line.strip()
        indented = line[:1] in (" ", "\t")
        blank_before, self.blank = self.blank, not stripped
        if not stripped:
            self.flush()
            if self.list_ordered is None:
                self.new_group()
            return
        if ADMONITION.match(stripped) or TAG_LINE.match(stripped):
            self.flush()  # `:::tip` and lone JSX tags frame text; they are not text
            self.end_list()
            self.new_group()
            return
        if stripped.startswith("|"):
            if self.paragraph:
                self.flush()
            self.end_list()
            self.table.append(stripped)
            return
        if self.table:
            self.flush()
        in_list_block = self.list_ordered is not None and (indented or not blank_before)
        if FENCE.match(stripped):
            self.flush()
            if not (self.list_ordered is not None and indented):
                self.end_list()
                self.new_group()
            self.fence = [line]
        elif HEADING.match(stripped):
            self.flush()
            self.end_list()
            self.new_group()
            self.add(stripped)
            self.new_group()
        elif LIST_ITEM.match(stripped):
            self.flush()
            if self.list_ordered is None:
                self.new_group()
                self.list_ordered = bool(ORDERED_ITEM.match(stripped))
            self.add(stripped, self.list_ordered, nested=indented)
        elif in_list_block:
            self.paragraph.append(line)
        else:
            if self.list_ordered is not None:
                self.flush()
                self.end_list()
            self.paragraph.append(line)


def names_code(heading: str) -> bool:
    """Whether a heading is a code name alone: an option, a flag, an API ("`rootMode`",
    "--check", "shamefullyHoist")."""
    return CODE_NAME.fullmatch(heading.strip()) is not None


def is_heading(unit: str) -> bool:
    """Whether a unit is a Markdown heading."""
    return bool(HEADING.match(unit))


def heading_text(unit: str) -> str:
    """A heading unit's title, without its `#` marks."""
    return unit.lstrip("#").strip()


def heading_level(unit: str) -> int:
    """A heading unit's level: its number of `#` marks."""
    return len(unit) - len(unit.lstrip("#"))


def is_list_item(unit: str) -> bool:
    """Whether a unit is a bulleted or numbered list item."""
    return bool(LIST_ITEM.match(unit))


def is_block(unit: str) -> bool:
    """Whether a unit is a code block or a table, which answers keep whole on their own lines."""
    return is_code(unit) or is_table(unit)


def is_table(unit: str) -> bool:
    """Whether a unit is a table."""
    return unit.startswith("|")


def is_code(unit: str) -> bool:
    """Whether a unit is a fenced code block."""
    return bool(FENCE.match(unit.lstrip()))


def identifier_like(word: str) -> bool:
    """Whether a word is written the way code names things: all-caps (`INIT`), CamelCase
    (`userId`) or with `_` or `.` inside (`max_width`, `rustfmt.toml`)."""
    return bool(
        (word.isupper() and len(word) > 1)
        or re.search(r"[a-z][A-Z]", word)
        or re.search(r"[A-Za-z][_.][A-Za-z]", word)
    )


def question_names(question: str) -> list[str]:
    """Words of the question that name something: all-caps, CamelCase, identifier-like
    (`max_width`, `rustfmt.toml`) or capitalised.

    A capitalised word that opens a sentence counts only when it is one of the others: "How"
    and "Colleagues" open sentences, "MoveIt" is a name wherever it stands. Words in quotes
    are the reader's examples or a message they saw ("named like 'counterIncremented'"), and
    the names of the reader's own code ("my PostsFeed component", "an apiBaseUrl key") are
    theirs: neither is something they ask the book about. Nor is "OK", "FYI" or "e.g.".
    """
    names = []
    for word, opens_sentence in placed_words(READERS_OWN.sub(" ", QUOTED.sub(" ", question))):
        capitalised = word[0].isupper() and not opens_sentence
        ordinary = word.lower() in CHAT_WORDS or word.lower() in ABBREVIATIONS
        if (identifier_like(word) or capitalised) and terms(word) and not ordinary:
            names.append(word)
    return names
