"""Chunker behaviour on small hand-made pages."""

import re
import uuid
from dataclasses import replace
from itertools import pairwise

import pytest

from core.settings import Settings
from ingest.chunker import Chunk, chunk_document
from ingest.documents import Document
from ingest.mdx import clean_mdx
from ingest.tokens import count_tokens

CONTRACT_FIELDS = {
    "book_id", "doc_id", "file_path", "title", "page_url", "heading_path", "heading", "anchor",
    "module", "chapter", "lesson", "week", "hardware_tier", "proficiency_level", "keywords",
    "section_type", "chunk_index", "total_chunks", "prev_chunk_id", "next_chunk_id",
    "token_count", "content_hash", "text", "embedded_text",
}  # fmt: skip


@pytest.fixture
def settings() -> Settings:
    return Settings(book_id="test-book", _env_file=None)  # type: ignore[call-arg]


def make_doc(body: str, **metadata: object) -> Document:
    meta = {"module": "ros2", "chapter": 1, "lesson": 2, "hardware_tier": 1, **metadata}
    return Document(
        file_path="01-ros2/02-topics.md",
        doc_id="ros2/topics",
        title="Topics",
        page_url="http://localhost:3000/docs/ros2/topics",
        body=body,
        metadata=meta,
        content_hash="x",
    )


def paragraph(words: int, stem: str = "word") -> str:
    return " ".join(f"{stem}{i}." if i % 12 == 11 else f"{stem}{i}" for i in range(words))


def by_heading(chunks: list[Chunk]) -> dict[str, list[Chunk]]:
    grouped: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        grouped.setdefault(chunk.payload["heading"], []).append(chunk)
    return grouped


def test_each_short_h2_section_is_one_chunk_with_heading_path_and_anchor(settings):
    body = (
        "# Topics\n\nIntro text.\n\n## Publishers\n\nA publisher sends.\n\n"
        "## Subscribers\n\nA subscriber receives.\n"
    )
    chunks = chunk_document(make_doc(body), settings)
    assert [c.payload["heading_path"] for c in chunks] == [
        ["Topics"],
        ["Topics", "Publishers"],
        ["Topics", "Subscribers"],
    ]
    assert [c.payload["anchor"] for c in chunks] == [None, "publishers", "subscribers"]
    assert chunks[1].payload["text"] == "A publisher sends."


def test_every_contract_field_is_filled_and_neighbours_link_up(settings):
    body = "# Topics\n\n## One\n\nFirst.\n\n## Two\n\nSecond.\n\n## Three\n\nThird.\n"
    chunks = chunk_document(make_doc(body), settings)
    for index, chunk in enumerate(chunks):
        assert chunk.payload.keys() >= CONTRACT_FIELDS
        assert chunk.payload["chunk_index"] == index
        assert chunk.payload["total_chunks"] == len(chunks)
        uuid.UUID(chunk.id)
    assert chunks[0].payload["prev_chunk_id"] is None
    assert chunks[-1].payload["next_chunk_id"] is None
    for before, after in pairwise(chunks):
        assert before.payload["next_chunk_id"] == after.id
        assert after.payload["prev_chunk_id"] == before.id


def test_hash_lines_inside_code_fences_are_not_headings(settings):
    body = "# Topics\n\n## Script\n\n```bash\n# not a heading\n## nor this\necho hi\n```\n"
    chunks = chunk_document(make_doc(body), settings)
    assert [c.payload["heading"] for c in chunks] == ["Script"]
    assert "# not a heading" in chunks[0].payload["text"]


def test_ids_are_stable_and_distinct_for_repeated_headings(settings):
    body = "# T\n\n## A\n\n### Example\n\nOne.\n\n## B\n\n### Example\n\nTwo.\n"
    first = chunk_document(make_doc(body), settings)
    second = chunk_document(make_doc(body), settings)
    assert [c.id for c in first] == [c.id for c in second]
    assert len({c.id for c in first}) == len(first)


def test_custom_heading_id_becomes_the_anchor_and_leaves_the_heading_text(settings):
    body = "# T\n\n## Quality of Service {#qos}\n\nReliable or best effort.\n"
    (chunk,) = chunk_document(make_doc(body), settings)
    assert chunk.payload["heading"] == "Quality of Service"
    assert chunk.payload["anchor"] == "qos"


