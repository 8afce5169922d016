r"""Turn MDX page bodies into plain Markdown without losing the prose inside components.

- `import`/`export` statements go (multi-line ones too).
- JSX and HTML tags go, the text between them stays, and so does the string of an expression
  that is only a string (`{' '}` becomes a space). A component's `title`/`label` attribute
  is kept, since it usually names the content; a component's tag alone on its line
  (`<TabItem value="server" label="From client to server">`) titles what it holds, so its name
  becomes a bold label, a paragraph of its own, as a collapsible block's summary does (below):
  an answer that quotes the tab shows which one it is, rather than running its name into the
  first sentence.
- An HTML `<table>` becomes a Markdown pipe table (`ingest.html_table`), so its cells stay in
  their rows rather than falling apart into loose lines.
- A self-closing component imported from an `.md`/`.mdx` partial is replaced by the partial's
  own cleaned body (Docusaurus renders it there); other self-closing components vanish.
- Admonitions (`:::tip Title` … `:::`, `:::note[Title]`) become text that starts with their
  label. A title becomes a sentence and paragraph of its own (`Tip: Title.`), so an answer
  quoting it does not run it into the body's first sentence; an untitled one's label leads its
  first paragraph (`Info: This function…`), at the indent of its `:::` line, so one set inside
  a list item stays in that item. GitHub's alerts (`> [!NOTE]`) get the same label.
- A collapsible block's `<summary>` (`<details><summary>Server Side Rendering</summary>…`)
  becomes a bold label, a paragraph of its own (`**Server Side Rendering**`): it titles what
  the block holds, so an answer quoting the block shows its title over it rather than run
  into its first sentence, and the chunker counts it among a chunk's headings
  (`summary_titles`).
- Comments go, `<!-- … -->` and `{/* … */}`, also when they span lines (a commented-out
  note or section): a reader never sees them, so they are not the book's text.
- A line of nothing but non-breaking spaces (`&nbsp;`, which pages use for vertical space)
  becomes blank, so it makes no chunk of its own.
- An inline `<code>` element becomes the code span it shows (pages write one where a code
  span cannot go, such as a table cell holding a `|`): `<code>--x=\<off&#124;auto></code>` is
  `` `--x=<off\|auto>` ``, its escapes and entities resolved and, in a table row, its `|`
  escaped for the table.
- `\<` is text, not the start of a tag (MDX needs it for a literal `<`): an option's
  `\<start|end>` values stay.
- Nothing inside a fenced code block changes (but a `twoslash` block keeps only the lines the
  page shows: `ingest.twoslash`), and neither does a heading line: its tags and
  comments (`{/* #custom-id */}`) decide its Docusaurus id, so `ingest.sections` reads them
  (and `reader_text` gives its text as a reader sees it).
"""

import html
import re
from collections.abc import Callable

from ingest.html_table import TABLE_OPEN, pipe_table, table_extent
from ingest.twoslash import Snippets, is_twoslash

