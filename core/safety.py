"""Text that leaves bookrag is safe to render, whoever wrote it (the book, a reader, a model).

Answers are Markdown. `SafeMarkdown` filters one as it streams, holding back only what it cannot
judge yet (an unfinished link, image, code span, bare URL or fence line), so the first words
still reach the reader at once:

- every `<` outside code becomes `&lt;`, so no tag, comment or `<autolink>` survives, however
  it is nested (a Markdown renderer shows `&lt;` as `<`); code spans and fenced blocks stay as
  written, since every renderer shows them as text;
- a link keeps its target only when that is relative to the book, `mailto:`, or http(s) on an
  allowed host (the book's own site, plus `LINK_HOSTS`); otherwise only its text stays. Its
  text is judged as prose on one line, with any bracket in it escaped, so no link nests in
  another or ends early;
- an image stays only when it is served from the book's own site (or relative to it);
  otherwise only its alt text stays;
- a line that would define a reference link (`[id]: url`, in a quote or a list item too) is
  escaped, so it defines nothing, and a bracket that could still open a link the filter did
  not judge (unmatched, followed by `:`, or around another link) is escaped too;
- a bare URL (which GFM renderers turn into a link) to any other host is shown as text that
  no autolinker links (a zero-width space after its scheme).

URLs are judged after undoing what a renderer or browser would undo (entities, backslash
escapes, whitespace and control characters inside the scheme), and written back encoded.
"""

import html
import re
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

from core.settings import Settings

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CONTAINER = re.compile(r"(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t])))*[ \t]*")
"""Where a line's text starts inside quotes and list items ("> ", "- ", "1. ")."""
REFERENCE_DEFINITION = re.compile(r"\[(?:[^\]\\]|\\.)*\]:")
LANGUAGE = re.compile(r"[\w+#.-]*")
LABEL = re.compile(r"\[(?:[^\]\\]|\\.)*\\?")
SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
BARE_URL = re.compile(r"(?:https?://|www\.)[^\s<>`\[\]()\\]*", re.IGNORECASE)
BARE_URL_START = ("http://", "https://", "www.")
PLAIN = re.compile(r"[^<`!\[\\\nhHwW]+")
HOLD_LIMIT = 4096
"""Longest construct held back while streaming; past it, the text is judged as it stands."""
URL_SAFE = "/:?#@!$'*+,;=%-._~[]"


@dataclass(frozen=True)
class LinkPolicy:
    """Where links and images in an answer may point."""

    site_url: str
    """The book's site (origin and base path): links and images there are always allowed."""
    link_hosts: frozenset[str] = field(default_factory=frozenset)
    """Other hosts that links (never images) may point to."""

    @property
    def site_host(self) -> str:
        """The book site's host (lower case, with its port if any)."""
        return urlsplit(self.site_url).netloc.lower()

    def allows_link(self, url: str) -> bool:
        """Whether a link may point at `url`."""
        scheme = url_scheme(url)
        if scheme is None:
            return not url.startswith("//")
        if scheme == "mailto":
            return True
        host = _host(url)
        return scheme in ("http", "https") and (host == self.site_host or host in self.link_hosts)

    def allows_image(self, url: str) -> bool:
        """Whether an image may be loaded from `url`."""
        scheme = url_scheme(url)
        if scheme is None:
            return not url.startswith("//")
        return scheme in ("http", "https") and _host(url) == self.site_host

    def allows_bare_url(self, url: str) -> bool:
        """Whether a bare URL may stay linkable."""
        return self.allows_link(url if "://" in url else f"https://{url}")


def link_policy(settings: Settings) -> LinkPolicy:
    """The deployment's policy: the book's site, plus the `LINK_HOSTS` links may point to."""
    site = f"{settings.site_url.rstrip('/')}/{settings.site_base_url.strip('/')}".rstrip("/")
    return LinkPolicy(f"{site}/", frozenset(host.lower() for host in settings.link_hosts))


def _host(url: str) -> str | None:
    """The URL's host (lower case, with its port if any); None when it cannot be read."""
    try:
        return urlsplit(url).netloc.lower()
    except ValueError:  # "http://[" is no URL a browser would load either
        return None


