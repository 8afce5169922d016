"""What a reader sees of a `twoslash` code block: TypeScript docs (tRPC's, for one) compile their
examples with twoslash, which hides the setup an example needs and shows the rest.

- `// ---cut---` (or `// ---cut-before---`) hides every line above it, `// ---cut-after---`
  every line below it, and `// ---cut-start---` … `// ---cut-end---` the lines between;
- a compiler directive line (`// @filename: server.ts`, `// @errors: 2322`, `// @noErrors`)
  and a type query mark (`//    ^?`) are not shown.

So an example reads as the few lines the page shows, not as the setup files above them.
"""

import re

CUT_BEFORE = re.compile(r"^\s*//\s*---cut(-before)?---\s*$")
CUT_AFTER = re.compile(r"^\s*//\s*---cut-after---\s*$")
CUT_START = re.compile(r"^\s*//\s*---cut-start---\s*$")
CUT_END = re.compile(r"^\s*//\s*---cut-end---\s*$")
HIDDEN_LINE = re.compile(r"^\s*//\s*(@\w+\b.*|\^[?|!~].*)$")


def is_twoslash(info: str) -> bool:
    """Whether a fence's info string (`ts twoslash title="client.ts"`) asks for twoslash."""
    return "twoslash" in info.split()


def shown_lines(code: list[str]) -> list[str]:
    """The lines of a twoslash block's code (fences excluded) that the page shows."""
    cuts = [index for index, line in enumerate(code) if CUT_BEFORE.match(line)]
    if cuts:
        code = code[cuts[-1] + 1 :]
    after = next((index for index, line in enumerate(code) if CUT_AFTER.match(line)), None)
    if after is not None:
        code = code[:after]
    shown: list[str] = []
    hiding = False
    for line in code:
        if CUT_START.match(line) or CUT_END.match(line):
            hiding = bool(CUT_START.match(line))
        elif not hiding and not HIDDEN_LINE.match(line):
            shown.append(line)
    return shown