FENCE_OPEN = re.compile(r"^\s*(?P<fence>`{3,}|~{3,})")
"""A fence at any indent: nested in a list item, one sits as deep as the item's text."""
IMPORT_START = re.compile(r"^import\s")
IMPORT_DEFAULT = re.compile(
    r"^import\s+(?P<name>[A-Za-z_$][\w$]*)\s+from\s+['\"](?P<path>[^'\"]+)['\"]"
)
IMPORT_DONE = re.compile(r"""(from\s+)?['"][^'"]+['"]\s*;?\s*$""")
EXPORT_START = re.compile(r"^export\s")
ADMONITION_OPEN = re.compile(
    r"^(?P<indent>\s*):{3,}(?P<kind>[A-Za-z]+)(?:\[(?P<bracket>[^\]]*)\])?\s*(?P<title>.*)$"
)
GITHUB_ALERT = re.compile(
    r"^(?P<quote>\s*>\s*)\[!(?P<kind>NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$", re.IGNORECASE
)
"""GitHub's alert syntax (`> [!NOTE]` opening a blockquote), which renderers show as a box."""
ADMONITION_CLOSE = re.compile(r"^\s*:{3,}\s*$")
SPACING_LINE = re.compile(r"^\s*((&nbsp;|&#160;|&#xa0;)\s*)+$", re.IGNORECASE)
SELF_CLOSING = re.compile(r"(?<!\\)<(?P<name>[A-Z][\w.]*)\b[^<>]*?/>")
TAG = re.compile(r"(?<!\\)</?(?P<name>[A-Za-z][\w.-]*)\b(?P<attrs>[^<>]*?)/?>")
r"""A tag, not an escaped `\<`: MDX reads `--quote-props \<as-needed>` as text."""
NAMING_ATTRIBUTE = re.compile(
    r"""\b(?:title|label)=(?:"([^"]*)"|'([^']*)'|\{`([^`]*)`\}|\{["']([^"']*)["']\})"""
)
JSX_LINE = re.compile(r"^\s*</?[A-Za-z]")
JSX_COMMENT = re.compile(r"\{/\*.*?\*/\}")
HTML_COMMENT = re.compile(r"<!--.*?-->")
JSX_STRING = re.compile(r"""\{\s*(?P<quote>['"])(?P<text>[^'"{}]*)(?P=quote)\s*\}""")
"""A JSX expression that is only a string, such as `{' '}` (the space JSX needs between two tags
on separate lines): MDX renders the string."""
COMMENT_OPEN = re.compile(r"<!--|\{/\*")
COMMENT_CLOSE = {"<!--": "-->", "{/*": "*/}"}
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
r"""A Markdown backslash escape of ASCII punctuation (`\{`, `\<`)."""
ATX_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
SUMMARY = re.compile(r"<summary\b[^>]*>(?P<title>.*?)</summary\s*>", re.IGNORECASE | re.DOTALL)
CODE_ELEMENT = re.compile(r"<code\b[^<>]*>(?P<code>.*?)</code\s*>", re.IGNORECASE)
BACKTICKS = re.compile(r"`+")
EMPHASIS = re.compile(r"(?<!\w)(\*{1,2}|_{1,2})(?=\S)(?P<text>.+?)(?<=\S)\1(?!\w)")
"""Bold or italic text (`**Tip:**`, `_not_`), whose marks a title set in bold cannot hold."""

PartialResolver = Callable[[str], str | None]
"""Given an import path, the cleaned body of that partial, or None if it cannot be read."""


def _statement_lines(lines: list[str], start: int, done: Callable[[str], bool]) -> int:
    """Index of the last line of a statement that starts at `start`."""
    end = start
    while not done(lines[end]) and end + 1 < len(lines):
        end += 1
    return end


def closes_fence(line: str, fence: str) -> bool:
    """A fence closes with the same character, at least as many times, and nothing after."""
    marker = FENCE_OPEN.match(line)
    if marker is None:
        return False
    found = marker.group("fence")
    rest = line.strip()[len(found) :]
    return found[0] == fence[0] and len(found) >= len(fence) and not rest.strip()


def _export_done(text: str) -> bool:
    """An export statement ends where its brackets balance."""
    depth = sum(text.count(c) for c in "({[") - sum(text.count(c) for c in ")}]")
    return depth <= 0


def _replace_tags(line: str, partials: dict[str, str]) -> str:
    """Drop JSX/HTML tags from a line outside code, keeping text, names and partial bodies.

    Inline code spans are left alone (`<Provider>` in backticks is prose), except on a line
    that is itself a JSX tag, whose attributes may hold template literals in backticks.
    """
    if JSX_LINE.match(line):
        return _label_of_tag(line) or _replace_tags_in_text(line, partials)
    return _outside_code(line, lambda text: _replace_tags_in_text(text, partials))


def _outside_code(line: str, change: Callable[[str], str]) -> str:
    """`line` with `change` applied to the text between its inline code spans."""
    pieces = []
    position = 0
    for code in INLINE_CODE.finditer(line):
        pieces.append(change(line[position : code.start()]))
        pieces.append(code.group(0))
        position = code.end()
    pieces.append(change(line[position:]))
    return "".join(pieces)


def _label_of_tag(line: str) -> str:
    """A line that is one opening component tag naming its content, as the bold label of that
    content (`**Python**`, then a blank line); "" for any other line. An HTML element's
    `title` (`<img title="…">`) names no content under it."""
    tag = TAG.fullmatch(line.strip())
    if tag is None or not tag.group("name")[0].isupper() or tag.group(0).endswith("/>"):
        return ""
    named = NAMING_ATTRIBUTE.search(tag.group("attrs") or "")
    name = next((group for group in named.groups() if group), "").strip() if named else ""
    if not name or "*" in name or "_" in name:  # no name, or one a label could not hold whole
        return ""
    indent = line[: len(line) - len(line.lstrip())]  # inside a list item, it stays there
    return f"{indent}{summary_label(name)}\n\n"