def url_scheme(url: str) -> str | None:
    """The scheme a browser would see in `url` (lower case), or None for a relative URL."""
    cleaned = re.sub(r"[\x00-\x20\x7f]", "", url)
    match = SCHEME.match(cleaned)
    return match.group(1).lower() if match else None


def clean_url(raw: str) -> str:
    """A link destination as a renderer reads it: entities and backslash escapes undone."""
    unescaped = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", raw.strip())
    return html.unescape(unescaped).strip()


def encode_url(url: str) -> str:
    """`url` written so Markdown reads it back unchanged and nothing in it breaks out."""
    return quote(url, safe=URL_SAFE).replace("(", "%28").replace(")", "%29")


def escape_text(text: str) -> str:
    """Plain text (a title, a heading) made safe to put in Markdown or HTML: no tag survives."""
    return text.replace("<", "&lt;")


def plain_text(text: str) -> str:
    """A title or heading with any markup removed and whitespace collapsed (for ingest)."""
    previous = None
    while previous != text:  # `<scr<script>ipt>` needs more than one pass
        previous = text
        text = re.sub(r"<[^<>]*>", "", text)
    return " ".join(text.replace("<", "").replace(">", "").split())


class SafeMarkdown:
    """A streaming filter that makes Markdown safe to render (see the module docstring)."""

    def __init__(self, policy: LinkPolicy, label: bool = False) -> None:
        self.policy = policy
        self._label = label
        """Whether this filters a link's text (on one line): no fence or definition opens in
        it, and no bracket, so that none can end the link early or nest another in it."""
        self._pending = ""
        self._ended = False
        """Whether the whole text has arrived (nothing can follow what is pending)."""
        self._at_line_start = not label
        self._fence: str | None = None
        """The open fence's marker (e.g. "```"), or None outside fenced code."""
        self._before = ""
        """The last character already judged (what precedes the pending text)."""
        self._split_row = False
        """Whether a code span on this line held `|`: in a table row the renderer splits the
        cells there, and the backticks after it pair up differently."""
        self._closers: dict[tuple[str, int], int | None] = {}
        self._scans: dict[tuple[str, int], _Scan] = {}
        """Closing brackets found in the pending text (`_matching`), and the scans cut short by
        its end for the brackets still open: kept while pieces are only appended to it,
        forgotten when judged text leaves it (its positions then move)."""

    def feed(self, piece: str) -> str:
        """Safe text for what has arrived so far (may be empty while a construct is open)."""
        self._pending += piece
        return self._drain(final=False)

    def flush(self) -> str:
        """Everything still held back, judged as complete."""
        return self._drain(final=True)

    def filter(self, text: str) -> str:
        """A whole text at once."""
        return self.feed(text) + self.flush()

    def _drain(self, final: bool) -> str:
        self._ended = final
        # Lines end as the renderer ends them: "\r\n" and a lone "\r" count as "\n" (a "\r"
        # that ends what has arrived waits: the next piece may start with its "\n").
        text, held = self._pending.replace("\r\n", "\n"), ""
        if text.endswith("\r") and not final:
            text, held = text[:-1], "\r"
        text = text.replace("\r", "\n")
        out: list[str] = []
        i = 0
        while i < len(text):
            hold_all = final or len(text) - i > HOLD_LIMIT
            if self._at_line_start:
                step = self._line_start(text, i, hold_all)
                if step is None:
                    break
                emitted, i = step
                out.append(emitted)
                continue
            if self._fence is not None:
                end = text.find("\n", i)
                stop = len(text) if end < 0 else end + 1
                out.append(text[i:stop])
                self._at_line_start = end >= 0
                i = stop
                continue
            step = self._inline(text, i, hold_all)
            if step is None:
                break
            emitted, i = step
            out.append(emitted)
        if i > 0:
            self._before = text[i - 1]
            self._forget_closers()  # what is pending now starts elsewhere
        self._pending = text[i:] + held
        return "".join(out)

    def _line_start(self, text: str, i: int, final: bool) -> tuple[str, int] | None:
        """Judge the start of a line: a fence, a reference definition, or ordinary text. A
        line judged before it is whole (past the hold limit) opens no fence: the rest of it
        may hold a backtick, which no fence's info string can."""
        end = text.find("\n", i)
        line = text[i:] if end < 0 else text[i:end]
        stripped = line.lstrip(" ")
        opening = CONTAINER.match(line)
        assert opening is not None
        if end < 0 and not final and _may_become(stripped, line[opening.end() :]):
            return None
        self._at_line_start = False
        fence = FENCE.match(line)
        whole = end >= 0 or self._ended
        if (
            fence
            and (whole or self._fence is not None)
            and (
                _closes(fence.group(1), self._fence, line)
                if self._fence is not None
                else _opens(fence.group(1), line[fence.end() :])
            )
        ):
            self._fence = fence.group(1) if self._fence is None else None
            stop = len(text) if end < 0 else end + 1
            self._at_line_start = end >= 0
            # At column 0, with a bare language name for info (no `|` that could make it a
            # table's header row), a fence is a fence whatever came before (a list, a quote, a
            # table), so the renderer keeps exactly the lines this filter leaves raw as code.
            language = LANGUAGE.match(line[fence.end() :].strip())
            assert language is not None
            return fence.group(1) + language.group(0) + ("\n" if end >= 0 else ""), stop
        if self._fence is None and REFERENCE_DEFINITION.match(line, opening.end()):
            # in a quote or a list item too: "> [id]: url" defines a link for the whole answer
            return line[: opening.end()] + "\\[", i + opening.end() + 1
        return "", i

    def _inline(self, text: str, i: int, final: bool) -> tuple[str, int] | None:
        """Judge the text at `i` (outside fences); None when it must wait for more."""
        char = text[i]
        if char == "\n":
            self._at_line_start = True
            self._split_row = False
            return "\n", i + 1
        if char == "<":
            return "&lt;", i + 1
        if char == "\\":
            if i + 1 >= len(text):
                return None if not final else ("\\\\", i + 1)
            if text[i + 1] == "\n":
                return "\\", i + 1
            return text[i : i + 2].replace("<", "&lt;"), i + 2
        if char == "`":
            return self._code_span(text, i, final)
        if self._label and char in "[]":
            return "\\" + char, i + 1
        if char == "!" or char == "[":
            return self._bracket(text, i, final)
        if char in "hHwW":
            return self._bare_url(text, i, final)
        plain = PLAIN.match(text, i)
        assert plain is not None
        if self._label:
            return plain.group(0).replace("]", "\\]"), plain.end()
        return plain.group(0), plain.end()

    def _code_span(self, text: str, i: int, final: bool) -> tuple[str, int] | None:
        """A code span on one line, left as written; escaped backticks when it never closes.

        A span holding an unescaped `|` is made safe as prose (`_as_prose`), and so is every
        later span on its line: in a table row the renderer splits cells at that `|` before it
        sees code.
        """
        run = re.match(r"`+", text[i:])
        assert run is not None
        ticks = run.group(0)
        start = i + len(ticks)
        line_end = text.find("\n", start)
        stop = len(text) if line_end < 0 else line_end
        found = re.compile(rf"(?<!`){ticks}(?!`)").search(text, start, stop)
        if found is not None and (final or found.end() < len(text)):
            span = text[i : found.end()]
            self._split_row = self._split_row or bool(re.search(r"(?<!\\)\|", span))
            return (self._as_prose(span) if self._split_row else span), found.end()
        if not final and line_end < 0:
            return None  # the span may still close on this line
        # Never closed on its line: escaped, so the renderer cannot pair it with a backtick on
        # a later line of the paragraph and make code of what this filter judged as prose.
        return "\\`" * len(ticks), start

    def _as_prose(self, span: str) -> str:
        """A code span made safe to read as prose, as a table row split inside it is: no tag,
        no link, no bare URL to another host."""
        span = escape_text(span).replace("[", "\\[")
        return BARE_URL.sub(
            lambda url: (
                url.group(0)
                if self.policy.allows_bare_url(url.group(0))
                else _unlinkable(url.group(0))
            ),
            span,
        )

    def _bracket(self, text: str, i: int, final: bool) -> tuple[str, int] | None:
        """A link or image: judged once whole. A bracket that opens none is left as it is
        ("[1]", a JSON array), or escaped when the renderer might still read one from it (an
        unmatched bracket, one followed by ":", one around another link, which the renderer
        may pair otherwise, a destination this filter cannot read), so no link reaches the
        page unjudged."""
        image = text[i] == "!"
        open_at = i + 1 if image else i
        escaped = ("!", open_at) if image else ("\\[", i + 1)
        if image and (open_at >= len(text) or text[open_at] != "["):
            return None if open_at >= len(text) and not final else ("!", open_at)
        close = self._matching(text, open_at, "[", "]")
        ends_text = close is not None and close + 1 >= len(text) and self._ended
        if close is None or (close + 1 >= len(text) and not ends_text):
            return None if self._may_close(text, open_at, final) else escaped
        if ends_text or text[close + 1] != "(":
            after = "" if ends_text else text[close + 1]
            if after == ":" or "](" in text[open_at:close]:
                return escaped  # a definition, or a link inside that may pair it otherwise
            return ("!", open_at) if image else ("[", i + 1)
        end = self._matching(text, close + 1, "(", ")")
        if end is None:
            return None if self._may_close(text, close + 1, final) else escaped
        label = self._label_text(text[open_at + 1 : close])
        url = clean_url(_destination(text[close + 2 : end]))
        allowed = self.policy.allows_image(url) if image else self.policy.allows_link(url)
        if not allowed:
            return self._unlinked(label, text[i - 1] if i > 0 else self._before), end + 1
        return f"{'!' if image else ''}[{label}]({encode_url(url)})", end + 1

    def _label_text(self, raw: str) -> str:
        """A link's text, judged as prose on one line (a line break in it reads as a space)
        that shares this line's table-row state."""
        nested = SafeMarkdown(self.policy, label=True)
        nested._split_row = self._split_row
        label = nested.filter(raw.replace("\n", " "))
        self._split_row = nested._split_row
        return label

    @staticmethod
    def _unlinked(label: str, before: str) -> str:
        """A link's text in its place, kept apart by a zero-width space from what it would
        otherwise join: a backtick run (changing how the line's code spans pair up), or,
        after a `!`, the next link (making it an image)."""
        if before == "`" and label[:1] in ("", "`"):
            label = "\u200b" + label
        return label + "\u200b" if label[-1:] in ("", "`", "!") else label

    def _matching(self, text: str, start: int, opener: str, closer: str) -> int | None:
        """Index of the bracket that closes `text[start]`, None when none does (yet): each
        part of the text is scanned once (`_scan`), however many pieces it arrives in."""
        key = (opener, start)
        if key in self._closers:
            return self._closers[key]
        scan = self._scans.get(key) or _Scan(opener, closer, start)
        if scan.length == len(text):
            return None  # scanned to the end of this very text
        found, opened, over = _scan(text, scan)
        for at, close in found.items():
            self._closers[opener, at] = close
            self._scans.pop((opener, at), None)
        if not over:
            self._scans.update({(opener, at): scan for at in opened if at not in found})
        return self._closers.get(key)

    def _forget_closers(self) -> None:
        self._closers, self._scans = {}, {}

    @staticmethod
    def _may_close(text: str, start: int, final: bool) -> bool:
        """Whether an open bracket may still close: more text may come and no blank line ends
        it, within the hold limit."""
        rest = text[start:]
        return not final and "\n\n" not in rest and len(rest) <= HOLD_LIMIT

    def _bare_url(self, text: str, i: int, final: bool) -> tuple[str, int] | None:
        """A bare URL (GFM autolink): kept when allowed, else shown as code."""
        before = text[i - 1] if i > 0 else self._before
        if before.isalnum() or (before and before in "/:@.-_"):
            return text[i], i + 1
        head = text[i : i + 8].lower()
        short = not final and len(head) < 8 and i + len(head) >= len(text)
        if short and any(start.startswith(head) for start in BARE_URL_START):
            return None  # too short to tell yet
        match = BARE_URL.match(text, i)
        if match is None:
            return text[i], i + 1
        if match.end() >= len(text) and not final:
            return None  # the URL may go on
        url = match.group(0).rstrip(".,:;!?\"'*_~")  # trailing punctuation is prose, as in GFM
        end = i + len(url)
        if self.policy.allows_bare_url(url):
            return url, end
        return _unlinkable(url), end


