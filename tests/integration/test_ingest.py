"""Ingest of the sample book into Qdrant local mode with the real model and real Postgres."""

import uuid
from itertools import pairwise
from pathlib import Path

import pytest

from agent.retrieval.sources import expand_fragments, follow_signposts
from core.embeddings import make_embedding_model
from core.store import BookIndex, open_index
from ingest.recorded import run_ingest


def index_of(settings) -> BookIndex:
    return open_index(settings, make_embedding_model(settings))


def all_payloads(settings) -> list[dict]:
    return [{**point.payload, "id": point.id} for point in index_of(settings).points()]


def first_section_line(path: Path) -> tuple[str, str]:
    """A prose line of the file's first H2 section, and the text after it."""
    text = path.read_text()
    after_h2 = text.split("\n## ", 1)[1]
    line = next(
        ln
        for ln in after_h2.splitlines()[1:]
        if len(ln.split()) > 6 and not ln.startswith(("-", "|", "`"))
    )
    return line, text


@pytest.fixture
def ingested(make_settings, sample_docs):
    settings = make_settings()
    summary = run_ingest(settings)
    return settings, summary


def test_first_ingest_indexes_every_page_with_the_chunk_contract(ingested, sample_docs):
    settings, summary = ingested
    pages = [
        p for p in sample_docs.rglob("*.md*") if not any(part.startswith("_") for part in p.parts)
    ]
    assert summary.status == "completed"
    assert summary.total_documents == len(pages)
    assert summary.total_chunks == summary.upserted > len(pages)
    assert summary.deleted == 0
    payloads = all_payloads(settings)
    assert len(payloads) == summary.total_chunks
    assert {p["file_path"] for p in payloads} == {str(p.relative_to(sample_docs)) for p in pages}
    for payload in payloads:
        assert payload["book_id"] == "test-book"
        assert payload["page_url"].startswith("http://localhost:3000/docs/")
        assert payload["heading_path"] and payload["text"].strip()
        assert payload["token_count"] <= settings.chunk_max_tokens or payload["oversized"]
    assert {p["module"] for p in payloads} >= {"ros2", "gazebo", "isaac", "vla"}


def test_reingest_without_changes_embeds_and_writes_nothing(ingested):
    settings, first = ingested
    second = run_ingest(settings)
    assert (second.embedded, second.upserted, second.deleted) == (0, 0, 0)
    assert second.skipped_unchanged == first.total_chunks


def test_editing_one_paragraph_reembeds_only_that_chunk(ingested, sample_docs):
    settings, first = ingested
    lesson = sorted((sample_docs / "01-ros2").glob("*.md"))[0]
    line, text = first_section_line(lesson)
    marker = f"Edited by reviewer {uuid.uuid4().hex}."  # unique, so the cache cannot know it
    lesson.write_text(text.replace(line, f"{line} {marker}", 1))
    relative = str(lesson.relative_to(sample_docs))
    page_points = sum(1 for p in all_payloads(settings) if p["file_path"] == relative)
    second = run_ingest(settings)
    assert second.embedded == 1  # only the edited chunk meets the model
    assert second.upserted == page_points  # the page's points carry its new fingerprint
    assert second.deleted == 0
    assert second.skipped_unchanged == first.total_chunks - page_points
    texts = [p["text"] for p in all_payloads(settings)]
    assert any(marker in t for t in texts)


def test_deleted_file_chunks_are_removed_on_reingest(ingested, sample_docs):
    settings, _ = ingested
    victim = sorted((sample_docs / "02-simulation").glob("*.md"))[-1]
    relative = str(victim.relative_to(sample_docs))
    count = sum(1 for p in all_payloads(settings) if p["file_path"] == relative)
    victim.unlink()
    second = run_ingest(settings)
    assert second.deleted == count > 0
    assert second.embedded == 0
    assert relative not in {p["file_path"] for p in all_payloads(settings)}


def without_section(text: str, heading: str) -> str:
    """The Markdown with the H2 section `heading` (up to the next H2) cut out."""
    head, rest = text.split(f"\n## {heading}\n", 1)
    _, sep, tail = rest.partition("\n## ")
    return head + ("\n## " + tail if sep else "\n")


def test_deleted_section_disappears_and_neighbours_relink(ingested, sample_docs):
    settings, _ = ingested
    lesson = sorted((sample_docs / "03-isaac").glob("*.md"))[0]
    lesson.write_text(without_section(lesson.read_text(), "Key Takeaways"))
    summary = run_ingest(settings)
    relative = str(lesson.relative_to(sample_docs))
    chunks = sorted(
        (p for p in all_payloads(settings) if p["file_path"] == relative),
        key=lambda p: p["chunk_index"],
    )
    assert summary.deleted >= 1
    assert "Key Takeaways" not in {p["heading"] for p in chunks}
    assert [p["chunk_index"] for p in chunks] == list(range(len(chunks)))
    assert all(p["total_chunks"] == len(chunks) for p in chunks)
    for before, after in pairwise(chunks):
        assert before["next_chunk_id"] == after["id"]
        assert after["prev_chunk_id"] == before["id"]