def _replace_tags_in_text(text: str, partials: dict[str, str]) -> str:
    text = JSX_COMMENT.sub("", HTML_COMMENT.sub("", text))
    text = SELF_CLOSING.sub(lambda m: partials.get(m.group("name"), ""), text)

    def naming_text(match: re.Match[str]) -> str:
        named = NAMING_ATTRIBUTE.search(match.group("attrs") or "")
        if named and not match.group(0).startswith("</"):
            return next(group for group in named.groups() if group is not None) + "\n"
        return ""

    return JSX_STRING.sub(r"\g<text>", TAG.sub(naming_text, text))  # after a tag's names


def reader_text(text: str) -> str:
    """Inline Markdown with its entities and backslash escapes resolved outside code spans, as
    a reader sees it (`--filter &lt;package_name>` is `--filter <package_name>`); code spans
    stay as written, since Markdown shows them literally."""
    return _outside_code(text, lambda plain: html.unescape(ESCAPED.sub(r"\1", plain)))


def strip_tags(text: str) -> str:
    """`text` without JSX/HTML tags and comments (inline code untouched), spaces collapsed.

    Repeated until nothing changes, so a nested `<scr<script>ipt>` leaves no tag behind.
    """
    return " ".join(_without_tags(text, {}).split())


def _without_tags(text: str, partials: dict[str, str]) -> str:
    """Tags replaced (see `_replace_tags`) until none is left, however they were nested."""
    previous = None
    while previous != text:
        previous, text = text, _replace_tags(text, partials)
    return text


def _comment_opening(line: str) -> re.Match[str] | None:
    """The first comment opening of `line` outside its inline code, if any (`<!--` in backticks
    is prose; backticks inside a comment are still comment)."""
    return COMMENT_OPEN.search(INLINE_CODE.sub(lambda code: " " * len(code.group(0)), line))


def _comment_end(lines: list[str], start: int, opened: re.Match[str]) -> tuple[int, str]:
    """The line that closes the comment `opened` on line `start` (that line itself, or a later
    one) and what follows the close on it (the page's last line and nothing, if it is never
    closed)."""
    closer = COMMENT_CLOSE[opened.group(0)]
    rest = lines[start][opened.end() :]
    if closer in rest:
        return start, rest.split(closer, 1)[1]
    for index in range(start + 1, len(lines)):
        if closer in lines[index]:
            return index, lines[index].split(closer, 1)[1]
    return len(lines) - 1, ""


def _as_sentence(title: str) -> str:
    """An admonition title ending like a sentence, so that it reads as one."""
    return title if title[-1] in ".!?:" else f"{title}."


def summary_titles(markdown: str) -> list[str]:
    """The titles of the page's collapsible blocks, as their labels show them."""
    return [title for _, _, title in _summaries(markdown) if title]


def _summaries(text: str) -> list[tuple[int, int, str]]:
    """Where each `<summary>` outside code spans starts and ends in `text`, and its title
    without tags or emphasis marks (it is shown in bold whole)."""
    masked = INLINE_CODE.sub(lambda code: " " * len(code.group(0)), text)  # same positions
    found = []
    for match in SUMMARY.finditer(masked):
        title = strip_tags(text[match.start("title") : match.end("title")])
        title = _outside_code(title, lambda prose: EMPHASIS.sub(r"\2", prose)).strip("*_ ")
        found.append((match.start(), match.end(), title))
    return found


def summary_label(title: str) -> str:
    """How the body shows a collapsible block's title: a bold label (`**Title**`)."""
    return f"**{title}**"


def _code_elements_as_spans(line: str) -> str:
    """`line` with each inline `<code>` element outside code spans as the code span it shows."""
    in_table = line.lstrip().startswith("|")

    def as_span(element: re.Match[str]) -> str:
        code = html.unescape(ESCAPED.sub(r"\1", strip_tags(element.group("code"))))
        if in_table:
            code = code.replace("|", r"\|")
        ticks = "`" * (max((len(run) for run in BACKTICKS.findall(code)), default=0) + 1)
        pad = " " if code.startswith("`") or code.endswith("`") else ""
        return f"{ticks}{pad}{code}{pad}{ticks}" if code.strip() else ""

    return _outside_code(line, lambda text: CODE_ELEMENT.sub(as_span, text))