def _unlinkable(url: str) -> str:
    """A bare URL shown as text that no autolinker turns into a link (a zero-width space
    after the scheme or `www`)."""
    if url.lower().startswith("www."):
        return f"www\u200b{url[3:]}"
    scheme, _, rest = url.partition(":")
    return f"{scheme}:\u200b{rest}"


def _may_become(stripped: str, contained: str) -> bool:
    """Whether an unfinished line (`stripped` of its indent, `contained` of its quote and list
    markers too) could still turn into a fence or a reference definition."""
    if not stripped or not contained:
        return True
    if stripped[0] in "`~":
        return len(stripped) < 3 or bool(FENCE.match(stripped))
    if not contained.startswith("["):
        return False
    label = LABEL.match(contained)
    assert label is not None
    return label.end() == len(contained) or contained[label.end() :] == "]"


def _opens(marker: str, info: str) -> bool:
    """Whether a fence line opens a block (a backtick fence's info string has no backtick)."""
    return marker[0] == "~" or "`" not in info


def _closes(marker: str, open_marker: str, line: str) -> bool:
    """Whether a fence line closes the open fence (same character, at least as long, bare)."""
    stripped = line.strip()
    return (
        marker[0] == open_marker[0]
        and len(marker) >= len(open_marker)
        and stripped == marker[0] * len(stripped)
    )


