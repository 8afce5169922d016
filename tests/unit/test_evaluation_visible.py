"""Facts and gold headings are compared with what we produce as a reader sees both."""

from agent.evaluation.metrics import GoldSection, hits_section
from agent.evaluation.visible import states, visible_inline
from agent.retrieval.search import SearchHit

ANSWER = """A real robot starts dozens of nodes. [1] A **launch file** starts them together, \
with their [parameters](/docs/params) and it\u2019s written in `Python`. [1]

| Sensor | Used for |
| --- | --- |
| **TSDF** (truncated signed distance field) | mapping [2] |

```python
values = arr [1]
```
"""


def test_a_fact_across_emphasis_links_and_citation_marks_is_stated():
    assert states(ANSWER, "nodes. A launch file starts them together")
    assert states(ANSWER, "with their parameters and it's written in Python")
    assert states(ANSWER, "TSDF (truncated signed distance field)")
    assert states(ANSWER, "`launch file`")


def test_what_the_answer_does_not_say_is_not_stated():
    assert not states(ANSWER, "starts them one by one")
    assert not states(ANSWER, "**launch file**")  # the reader never sees the asterisks
    assert not states(ANSWER, "/docs/params")  # nor a link's address


def test_citation_like_brackets_in_code_are_kept():
    assert states(ANSWER, "values = arr [1]")
    assert states("Call `get [0]` first. [3]", "get [0]")
    assert not states("Call `get [0]` first. [3]", "first. [3]")


def test_a_fact_is_plain_text_not_markdown():
    assert states("Set `__PRELOADED_STATE__` on window. [1]", "__preloaded_state__")
    assert not states("Set it on window. [1]", "__preloaded_state__")


def test_headings_compare_as_rendered():
    assert visible_inline("Option 1. [lint-staged](https://a.example/)") == "option 1. lint-staged"
    assert visible_inline("Don\u2019t call `dispatch(action)`") == "don't call dispatch(action)"
    hit = SearchHit(
        "p1",
        1.0,
        {"file_path": "precommit.md", "heading_path": ["Pre-commit Hook", visible_source()]},
    )
    assert hits_section(hit, GoldSection(file="precommit.md", heading="Option 1. lint-staged"))
    assert hits_section(hit, GoldSection(file="precommit.md", heading=visible_source()))
    assert not hits_section(hit, GoldSection(file="other.md", heading="Option 1. lint-staged"))
    assert not hits_section(hit, GoldSection(file="precommit.md", heading="Option 2. lint"))


def visible_source() -> str:
    """The heading as the page's Markdown writes it."""
    return "Option 1. [lint-staged](https://github.com/okonet/lint-staged)"
