"""An HTML `<table>` in a page, as the Markdown pipe table a reader of the page sees.

Pages write tables in HTML when a cell spans rows or columns (a compatibility matrix). With
its tags stripped, such a table would be a column of loose cell texts. Here each `<tr>` is a
row and each `<th>`/`<td>` a cell, a spanning cell repeated in every row and column it covers,
the first row the header (with the rows its cells span). A cell's inline tags go (their text
stays), `<code>` becomes backticks, `<br>` a space, and a footnote mark in `<sup>` stays one
(`YES¹`).
"""

import re
from html.parser import HTMLParser

TABLE_OPEN = re.compile(r"<table\b")
"""An HTML table's opening (lower case: `<Table>` is a component)."""
TABLE_CLOSE = re.compile(r"</table\s*>")
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
CELL_TAGS = ("td", "th")
INLINE_MARKS = {"br": " ", "code": "`"}
"""What an opening tag inside a cell becomes (a `</code>` closes its backticks)."""


class _TableReader(HTMLParser):
    """Rows of (text, rowspan, colspan) cells of the outermost table."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self._cell: list[str] | None = None
        self._spans = (1, 1)
        self._depth = 0
        self._in_sup = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._depth += 1
        if self._depth != 1:
            return
        if tag == "tr":
            self.rows.append([])
        elif tag in CELL_TAGS:
            self._close_cell()
            values = dict(attrs)
            self._cell = []
            self._spans = (_span(values.get("rowspan")), _span(values.get("colspan")))
        elif tag in INLINE_MARKS and self._cell is not None:
            self._cell.append(INLINE_MARKS[tag])
        elif tag == "sup":
            self._in_sup = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._depth -= 1
            if self._depth == 0:
                self._close_cell()
        elif self._depth != 1:
            return
        elif tag in (*CELL_TAGS, "tr"):
            self._close_cell()
        elif tag == "code" and self._cell is not None:
            self._cell.append("`")
        elif tag == "sup":
            self._in_sup = False

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            digits = data.strip()
            superscript = self._in_sup and digits.isdigit()
            self._cell.append(digits.translate(SUPERSCRIPT) if superscript else data)

    def _close_cell(self) -> None:
        if self._cell is None:
            return
        if not self.rows:
            self.rows.append([])
        text = " ".join("".join(self._cell).split()).replace("|", r"\|")
        self.rows[-1].append((text, *self._spans))
        self._cell = None


def _span(value: str | None) -> int:
    """A `rowspan`/`colspan` value (JSX's `colSpan={2}` too) as a count of at least 1 (at most
    50, against typos)."""
    try:
        return min(max(int((value or "1").strip("{} ")), 1), 50)
    except ValueError:
        return 1


def _grid(rows: list[list[tuple[str, int, int]]]) -> list[list[str]]:
    """The table's cells laid out, each spanning cell copied into every place it covers."""
    grid: dict[tuple[int, int], str] = {}
    for row_index, row in enumerate(rows):
        column = 0
        for text, rowspan, colspan in row:
            while (row_index, column) in grid:
                column += 1
            for down in range(rowspan):
                for across in range(colspan):
                    grid.setdefault((row_index + down, column + across), text)
            column += colspan
    height = len(rows)  # a cell spanning past the last row is cut there, as browsers do
    width = max((column for row, column in grid if row < height), default=-1) + 1
    return [[grid.get((row, column), "") for column in range(width)] for row in range(height)]


def _header(grid: list[list[str]], height: int) -> list[str]:
    """The first `height` rows as one header row, each column's distinct texts joined."""
    columns = zip(*grid[:height], strict=True)
    return [" ".join(dict.fromkeys(text for text in column if text)) for column in columns]


def table_extent(lines: list[str], start: int) -> tuple[int, int] | None:
    """Where the table opening on line `start` ends, nested tables inside it included: its
    last line and the offset just after its `</table>` there; None if it never closes."""
    depth = 0
    for index in range(start, len(lines)):
        tags = [(m.start(), 1, m.end()) for m in TABLE_OPEN.finditer(lines[index])]
        tags += [(m.start(), -1, m.end()) for m in TABLE_CLOSE.finditer(lines[index])]
        for _, step, end in sorted(tags):
            depth += step
            if depth == 0:
                return index, end
    return None


def pipe_table(html: str) -> list[str]:
    """The lines of `html`'s first table as a Markdown pipe table (none if it has no cells).

    A header cell spanning rows makes the rows it spans one header ("Server version" over
    "1.x" reads "Server version 1.x").
    """
    reader = _TableReader()
    reader.feed(html)
    reader.close()
    grid = _grid(reader.rows)
    if not grid:
        return []
    height = max(rowspan for _, rowspan, _ in reader.rows[0]) if reader.rows[0] else 1
    grid = [row for row in [_header(grid, height), *grid[height:]] if any(row)]
    if not grid:  # only images or empty cells
        return []
    lines = [f"| {' | '.join(row)} |" for row in grid]
    lines.insert(1, f"|{'---|' * len(grid[0])}")
    return lines