def _summaries_as_labels(line: str) -> str:
    """`line` with each `<summary>` a bold label between blank lines (nothing if untitled)."""
    for start, end, title in reversed(_summaries(line)):
        label = f"\n\n{summary_label(title)}\n\n" if title else "\n\n"
        line = line[:start] + label + line[end:]
    return line


def clean_mdx(body: str, resolve_partial: PartialResolver | None = None) -> str:
    """The body as plain Markdown (see the module docstring for what changes)."""
    lines = body.splitlines()
    out: list[str] = []
    partials: dict[str, str] = {}
    snippets = Snippets()
    fence: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        opened = FENCE_OPEN.match(line)
        if fence is not None:
            out.append(line)
            if closes_fence(line, fence):
                fence = None
            index += 1
            continue
        if opened and is_twoslash(info := line.strip()[len(opened.group("fence")) :]):
            end = index + 1
            while end < len(lines) and not closes_fence(lines[end], opened.group("fence")):
                end += 1
            shown = snippets.shown(info, lines[index + 1 : end])
            if shown:  # only what the page shows; a block that shows nothing is left out
                out.extend([line, *shown, *lines[end : end + 1]])
            index = end + 1
            continue
        if opened:
            fence = opened.group("fence")
            out.append(line)
            index += 1
            continue
        if IMPORT_START.match(line):
            end = _statement_lines(lines, index, lambda text: bool(IMPORT_DONE.search(text)))
            statement = " ".join(lines[index : end + 1])
            imported = IMPORT_DEFAULT.match(statement)
            if imported and resolve_partial and imported.group("path").endswith((".md", ".mdx")):
                partial = resolve_partial(imported.group("path"))
                if partial is not None:
                    partials[imported.group("name")] = "\n\n" + partial.strip() + "\n\n"
            index = end + 1
            continue
        if EXPORT_START.match(line):
            end = index
            while not _export_done("\n".join(lines[index : end + 1])) and end + 1 < len(lines):
                end += 1
            index = end + 1
            continue
        if ATX_HEADING.match(line):
            out.append(line)
            index += 1
            continue
        comment = _comment_opening(line)
        if comment:  # the text around a comment stays (as lines of its own if it spans lines)
            end, after = _comment_end(lines, index, comment)
            before = line[: comment.start()]
            if end == index:
                lines[index] = before + after
            else:
                lines[index : end + 1] = [before, after] if before.strip() else [after]
            continue
        alert = GITHUB_ALERT.match(line)
        if alert:  # its label leads the quote's first line, as an admonition's does
            out.append(f"{alert['quote']}{alert['kind'].capitalize()}:")
            index += 1
            continue
        admonition = ADMONITION_OPEN.match(line)
        if admonition:
            title = (admonition.group("bracket") or admonition.group("title") or "").strip()
            label = admonition.group("kind").capitalize()
            indent = admonition.group("indent")  # inside a list item, it stays there
            if title:
                out.extend([f"{indent}{label}: {_as_sentence(title)}", ""])
            else:  # the label leads the admonition's first paragraph ("Info: This function…")
                out.append(f"{indent}{label}:")
                while index + 1 < len(lines) and not lines[index + 1].strip():
                    index += 1
            index += 1
            continue
        extent = table_extent(lines, index) if TABLE_OPEN.match(line.lstrip()) else None
        if extent:  # the text after the table, on its closing line, stays
            end, close = extent
            out.extend(["", *pipe_table("\n".join([*lines[index:end], lines[end][:close]])), ""])
            lines[end] = lines[end][close:]
            index = end if lines[end].strip() else end + 1
            continue
        if ADMONITION_CLOSE.match(line) or SPACING_LINE.match(line):
            out.append("")
            index += 1
            continue
        if line.lstrip().startswith("<") and ">" not in line:
            end = index
            while ">" not in lines[end] and end + 1 < len(lines):
                end += 1
            line = " ".join(part.strip() for part in lines[index : end + 1])
            index = end
        tags = INLINE_CODE.sub("", line).lower()  # `<summary>` in a code span is prose
        if "<summary" in tags and "</summary" not in tags:
            end = index  # a summary written over several lines (of one paragraph) is read whole
            while "</summary" not in lines[end].lower() and end + 1 < len(lines):
                if not lines[end + 1].strip():
                    break
                end += 1
            line = " ".join(part.strip() for part in [line, *lines[index + 1 : end + 1]])
            index = end
        line = _summaries_as_labels(_code_elements_as_spans(line))
        out.extend(_without_tags(line, partials).split("\n"))
        index += 1
    return "\n".join(out)