def test_long_section_splits_into_h3_chunks(settings):
    body = (
        "# T\n\n## Big\n\nLead paragraph.\n\n"
        f"### Part one\n\n{paragraph(450, 'a')}\n\n### Part two\n\n{paragraph(450, 'b')}\n"
    )
    chunks = chunk_document(make_doc(body), settings)
    paths = [c.payload["heading_path"] for c in chunks]
    assert ["T", "Big", "Part one"] in paths
    assert ["T", "Big", "Part two"] in paths
    assert all(c.payload["token_count"] <= settings.chunk_max_tokens for c in chunks)


def test_short_section_keeps_its_h3_headings_inside_one_chunk(settings):
    body = "# T\n\n## Small\n\nLead.\n\n### Detail\n\nA detail.\n"
    (chunk,) = chunk_document(make_doc(body), settings)
    assert chunk.payload["section_headings"] == ["Detail"]
    assert "### Detail" in chunk.payload["text"]


def test_long_prose_is_split_with_overlap_and_within_the_cap(settings):
    paragraphs = "\n\n".join(paragraph(120, f"p{n}x") for n in range(14))
    body = f"# T\n\n## Essay\n\n{paragraphs}\n"
    chunks = chunk_document(make_doc(body), settings)
    assert len(chunks) >= 3
    for chunk in chunks:
        assert chunk.payload["token_count"] <= settings.chunk_max_tokens
    for before, after in pairwise(chunks):
        tail_words = before.payload["text"].split()[-5:]
        assert " ".join(tail_words) in after.payload["text"], "parts should overlap"


def test_code_block_is_never_split_and_oversized_block_is_flagged(settings):
    code_lines = "\n".join(f"value_{i} = compute({i}, {i} * 2)  # step {i}" for i in range(220))
    fence = f"```python\n{code_lines}\n```"
    body = f"# T\n\n## Code\n\n{paragraph(300)}\n\n{fence}\n\n{paragraph(300, 'z')}\n"
    chunks = chunk_document(make_doc(body), settings)
    with_code = [c for c in chunks if "```python" in c.payload["text"]]
    assert len(with_code) == 1
    code_chunk = with_code[0]
    assert code_chunk.payload["text"].count("```") == 2
    assert code_chunk.payload["oversized"] is (count_tokens(code_lines) > settings.chunk_max_tokens)


def test_a_list_over_the_cap_is_cut_between_its_items(settings):
    items = "\n\n".join(
        f"- **option{i}**: By default it is off. Setting it to `true`\n  turns on "
        f"{paragraph(30, 'w')}."
        for i in range(40)
    )
    chunks = chunk_document(make_doc(f"# T\n\n## Options\n\n{items}\n"), settings)
    holders = [c.payload["text"] for c in chunks if "**option" in c.payload["text"]]
    assert len(holders) > 1
    for text in holders:
        assert ". - **option" not in text  # no item run into the one before it
        starts = [line for line in text.splitlines() if line.startswith("- **option")]
        assert len(starts) == text.count("**option")  # every item opens its own line
    assert {f"- **option{i}**" for i in range(40)} <= {
        line for text in holders for line in re.findall(r"^- \*\*option\d+\*\*", text, re.M)
    }


def test_table_stays_whole(settings):
    rows = "\n".join(f"| policy{i} | value {i} | meaning {paragraph(8, 'm')} |" for i in range(60))
    table = f"| a | b | c |\n|---|---|---|\n{rows}"
    body = f"# T\n\n## Table\n\n{paragraph(400)}\n\n{table}\n\n{paragraph(300)}\n"
    chunks = chunk_document(make_doc(body), settings)
    holders = [c for c in chunks if "| policy0 |" in c.payload["text"]]
    assert len(holders) == 1
    assert "| policy59 |" in holders[0].payload["text"]


