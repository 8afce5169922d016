"""Retrieval scores per question kind, with several gold sections found only all together."""

from agent.evaluation.metrics import EvalQuestion, GoldSection, evaluate_retrieval, kind_metric
from agent.retrieval.search import SearchHit


def _hit(file: str, heading: str) -> SearchHit:
    return SearchHit(f"{file}#{heading}", 1.0, {"file_path": file, "heading_path": [heading]})


def _question(id: str, kind: str, *headings: str) -> EvalQuestion:
    gold = [GoldSection(file="a.md", heading=h) for h in headings]
    return EvalQuestion(id=id, question=id, kind=kind, gold=gold)


def test_a_cross_section_question_counts_at_the_rank_of_its_last_section():
    ranked = [_hit("a.md", h) for h in ["One", "x1", "x2", "x3", "x4", "Two", "Three"]]
    questions = [
        _question("both-late", "cross_section", "One", "Two"),
        _question("both-early", "cross_section", "One", "x2"),
        _question("single", "followup", "Three"),
    ]
    report = evaluate_retrieval(questions, lambda q: ranked)
    assert kind_metric(report, "cross_section") == 0.5
    assert kind_metric(report, "cross_section", "mrr@10") == round((1 / 6 + 1 / 3) / 2, 4)
    assert kind_metric(report, "followup", "hit@1") == 0.0
    assert kind_metric(report, "code") is None
    assert report["by_kind"]["followup"] == {"n": 1, "hit@5": 0.0}
