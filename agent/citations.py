"""Citation checks on streamed LLM answers: a `[n]` with no source n never reaches the reader."""

import re

CITATION = re.compile(r"\[(\d{1,3})\]")
MAX_PENDING = 8
"""Longest text held back while waiting to see whether a `[` starts a citation."""


class CitationFilter:
    """Passes text through, dropping citations of sources that do not exist.

    Text after an open `[` is held back until it is clearly a citation (then checked) or
    clearly not one (then released), so invalid citations are removed even while streaming.
    """

    def __init__(self, valid: set[int]) -> None:
        self.valid = valid
        self.cited: list[int] = []
        self._pending = ""

    def _check(self, match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number not in self.valid:
            return ""
        if number not in self.cited:
            self.cited.append(number)
        return match.group(0)

    def feed(self, text: str) -> str:
        """The part of the text seen so far that is safe to show."""
        buffer = self._pending + text
        cut = buffer.rfind("[")
        if cut != -1 and "]" not in buffer[cut:] and len(buffer) - cut <= MAX_PENDING:
            ready, self._pending = buffer[:cut], buffer[cut:]
        else:
            ready, self._pending = buffer, ""
        return CITATION.sub(self._check, ready)

    def flush(self) -> str:
        """Whatever is still held back."""
        rest, self._pending = self._pending, ""
        return CITATION.sub(self._check, rest)
