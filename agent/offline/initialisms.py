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
