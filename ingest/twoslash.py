"""What a reader sees of a `twoslash` code block: TypeScript docs (tRPC's, for one) compile their
examples with twoslash, which hides the setup an example needs and shows the rest.

- `// ---cut---` (or `// ---cut-before---`) hides every line above it, `// ---cut-after---`
  every line below it, and `// ---cut-start---` … `// ---cut-end---` the lines between;
- a compiler directive line (`// @filename: server.ts`, `// @errors: 2322`, `// @noErrors`)
  and a type query mark (`//    ^?`) are not shown;
- a ```` ```twoslash include admin ```` block is not shown: it defines a snippet that a later
  block of the page pastes with `// @include: admin` (or its part up to a `// - part` mark,
  with `// @include: admin-part`).

So an example reads as the lines the page shows, not as the setup files above them.
"""

import re

CUT = re.compile(r"^\s*//\s*---cut(?P<kind>|-before|-after|-start|-end)---\s*$")
HIDES_ABOVE = ("", "-before")
INCLUDE = re.compile(r"^\s*//\s*@include:\s*(?P<name>\S+)\s*$")
PART_MARK = re.compile(r"^\s*//\s*-\s*(?P<name>\S+)\s*$")
HIDDEN_LINE = re.compile(r"^\s*//\s*(@\w+(:.*)?|\^[?|!~].*)\s*$")
"""A compiler directive (`// @errors: 2322`, `// @noErrors`; not `// @ts-ignore`, which the
page shows) or a type query mark."""
QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")


def is_twoslash(info: str) -> bool:
    """Whether a fence's info string (`ts twoslash title="client.ts"`) asks for twoslash."""
    return "twoslash" in QUOTED.sub(" ", info).split()


class Snippets:
    """The `twoslash include` snippets a page has defined so far, by name."""

    def __init__(self) -> None:
        self._code: dict[str, list[str]] = {}

    def shown(self, info: str, code: list[str]) -> list[str]:
        """The lines of a twoslash block's code (fences excluded) that the page shows; none
        for a block that defines a snippet, which is kept for the blocks after it."""
        code = [pasted for line in code for pasted in self._pasted(line)]
        words = info.split()
        if words[:2] == ["twoslash", "include"] and len(words) > 2:
            self._code[words[2]] = code
            return []
        return _visible(code)

    def _pasted(self, line: str) -> list[str]:
        """A line, or the snippet (part) it includes."""
        include = INCLUDE.match(line)
        if include is None:
            return [line]
        name = include["name"]
        if name in self._code:
            return [kept for kept in self._code[name] if _part_mark(kept) is None]
        base, _, part = name.rpartition("-")
        code = self._code.get(base, [])
        end = next((i for i, kept in enumerate(code) if _part_mark(kept) == part), 0)
        return [kept for kept in code[:end] if _part_mark(kept) is None]


def _part_mark(line: str) -> str | None:
    """The name of the part a `// - part` line ends, if it is one."""
    mark = PART_MARK.match(line)
    return mark["name"] if mark else None


def _visible(code: list[str]) -> list[str]:
    """The lines the cuts and hidden lines leave."""
    above = [index for index, line in enumerate(code) if _cut(line) in HIDES_ABOVE]
    code = code[above[-1] + 1 :] if above else code
    below = next((index for index, line in enumerate(code) if _cut(line) == "-after"), None)
    shown: list[str] = []
    hiding = False
    for line in code[:below]:
        kind = _cut(line)
        if kind in ("-start", "-end"):
            hiding = kind == "-start"
        elif not hiding and not HIDDEN_LINE.match(line):
            shown.append(line)
    return shown


def _cut(line: str) -> str | None:
    """The kind of cut a line marks ("", "-before", "-after", "-start", "-end"), if any."""
    cut = CUT.match(line)
    return cut["kind"] if cut else None