def test_section_types_are_classified(settings):
    code = "```python\nprint(1)\n```"
    body = (
        "# T\n\n## Learning Objectives\n\n- Learn topics\n\n"
        f"## Examples\n\n{code}\n\nand\n\n{code}\n\n## Concepts\n\n{paragraph(80)}\n"
        "\n## What You\u2019ve Learned\n\n- Topics decouple nodes.\n"
        "\n## Topics Covered\n\n- Publishers\n- Subscribers\n"
        "\n## Short Answer Questions\n\n1. What does a publisher do?\n"
        "\n## Table of Contents\n\n- [What is a topic?](#what-is-a-topic)\n"
        "\n## Where to Start\n\nRead the lessons in order.\n"
        "\n## Getting Started\n\nInstall the package first.\n"
        "\n## How to use this hook\n\nCall it in a component.\n"
    )
    types = {
        c.payload["heading"]: c.payload["section_type"]
        for c in chunk_document(make_doc(body), settings)
    }
    assert types == {
        "Learning Objectives": "structural",
        "Examples": "code_heavy",
        "Concepts": "instructional",
        "What You\u2019ve Learned": "structural",  # a tutorial's recap, any apostrophe
        "Topics Covered": "structural",  # a chapter's list of what its lessons teach
        "Short Answer Questions": "structural",  # a quiz inside a lesson
        "Table of Contents": "structural",  # links to the page's own sections
        "Where to Start": "structural",  # the reading order, not a topic
        "Getting Started": "instructional",  # an install guide in many docs
        "How to use this hook": "instructional",  # an API's usage, not the reading order
    }


def test_every_section_of_a_quiz_page_is_structural_and_a_page_on_tests_is_not(settings):
    body = f"# T\n\n## Question 1\n\n{paragraph(40)}\n\n## Question 2\n\n{paragraph(40)}\n"
    quiz = replace(make_doc(body), title="Week 2 Quiz: Topics and Services")
    assert {c.payload["section_type"] for c in chunk_document(quiz, settings)} == {"structural"}
    tests = replace(make_doc(body), title="Writing Tests")
    assert {c.payload["section_type"] for c in chunk_document(tests, settings)} == {"instructional"}


def test_embedded_text_has_contextual_header_and_short_sections_get_lesson_context(settings):
    body = (
        f"# Topics\n\n## Key Takeaways\n\n- Topics decouple nodes.\n\n## Long\n\n{paragraph(300)}\n"
    )
    doc = make_doc(body, description="How ROS 2 topics work")
    chunks = by_heading(chunk_document(doc, settings))
    short = chunks["Key Takeaways"][0].embedded_text
    assert short.startswith("Topics › Key Takeaways\n")
    assert "Module: ros2" in short and "How ROS 2 topics work" in short
    long = chunks["Long"][0].embedded_text
    assert long.startswith("Topics › Long\n\n")


def test_page_without_h1_uses_title_as_heading_root(settings):
    body = "Intro.\n\n## Section\n\nBody.\n"
    chunks = chunk_document(make_doc(body), settings)
    assert chunks[1].payload["heading_path"] == ["Topics", "Section"]


def test_a_page_top_of_only_non_breaking_spaces_makes_no_chunk(settings):
    body = clean_mdx("&nbsp;\n\n# Topics\n\nTopics carry messages.\n\n## QoS\n\nDepth.\n")
    chunks = chunk_document(make_doc(body), settings)
    assert [c.payload["heading_path"] for c in chunks] == [["Topics"], ["Topics", "QoS"]]
    assert all("&nbsp;" not in c.payload["text"] for c in chunks)


def test_a_thematic_break_is_no_text_and_a_section_of_only_breaks_makes_no_chunk(settings):
    body = (
        "# API\n\n## Methods\n\n---\n\n"
        f"### `bake()`\n\n{paragraph(450, 'b')}\n\n---\n\n### `cool()`\n\n{paragraph(450, 'c')}\n"
    )
    chunks = chunk_document(make_doc(body), settings)
    paths = [c.payload["heading_path"][1:] for c in chunks]
    assert ["Methods"] not in paths and ["Methods", "`cool()`"] in paths
    assert all("---" not in c.payload["text"] for c in chunks)


def test_changing_one_section_changes_only_its_content_hash(settings):
    body = "# T\n\n## A\n\nAlpha.\n\n## B\n\nBeta.\n"
    before = chunk_document(make_doc(body), settings)
    after = chunk_document(make_doc(body.replace("Beta.", "Beta, edited.")), settings)
    assert before[0].payload["content_hash"] == after[0].payload["content_hash"]
    assert before[1].payload["content_hash"] != after[1].payload["content_hash"]


def test_an_escaped_angle_bracket_is_text_not_a_tag():
    row = "| `true` | <code>--quote-props \\<as-needed&#124;preserve></code> | <Badge /> |"
    cleaned = clean_mdx(row)
    assert "`--quote-props <as-needed\\|preserve>`" in cleaned  # as the page shows it, in code
    assert "<code>" not in cleaned and "Badge" not in cleaned
