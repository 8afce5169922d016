"""A question's initialism read as the book's name it abbreviates.

Readers shorten the names they type: "what is vslam?" in a book that writes "Visual SLAM" and
never "VSLAM". A word the book never uses weighs most in the keyword search and in every
rarity-weighted signal, so such a question was refused as off-book.

The book's side (`book_initialisms`): every run of two to four capitalised words that the book
writes inside a sentence ("launch **Visual SLAM** against", not a sentence's opening word),
in at least `LEAST_CHUNKS` chunks, keyed by its initials, an all-caps word counting whole
("Visual SLAM" is "vslam", "Robot Operating System" "ros"); the commonest run wins a key.

The question's side is `agent.offline.spelling`: a word the book never uses that spells a
key is read as its run.

An initialism the book does use is read the same way when the book declares it, in a
parenthesis right after the name it shortens ("Redux Toolkit (RTK)", "Mock Service Worker
(MSW)": `declared_initialisms`), and a question asks about it alone ("what's rtk?"): docs
write such an initialism inside longer names too ("RTK Query"), whose sections would
otherwise answer. The initialism shortens the name when its letters are, in order, each
word's first letter and any later letters of that word ("RTK": **R**edux **T**ool**k**it),
as in Schwartz and Hearst's abbreviation matching.
"""

import re
from collections import Counter
from collections.abc import Iterable

from agent.offline.text import SENTENCE_ENDS

INITIALISM_LENGTH = 3
"""Shortest initialism read: two letters spell the initials of too many runs of words."""
LEAST_CHUNKS = 2
"""A run of names the book writes in fewer chunks is too rare to be what a reader shortens."""
LONGEST_RUN = 4
MARKUP = " *_[(\"'"
"""What may stand between a run and the text before it: spaces, emphasis, a link's bracket."""
OPENERS = f"{SENTENCE_ENDS}\n#-|>"
"""After these, a word opens a sentence, heading, list item, table cell or quote, where any
word is written capitalised."""
CAPITALISED_RUN = re.compile(r"(?<![\w.-])[A-Z][A-Za-z0-9]*(?:[ -][A-Z][A-Za-z0-9]*)+(?![\w-])")
DECLARED = re.compile(
    rf"(?P<name>{CAPITALISED_RUN.pattern})[*_`\]]*\s?(?:\([^()\s]*\))?\s\((?P<aside>[^()\n]{{1,40}})\)"
)
"""A capitalised run with a parenthesis after it (a link's target between them skipped):
"[Redux Toolkit](https://…) (RTK)", "**Redux Toolkit** (also known as **"RTK"** for short)"."""
ALL_CAPS = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]{1,7}(?![\w-])")


def initials(words: Iterable[str]) -> str:
    """What a run of words abbreviates to, lower-cased: each word's first letter, an all-caps
    word whole."""
    return "".join(w if len(w) > 1 and w.isupper() else w[0] for w in words).lower()


def book_initialisms(texts: Iterable[str]) -> dict[str, str]:
    """The runs of capitalised words `texts` write inside sentences, in at least
    `LEAST_CHUNKS` of them, by their `initials` (of at least `INITIALISM_LENGTH` letters)."""
    chunks_writing: Counter[str] = Counter()
    for text in texts:
        chunks_writing.update({run for words in _runs_inside_sentences(text) for run in words})
    by_initials: dict[str, str] = {}
    for run, chunks in chunks_writing.most_common():
        key = initials(run.split(" "))
        if chunks >= LEAST_CHUNKS and len(key) >= INITIALISM_LENGTH:
            by_initials.setdefault(key, run)
    return by_initials


def _runs_inside_sentences(text: str) -> Iterable[list[str]]:
    """For each run of capitalised words in `text`, its stretches of two to `LONGEST_RUN`
    words joined by a space, the word opening a sentence left out."""
    for match in CAPITALISED_RUN.finditer(text):
        words = re.split(r"[ -]", match.group())
        at = match.start() - 1
        while at >= 0 and text[at] in MARKUP:
            at -= 1
        if at < 0 or text[at] in OPENERS:
            words = words[1:]
        yield [
            " ".join(words[start:end])
            for start in range(len(words))
            for end in range(start + 2, min(start + LONGEST_RUN, len(words)) + 1)
        ]


def declared_initialisms(texts: Iterable[str]) -> dict[str, str]:
    """The initialisms `texts` declare in a parenthesis after the name they shorten, lower-cased,
    each with the name it shortens most often (`shortens`)."""
    declared: Counter[tuple[str, str]] = Counter()
    for text in texts:
        for match in DECLARED.finditer(text):
            initialisms = ALL_CAPS.findall(match["aside"])
            if len(initialisms) != 1:
                continue
            spans = list(re.finditer(r"[^ -]+", match["name"]))
            words = [word.group() for word in spans]
            start = next(
                (at for at in range(len(words) - 1) if shortens(initialisms[0], words[at:])),
                None,
            )
            if start is not None:
                declared[initialisms[0].lower(), match["name"][spans[start].start() :]] += 1
    by_initialism: dict[str, str] = {}
    for (initialism, name), _ in declared.most_common():
        by_initialism.setdefault(initialism, name)
    return by_initialism


def shortens(initialism: str, words: list[str]) -> bool:
    """Whether the initialism's letters are, in order, each word's first letter followed by
    any later letters of the same word ("RTK" of "Redux Toolkit", "MSW" of "Mock Service
    Worker"; not "RT" of "Redux Toolkit Query")."""
    if not words:
        return not initialism
    first, rest = words[0].lower(), words[1:]
    short = initialism.lower()
    if not short or short[0] != first[0]:
        return False
    # the first letter opens this word; the next few letters may come from later in it
    for taken in range(1, len(short) + 1):
        if _in_order(short[1:taken], first[1:]) and shortens(initialism[taken:], rest):
            return True
    return False


def _in_order(letters: str, word: str) -> bool:
    """Whether `letters` occur in `word` in order, not necessarily together."""
    remaining = iter(word)
    return all(letter in remaining for letter in letters)
