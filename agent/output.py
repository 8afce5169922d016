"""An answer on its way out of the graph: every piece of text goes through the output filter
(`core.safety.SafeMarkdown`) before it becomes a token event, whoever wrote it (the book, the
extractive answerer, a model)."""

from langgraph.config import get_stream_writer

from agent.state import Source
from core.safety import LinkPolicy, SafeMarkdown


class AnswerStream:
    """Streams one answer's safe text as `token` events, then its `sources` event."""

    def __init__(self, policy: LinkPolicy) -> None:
        self.policy = policy
        self._filter = SafeMarkdown(policy)
        self._write = get_stream_writer()
        self._shown: list[str] = []

    @property
    def started(self) -> bool:
        """Whether any text has reached the reader."""
        return bool(self._shown)

    def write(self, text: str) -> None:
        """Send what of `text` the filter can judge already."""
        self._send(self._filter.feed(text))

    def close(self, sources: list[Source]) -> str:
        """Send the rest of the text and the sources; returns the whole answer as sent."""
        self._send(self._filter.flush())
        self._write({"event": "sources", "sources": sources})
        return "".join(self._shown).strip()

    def _send(self, text: str) -> None:
        if text:
            self._write({"event": "token", "text": text})
            self._shown.append(text)
