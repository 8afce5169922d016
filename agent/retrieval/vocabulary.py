"""The book's vocabulary: in how many chunks each term occurs, read from the BM25 vectors.

Used to weigh question terms by rarity (IDF) and to notice terms the book never uses.
"""

import math
import threading
from collections import Counter
from dataclasses import dataclass

from core.store import BookIndex


@dataclass(frozen=True)
class Vocabulary:
    """Document frequencies of the book's terms."""

    document_frequency: dict[int, int]
    chunks: int

    def idf(self, term: int) -> float:
        """BM25-style inverse document frequency; an unknown term gets the highest weight."""
        df = self.document_frequency.get(term, 0)
        return math.log(1 + (self.chunks - df + 0.5) / (df + 0.5))

    def knows(self, term: int) -> bool:
        """Whether the book uses the term at all."""
        return term in self.document_frequency

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
        for point in index.points(fields=(), terms=True):
            frequencies.update(set(point.terms))
        vocabulary = Vocabulary(dict(frequencies), count)
        _cache[index.key] = (count, vocabulary)
        return vocabulary
