"""The book's vocabulary: in how many chunks each term occurs, read from the BM25 vectors;
which terms it writes capitalised or shows only as commands, which hyphenated package names
it writes as code or link text, which terms title its sections, how it spells its words and
the initials of the runs of names it writes, read from the chunks.

Used to weigh question terms by rarity (IDF), to notice terms the book never uses, never
uses as a name, only shows as a command, or names without a section of their own, and to read
a misspelt word or an initialism of a question as the book writes it.
"""

import math
import re
import threading
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from agent.offline.initialisms import book_initialisms, declared_initialisms
from agent.offline.text import (
    capitalised_terms,
    code_compounds,
    command_terms,
    compounds,
    name_words,
    terms,
)
from core.store import BookIndex

EVERYDAY_SHARE = 0.5
"""A term on this share of a book's chunks is one of its everyday words."""
SPELLED_LENGTH = 5
"""Shortest word read for a misspelling, and shortest book word offered in its place: a
shorter one is one edit from too many others."""
PLAIN_WORD = re.compile(rf"(?<![\w-])[A-Za-z]{{{SPELLED_LENGTH},}}(?![\w-])")


@dataclass(frozen=True)
class Vocabulary:
    """Document frequencies of the book's terms."""

    document_frequency: dict[int, int]
    chunks: int
    capitalised: frozenset[int] | None = None
    """Terms the book writes capitalised where no sentence opens (None: not read, so every
    known term may name something)."""
    commands: frozenset[int] = frozenset()
    """Terms the book shows only as commands, opening a code line or span (`deno install`)."""
    compound_chunks: Mapping[str, int] = field(default_factory=dict)
    """Hyphenated names the book writes as code or link text (`connected-react-router`),
    lower-cased, each with the number of chunks that write it anywhere."""
    headed: frozenset[int] | None = None
    """Terms of the book's page titles and section headings, the subsections a chunk holds
    whole included (None: not read, so every name may have a section of its own)."""
    spellings: Mapping[str, int] = field(default_factory=dict)
    """The book's plain words as it spells them (letters only, at least `SPELLED_LENGTH`),
    lower-cased, each with the number of chunks that write it: what a misspelt word of a
    question is read as (`agent.offline.spelling`)."""
    written_as: Mapping[str, str] = field(default_factory=dict)
    """Of those, the ones the book writes with a capital inside (`createEntityAdapter`): the
    lower-cased word's commonest written form, so that a misspelt name is read as a name."""
    name_words: frozenset[str] = frozenset()
    """Words the book writes only as names, lower-cased (`agent.offline.text.name_words`:
    "docker" for a book that only writes "Docker"): a reader who types them in lower case
    names the same thing."""
    initialisms: Mapping[str, str] = field(default_factory=dict)
    """Runs of names the book writes, by their initials (`agent.offline.initialisms`:
    "vslam" is "Visual SLAM"): what a reader's initialism the book never writes is read as."""
    declared_initialisms: Mapping[str, str] = field(default_factory=dict)
    """Initialisms the book declares after the name they shorten, lower-cased, with that name
    (`agent.offline.initialisms`: "rtk" is "Redux Toolkit"): what a question about the
    initialism alone asks about."""

    def idf(self, term: int) -> float:
        """BM25-style inverse document frequency; an unknown term gets the highest weight."""
        df = self.document_frequency.get(term, 0)
        return math.log(1 + (self.chunks - df + 0.5) / (df + 0.5))

    def knows(self, term: int) -> bool:
        """Whether the book uses the term at all."""
        return term in self.document_frequency

    def names(self, name: frozenset[int]) -> bool:
        """Whether the book writes every term of `name` capitalised somewhere: uses it as a
        name, not only as a word."""
        return self.capitalised is None or name <= self.capitalised

    def is_command(self, name: frozenset[int]) -> bool:
        """Whether the book shows `name` only as a command (`deno x prettier`, never "Deno…"),
        whatever case a reader writes it in."""
        return bool(name) and name <= self.commands

    def everyday(self, wanted: frozenset[int]) -> frozenset[int]:
        """Those of `wanted` that are on at least `EVERYDAY_SHARE` of the book's chunks (a
        robotics book's "robot", Redux's "state"): a passage holding only these is not about
        the question."""
        least = EVERYDAY_SHARE * self.chunks
        return frozenset(t for t in wanted if self.document_frequency.get(t, 0) >= least)

    def coverage(self, wanted: frozenset[int], present: frozenset[int]) -> float:
        """IDF-weighted share of `wanted` terms found in `present` (1.0 when nothing is wanted)."""
        total = sum(self.idf(t) for t in wanted)
        return sum(self.idf(t) for t in wanted & present) / total if total else 1.0


_cache: dict[str, tuple[int, Vocabulary]] = {}
_lock = threading.Lock()


def book_vocabulary(index: BookIndex) -> Vocabulary:
    """The vocabulary of an index, rebuilt only when its number of points changes."""
    count = index.count()
    if not count:
        return Vocabulary({}, 0)
    with _lock:
        cached = _cache.get(index.key)
        if cached and cached[0] == count:
            return cached[1]
        frequencies: Counter[int] = Counter()
        written: Counter[str] = Counter()
        spelled: Counter[str] = Counter()
        cased: Counter[str] = Counter()
        texts: list[str] = []
        bodies: list[str] = []
        headed: set[int] = set()
        fields = ("text", "embedded_text", "heading_path", "section_headings")
        for point in index.points(fields=fields):
            # the indexed text's terms as the question's are read (irregular forms included),
            # not the keyword index's own term ids, which keep each word as written
            frequencies.update(terms(point.payload.get("embedded_text", "")))
            headings = " ".join(point.payload.get("heading_path", []))
            text = f"{headings}\n{point.payload.get('text', '')}"
            texts.append(text)
            bodies.append(point.payload.get("text", ""))
            written.update(compounds(text))
            words = PLAIN_WORD.findall(text)
            spelled.update({word.lower() for word in words})
            cased.update(word for word in words if not word[1:].islower())
            headed |= terms(" ".join([headings, *point.payload.get("section_headings", [])]))
        vocabulary = Vocabulary(
            dict(frequencies),
            count,
            capitalised_terms(texts),
            command_terms(texts),
            {name: written[name] for name in code_compounds(texts)},
            frozenset(headed),
            dict(spelled),
            {word.lower(): word for word, _ in reversed(cased.most_common())},
            name_words(bodies),
            book_initialisms(bodies),
            declared_initialisms(bodies),
        )
        _cache[index.key] = (count, vocabulary)
        return vocabulary
