"""The question sets: the contract's mix of kinds, and gold that exists in the real books."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.evaluation.metrics import EvalQuestion, load_questions
from core.settings import get_settings
from ingest.loader import load_documents
from ingest.sections import Section, parse_sections

REPO = Path(__file__).resolve().parents[2]
CORPORA = REPO.parent / "shared" / "corpora"
SETS = {
    "humanoid-textbook": "humanoid_questions.jsonl",
    "redux-docs": "redux_questions.jsonl",
    "prettier-docs": "prettier_questions.jsonl",
}
# Least number of questions of each kind per set; the sets may only grow.
MINIMUM = {
    "humanoid-textbook": {"all": 100, "cross_section": 5, "followup": 5, "out_of_scope": 10},
    "redux-docs": {"all": 40, "cross_section": 5, "followup": 5, "out_of_scope": 4},
    "prettier-docs": {
        "all": 45,
        "cross_section": 5,
        "followup": 5,
        "code": 5,
        "out_of_scope": 6,
        "keyword_trap": 5,
    },
}


def _norm(text: str) -> str:
    return " ".join(text.replace("`", "").split()).casefold()


def _walk(sections: list[Section]) -> Iterator[Section]:
    for section in sections:
        yield section
        yield from _walk(section.subsections)


def _section_texts(docs: Path) -> dict[str, dict[str, str]]:
    """file path -> normalised heading -> that section's text, as ingest cuts the pages."""
    pages: dict[str, dict[str, str]] = {}
    for doc in load_documents(docs, get_settings(), use_built_site=False).documents:
        texts = {_norm(doc.title): ""}
        for section in _walk(parse_sections(doc.body, doc.title)):
            body = "\n".join(block.text for part in _walk([section]) for block in part.blocks)
            for heading in section.heading_path:
                texts.setdefault(_norm(heading), "")
            texts[_norm(section.heading)] += "\n" + body
        pages[doc.file_path] = texts
    return pages


def _questions(corpus: str) -> list[EvalQuestion]:
    return load_questions(REPO / "tests" / "data" / SETS[corpus])


@pytest.mark.parametrize("corpus", sorted(SETS))
def test_question_set_has_the_contracts_mix_of_kinds(corpus: str):
    questions = _questions(corpus)
    counts = {"all": len(questions)}
    for question in questions:
        counts[question.kind] = counts.get(question.kind, 0) + 1
    for kind, least in MINIMUM[corpus].items():
        assert counts.get(kind, 0) >= least, f"{corpus}: {kind}"
    for question in questions:
        if question.kind == "cross_section":
            assert len(question.gold) >= 2, question.id
        if question.kind == "followup":
            assert question.history, question.id
        if question.kind == "out_of_scope":
            assert not question.gold and not question.answer_facts, question.id


@pytest.mark.parametrize("corpus", sorted(SETS))
def test_gold_sections_and_answer_facts_are_in_the_book(corpus: str):
    docs = CORPORA / corpus / "docs"
    if not docs.is_dir():
        pytest.skip(f"no corpus at {docs}")
    pages = _section_texts(docs)
    for question in _questions(corpus):
        sections = [*question.gold, *question.also_in]
        for section in sections:
            assert section.file in pages, f"{question.id}: no page {section.file}"
            headings = pages[section.file]
            assert _norm(section.heading) in headings, f"{question.id}: {section.heading}"
        if question.gold:
            text = " ".join(pages[s.file][_norm(s.heading)] for s in sections).casefold()
            for fact in question.answer_facts:
                assert fact.casefold() in text, f"{question.id}: fact {fact!r} not in its gold"


@pytest.mark.parametrize(
    "path", sorted((REPO / "bench" / "spot").glob("*_questions.jsonl")), ids=lambda p: p.name
)
def test_spot_check_sets_follow_the_question_contract(path: Path):
    """Every spot-check set (books not among the shared corpora) parses, and has in-scope
    questions with gold and expected facts, a follow-up and off-book questions."""
    questions = load_questions(path)
    kinds = {q.kind for q in questions}
    assert len(questions) >= 20 and {"followup", "out_of_scope", "keyword_trap"} <= kinds
    in_scope = [q for q in questions if q.kind != "out_of_scope"]
    assert all(q.gold and q.answer_facts for q in in_scope)
