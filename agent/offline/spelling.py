"""A question's misspelt words read as the book spells them.

Readers type fast and spell their own way: "lanch file", "gazbo", "domain randomisation" in a
book that writes "randomization". A word the book never uses weighs most in the keyword search
and in every rarity-weighted signal, and a question whose weight sits on such words is refused
as off-book, so one typo turned an answerable question into "This isn't covered".

A word of the question that the book never uses, in any form, is read as the book's word one
edit away (a letter inserted, deleted or changed, or two neighbours swapped), the one the most
chunks write when several are, when it is
- not an English word (pyspellchecker's English dictionary): "stock" is not a typo of "stack",
  nor "never" of "newer", in a book that happens not to use them; but a regional spelling of
  the book's word is read as the book spells it ("colour" as "color", "behavior" as
  "behaviour"), since it is one edit of a known kind (`regional_variant`);
- not changed in its first letter, which typing seldom gets wrong, while a name the book never
  mentions is often a book word with a letter before it ("pytest", "gevent", "dprint": another
  tool, asked about and to be refused, not "mytest", "event" or "print");
- at least `SPELLED_LENGTH` letters long (a short word is one edit from too many others), and
  not inside quotes or backticks (the reader's literal text).

A contraction typed without its apostrophe ("my node doesnt start", "whats a topic") is read
with it: as typed it is a word the book never uses, weighing most in every signal, and the
reader's "not" goes unread.

A word the book never uses that spells the initials of a run of names the book writes
(`agent.offline.initialisms`: "vslam" for "Visual SLAM") is read as that run, unless it is an
English word not typed in capitals ("bag" is a word, not "Based Action Generation"; "DOM" in
capitals is an initialism whatever the dictionary says). A question about an initialism alone
that the book declares after the name it shortens ("what's rtk?" of docs that write "Redux
Toolkit (RTK)") is read with that name before it ("what's Redux Toolkit (rtk)?"), on the same
condition. Two of the book's words joined by a
digit that reads as a word ("sim2real", "speech2text") are read hyphenated, as a book writes
them ("sim-to-real"), when the book never writes the joined word.
"""

import re
from collections.abc import Callable
from functools import cache

from spellchecker import SpellChecker

from agent.offline.condense import topic_words
from agent.offline.initialisms import INITIALISM_LENGTH
from agent.offline.text import INLINE_CODE, QUOTED, terms
from agent.retrieval.vocabulary import SPELLED_LENGTH, Vocabulary

SPELLED_WORD = re.compile(rf"(?<![\w`.-])[A-Za-z]{{{SPELLED_LENGTH},}}(?![\w`-])(?!\.\w)")
"""A plain word: letters only, not part of a name with digits, dots or hyphens."""
INITIALISM_WORD = re.compile(rf"(?<![\w`.-])[A-Za-z]{{{INITIALISM_LENGTH},}}(?![\w`-])(?!\.\w)")
"""A plain word as short as an initialism may be."""
QUOTED_OR_CODE = re.compile(rf"{QUOTED.pattern}|{INLINE_CODE.pattern}")
"""The reader's literal text: a quoted string or a code span."""