def test_broken_file_is_reported_and_keeps_its_previous_points(ingested, sample_docs):
    settings, _ = ingested
    lesson = sorted((sample_docs / "04-vla").glob("*.md"))[0]
    relative = str(lesson.relative_to(sample_docs))
    before = sum(1 for p in all_payloads(settings) if p["file_path"] == relative)
    lesson.write_text("---\ntitle: [unclosed\n---\n# Broken\n")
    (sample_docs / "binary.md").write_bytes(b"\x00\x01\x02 not text")
    second = run_ingest(settings)
    failed = {p["file"]: p["reason"] for p in second.problems if p["failed"]}
    assert relative in failed and "YAML" in failed[relative]
    assert "binary.md" in failed
    assert second.deleted == 0
    assert sum(1 for p in all_payloads(settings) if p["file_path"] == relative) == before


def test_full_rebuild_reuses_cached_embeddings(ingested):
    settings, first = ingested
    rebuilt = run_ingest(settings, full=True)
    assert rebuilt.embedded == 0
    assert rebuilt.upserted == first.total_chunks
    assert len(all_payloads(settings)) == first.total_chunks


def test_the_parts_of_a_split_section_join_with_each_overlap_said_once(make_settings, sample_docs):
    sentences = [
        f"Sentence {n} of the bakery guide explains step {n} in a few plain words."
        for n in range(150)
    ]
    paragraphs = "\n\n".join(" ".join(sentences[i : i + 5]) for i in range(0, 150, 5))
    (sample_docs / "long-guide.md").write_text(f"# Long Guide\n\n## Steps\n\n{paragraphs}\n")
    settings = make_settings()
    run_ingest(settings)
    parts = sorted(
        (p for p in all_payloads(settings) if p["file_path"] == "long-guide.md"),
        key=lambda p: p["chunk_index"],
    )
    assert len(parts) >= 3
    assert parts[1]["text"].split(". ")[0] in parts[0]["text"]  # ingest repeats the seam
    middle = {"id": parts[1]["id"], "payload": parts[1]}
    (expanded,) = expand_fragments([middle], index_of(settings))
    joined = expanded["payload"]["text"]
    assert all(joined.count(sentence) == 1 for sentence in sentences[:60])
    assert joined.index(sentences[0]) < joined.index(sentences[40])


def test_a_part_that_only_points_elsewhere_is_read_with_its_sections_answer(
    make_settings, sample_docs
):
    answer = "Proof the dough in a warm cabinet until it doubles, about an hour for most loaves."
    links = "\n".join(
        f"- [Bakers' forum thread {n}: where should the dough rest?](https://example.com/t/{n})"
        for n in range(90)
    )
    (sample_docs / "faq.md").write_text(
        f"# FAQ\n\n## Where should dough rest?\n\n{answer}\n\n#### Further information\n\n"
        f"**Discussions**\n\n{links}\n"
    )
    settings = make_settings()
    run_ingest(settings)
    parts = sorted(
        (p for p in all_payloads(settings) if p["file_path"] == "faq.md"),
        key=lambda p: p["chunk_index"],
    )
    assert len(parts) >= 3 and answer not in parts[-1]["text"] and answer not in parts[-2]["text"]
    last = {"id": parts[-1]["id"], "payload": parts[-1]}
    (expanded,) = expand_fragments([last], index_of(settings))
    assert expanded["payload"]["text"].startswith(parts[0]["text"].split("\n")[0])
    assert answer in expanded["payload"]["text"]


def test_a_section_that_only_points_to_another_is_read_as_that_section(make_settings, sample_docs):
    (sample_docs / "guides").mkdir()
    (sample_docs / "guides" / "proofing.md").write_text(
        "# Proofing\n\n## Cold Proofing {#cold}\n\n"
        "Rest the shaped dough in the fridge overnight; it develops more flavour.\n\n"
        "## Warm Proofing\n\nA warm cabinet doubles the dough in an hour.\n"
    )
    (sample_docs / "bread.md").write_text(
        "# Bread\n\n## Overnight Dough\n\n"
        "See [cold proofing](guides/proofing.md#cold) in the proofing guide for the details.\n\n"
        "## Unknown Target\n\nSee [the oven guide](guides/oven.md) for that.\n"
    )
    settings = make_settings()
    run_ingest(settings)
    payloads = {(p["file_path"], p["heading"]): p for p in all_payloads(settings)}
    signpost = payloads["bread.md", "Overnight Dough"]
    unresolved = payloads["bread.md", "Unknown Target"]
    documents = [{"id": p["id"], "payload": p} for p in (signpost, unresolved)]
    followed, kept = follow_signposts(documents, index_of(settings))
    assert followed["payload"]["heading"] == "Cold Proofing"
    assert followed["id"] == payloads["guides/proofing.md", "Cold Proofing"]["id"]
    assert "fridge overnight" in followed["payload"]["text"]
    assert kept["payload"]["heading"] == "Unknown Target"  # a link the book cannot resolve