@dataclass
class _Scan:
    """A scan for closing brackets, cut short where the text received so far ends: where it
    goes on from, the brackets still open there and the length of the text it stopped at."""

    opener: str
    closer: str
    resume: int
    open_at: list[int] = field(default_factory=list)
    length: int = 0


def _scan(text: str, scan: _Scan) -> tuple[dict[int, int | None], list[int], bool]:
    """Go on with `scan` over `text`, honouring nesting and escapes, and, for a link's text,
    code spans (a `]` inside one closes nothing, as for the renderer): the index of the bracket
    that closes each opener it passes (None for one that can no longer close), the openers it
    passed, and whether the scan is over. A scan from any opener it passes would visit the
    same places, so a run of unclosed brackets is read once, not once per bracket; and one
    that reaches the end of the text stops where more text could change what it read (a line
    break that a second may follow, a code span that may still close), to go on from there
    when more text arrives."""
    found: dict[int, int | None] = {}
    opened: list[int] = []
    open_at, i = scan.open_at, scan.resume
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "`" and scan.opener == "[":
            past = _past_code_span(text, i)
            if past is None and text.find("\n", i) >= 0:
                break  # the renderer's pairing of these backticks cannot be told here
            if past is None or past >= len(text):
                scan.resume, scan.length = i, len(text)  # the span may close, or end later
                return found, opened, False
            i = past
            continue
        if char == "\n":
            if i + 1 >= len(text):
                scan.resume, scan.length = i, len(text)  # a blank line may follow
                return found, opened, False
            if text[i + 1] == "\n":
                break  # a blank line ends any inline construct
        if char == scan.opener:
            open_at.append(i)
            opened.append(i)
        elif char == scan.closer:
            found[open_at.pop()] = i
            if not open_at:
                return found, opened, True
        i += 1
    else:
        scan.resume, scan.length = i, len(text)
        return found, opened, False
    found.update(dict.fromkeys(open_at))
    open_at.clear()
    return found, opened, True


def _past_code_span(text: str, i: int) -> int | None:
    """Where the code span opening at `i` ends (past its closing run on the same line); None
    when none closes it there (whether the renderer pairs it on a later line depends on
    where it ends the paragraph)."""
    run = re.match(r"`+", text[i:])
    assert run is not None
    ticks = run.group(0)
    line_end = text.find("\n", i)
    stop = len(text) if line_end < 0 else line_end
    found = re.compile(rf"(?<!`){ticks}(?!`)").search(text, i + len(ticks), stop)
    return found.end() if found is not None else None


def _destination(inside: str) -> str:
    """The URL part of a link's `(url "title")`."""
    inside = inside.strip()
    if inside.startswith("<"):
        end = inside.find(">")
        return inside[1:end] if end > 0 else inside[1:]
    return inside.split(maxsplit=1)[0] if inside else ""