CONTRACTIONS = {
    contraction.replace("'", ""): contraction
    for contraction in (
        *("don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "can't"),
        *("couldn't", "wouldn't", "shouldn't", "won't", "haven't", "hasn't", "hadn't"),
        *("what's", "that's", "there's", "who's", "where's", "how's", "you're", "they're"),
        *("i'm", "i've", "you've", "we've", "they've"),
    )
}
"""Contractions as readers type them without the apostrophe; not those that spell another
word ("its", "lets", "were", "ill", "id", "well")."""
APOSTROPHE_LESS = re.compile(rf"(?<![\w'`.-])(?:{'|'.join(CONTRACTIONS)})(?![\w'`-])", re.I)
DIGIT_FOR_WORD = {"2": "to", "4": "for"}
DIGIT_JOINED = re.compile(r"(?<![\w`.-])[A-Za-z]{2,}[24][A-Za-z]{2,}(?![\w`-])(?!\.\w)")
"""Two words joined by a digit read as a word: "sim2real", "speech2text"."""


def book_spelling(question: str, vocabulary: Vocabulary) -> str:
    """`question` with its contractions typed without apostrophes read with them, and each
    misspelt word the book never uses read as the book spells it, as capitalised as the reader
    wrote it (a name with a capital inside, `createEnttyAdapter`, as the book writes it, or as
    typed when the book writes it in no such form), each initialism of a run of names the
    book writes as that run, a declared initialism asked about alone with its name
    (`_declared_in_full`), and two of the book's words joined by a digit that reads as a
    word as the book hyphenates them ("sim2real" as "sim-to-real"); unchanged when there is
    none."""

    def with_apostrophe(word: str) -> str:
        contraction = CONTRACTIONS[word.lower()]
        return contraction[0].upper() + contraction[1:] if word[0].isupper() else contraction

    def known(named: frozenset[int]) -> bool:
        return all(vocabulary.knows(term) for term in named)

    def respelled(word: str) -> str:
        named = terms(word)
        if not named or known(named):
            return word
        spelling = book_word(word.lower(), vocabulary)
        if spelling is None:
            return word
        if not word[1:].islower():  # a name in code: as the book writes it
            return vocabulary.written_as.get(spelling, word)
        return spelling.capitalize() if word[0].isupper() else spelling

    def spelled_out(word: str) -> str:
        run = vocabulary.initialisms.get(word.lower())
        if run is None or known(terms(word)) or _english_in_lower_case(word):
            return word
        return run

    def digit_read(word: str) -> str:
        first, digit, second = re.split(r"([24])", word, maxsplit=1)
        sides = (terms(first), terms(second))
        if not all(sides) or known(terms(word)) or not known(sides[0] | sides[1]):
            return word
        return f"{first}-{DIGIT_FOR_WORD[digit]}-{second}"

    question = _outside_literal_text(APOSTROPHE_LESS, with_apostrophe, question)
    question = _outside_literal_text(SPELLED_WORD, respelled, question)
    question = _outside_literal_text(INITIALISM_WORD, spelled_out, question)
    question = _declared_in_full(question, vocabulary)
    return _outside_literal_text(DIGIT_JOINED, digit_read, question)


def _declared_in_full(question: str, vocabulary: Vocabulary) -> str:
    """A question whose whole topic is an initialism the book declares after the name it
    shortens, with that name before it ("what's Redux Toolkit (rtk)?"); unchanged otherwise."""
    words = topic_words(question)
    if len(words) != 1 or _english_in_lower_case(words[0]):
        return question
    name = vocabulary.declared_initialisms.get(words[0].lower())
    if name is None:
        return question
    word = re.compile(rf"(?<![\w`.-]){re.escape(words[0])}(?![\w`-])")
    return word.sub(lambda found: f"{name} ({found.group()})", question, count=1)


def _english_in_lower_case(word: str) -> bool:
    """Whether a word is English, not typed in capitals ("bag", "slip"; not "DOM", "SLIP"):
    an initialism is read only where it cannot be the plain word."""
    return not word.isupper() and word.lower() in english_words()


def _outside_literal_text(words: re.Pattern[str], read: Callable[[str], str], text: str) -> str:
    """`text` with each match of `words` outside the reader's literal text (`QUOTED_OR_CODE`)
    replaced by what `read` makes of it."""
    literal = [match.span() for match in QUOTED_OR_CODE.finditer(text)]

    def replaced(match: re.Match[str]) -> str:
        if any(start <= match.start() < end for start, end in literal):
            return match.group()
        return read(match.group())

    return words.sub(replaced, text)


def book_word(word: str, vocabulary: Vocabulary) -> str | None:
    """The book's word that `word` (lower case, unknown to the book) misspells, or None."""
    english = english_words()
    near = [
        spelling
        for spelling in english.edit_distance_1(word)
        if spelling in vocabulary.spellings and spelling[0] == word[0]
    ]
    if word in english:
        near = [spelling for spelling in near if regional_variant(word, spelling)]
    return max(near, key=lambda spelling: (vocabulary.spellings[spelling], spelling), default=None)


def regional_variant(word: str, other: str) -> bool:
    """Whether two words one edit apart are the same word spelt the British and the American
    way: "-ise"/"-ize" and "-isation"/"-ization" (an s for a z), "colour"/"color" (a u
    before the closing r), "centre"/"center" (re for er at the end)."""
    if len(word) == len(other):
        changed = [(a, b) for a, b in zip(word, other, strict=True) if a != b]
        if len(changed) == 1 and set(changed[0]) == {"s", "z"}:
            return True
        return {word[-3:], other[-3:]} == {"tre", "ter"} and word[:-3] == other[:-3]
    longer, shorter = (word, other) if len(word) > len(other) else (other, word)
    return any(
        longer[:at] + longer[at + 1 :] == shorter and longer[at - 1 : at + 2] == "our"
        for at in range(1, len(longer) - 1)
    )


@cache
def english_words() -> SpellChecker:
    """pyspellchecker's English dictionary (about 0.4 s to load, once per process)."""
    return SpellChecker(language="en", distance=1)
