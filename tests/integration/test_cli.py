"""The `bookrag` command as a user runs it: a real process, settings from the environment."""

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import bookrag_serve


@pytest.fixture
def cli_env(tmp_path: Path, database_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATA_DIR": str(tmp_path / "data"),
        "DATABASE_URL": database_url,
        "BOOK_DOCS_DIR": str(tmp_path / "docs"),
        "BOOK_ID": "cli-book",
    }


@pytest.fixture
def run_cli(tmp_path: Path, cli_env: dict[str, str]):
    def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "agent.cli", *args],
            cwd=tmp_path,
            env={**cli_env, **env},
            capture_output=True,
            text=True,
            timeout=600,
        )

    return run


def test_ingest_then_search_from_the_command_line(run_cli, sample_docs):
    ingest = run_cli("ingest")
    assert ingest.returncode == 0, ingest.stderr
    summary = json.loads(ingest.stdout)
    assert set(summary) >= {
        "total_documents", "total_chunks", "embedded", "skipped_unchanged", "deleted", "status"
    }  # fmt: skip
    assert summary["status"] == "completed" and summary["total_chunks"] > 0

    search = run_cli("search", "What is a ROS 2 topic?", "--k", "3", "--module", "ros2", "--json")
    assert search.returncode == 0, search.stderr
    hits = json.loads(search.stdout)
    assert len(hits) == 3
    assert all(hit["module"] == "ros2" and hit["url"].startswith("http") for hit in hits)


def test_books_lists_every_ingested_book_with_its_size_and_the_default(
    run_cli, sample_docs, tmp_path
):
    other = tmp_path / "other-docs"
    other.mkdir()
    (other / "only.md").write_text("# Only page\n\nA short page of a second book.\n")
    assert run_cli("ingest").returncode == 0
    assert run_cli("ingest", "--docs", str(other), "--book-id", "second-book").returncode == 0
    listed = run_cli("books")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].startswith("cli-book: ") and lines[0].endswith("chunks  (default)")
    assert int(lines[0].split()[1]) > 10
    assert lines[1] == "second-book: 1 chunk"


def test_ask_about_another_book_cites_and_names_it_as_it_was_ingested(run_cli, tmp_path):
    kettle = tmp_path / "kettle-docs"
    kettle.mkdir()
    (kettle / "descaling.md").write_text(
        "# Descaling\n\n## Vinegar rinse\n\nFill the kettle halfway with white vinegar and water "
        "in equal parts, boil it once, and let it stand for twenty minutes before you rinse it.\n\n"
        "## How often\n\nDescale every four weeks where the tap water is hard.\n"
    )
    site = {"SITE_URL": "https://kettles.example", "DOCS_NAME": "the Kettle Manual"}
    assert run_cli("ingest", "--docs", str(kettle), "--book-id", "kettle", **site).returncode == 0
    answered = run_cli(
        "ask",
        "How long should the vinegar stand in the kettle before rinsing?",
        "--book-id",
        "kettle",
    )
    assert answered.returncode == 0, answered.stderr
    assert "twenty minutes" in answered.stdout
    assert "https://kettles.example/docs/descaling#vinegar-rinse" in answered.stdout
    refused = run_cli("ask", "How do I bake sourdough bread?", "--book-id", "kettle")
    assert "This isn't covered in the Kettle Manual" in refused.stdout


def test_missing_docs_folder_is_one_clear_line_not_a_traceback(run_cli, tmp_path):
    result = run_cli("ingest", "--docs", str(tmp_path / "nowhere"))
    assert result.returncode == 2
    assert "nowhere" in result.stderr and "Traceback" not in result.stderr


def test_eval_retrieval_prints_the_report_contract(run_cli, sample_docs, tmp_path):
    questions = tmp_path / "questions.jsonl"
    questions.write_text(
        "\n".join(
            json.dumps(line)
            for line in [
                {
                    "id": "q1",
                    "question": "Which QoS settings control delivery guarantees?",
                    "kind": "factual",
                    "gold": [{"file": qos_file(sample_docs), "heading": "Quality of Service"}],
                },
                {
                    "id": "q2",
                    "question": "How do I bake bread?",
                    "kind": "out_of_scope",
                    "gold": [],
                },
            ]
        )
    )
    result = run_cli(
        "eval", "retrieval", "--docs", str(sample_docs), "--questions", str(questions), "--json"
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["n"] == 1 and report["skipped"] == 1
    for key in ("hit@1", "hit@3", "hit@5", "hit@10", "mrr@10", "lenient_hit@5"):
        assert 0.0 <= report[key] <= 1.0
    assert report["hit@5"] == 1.0
    assert report["by_kind"]["factual"] == {"n": 1, "hit@5": 1.0}
    (question,) = report["per_question"]
    assert question["id"] == "q1" and question["rank"] >= 1
    assert {"file", "heading_path", "score"} <= question["retrieved"][0].keys()


def test_bad_eval_line_is_reported_with_its_line_number(run_cli, sample_docs, tmp_path):
    questions = tmp_path / "bad.jsonl"
    questions.write_text('{"id": "a", "question": "ok?"}\n{"id": "b"}\n')
    result = run_cli("eval", "retrieval", "--docs", str(sample_docs), "--questions", str(questions))
    assert result.returncode == 2
    assert "bad.jsonl:2" in result.stderr and "question" in result.stderr


def qos_file(docs: Path) -> str:
    """The sample-book file holding the `{/* #qos */}` section."""
    for path in sorted(docs.rglob("*.md*")):
        if "{/* #qos */}" in path.read_text():
            return str(path.relative_to(docs))
    raise AssertionError("the sample book should have a Quality of Service {/* #qos */} section")


def test_serve_answers_over_http_and_a_concurrent_ingest_is_told_what_to_do(
    run_cli, cli_env, sample_docs, tmp_path
):
    assert run_cli("ingest").returncode == 0
    with bookrag_serve(tmp_path, cli_env) as base:
        ready = httpx.get(f"{base}/ready", timeout=30)
        question = {"question": "What is a ROS 2 topic?"}
        answer = httpx.post(f"{base}/query", json=question, timeout=60)
        ingest = run_cli("ingest")
    output = (tmp_path / "serve.log").read_text()
    assert ready.status_code == 200, ready.text
    assert answer.status_code == 200 and answer.json()["sources"], answer.text
    assert ingest.returncode == 2 and "in use" in ingest.stderr
    assert "POST /ingest_book" in ingest.stderr
    assert "Traceback" not in ingest.stderr and "Traceback" not in output


@pytest.mark.parametrize(("trusted", "allowed"), [(None, 5), ('["127.0.0.1"]', 10)])
def test_proxy_headers_count_only_when_the_proxy_is_trusted(
    run_cli, cli_env, sample_docs, tmp_path, trusted, allowed
):
    assert run_cli("ingest").returncode == 0
    env = cli_env | {"RATE_LIMIT_CLIENT_PER_MINUTE": "5", "INGEST_WORKFLOWS": "false"}
    if trusted:
        env["TRUSTED_PROXIES"] = trusted
    with bookrag_serve(tmp_path, env) as base:
        statuses = [
            httpx.get(
                f"{base}/sessions/not-a-uuid", headers={"x-forwarded-for": f"203.0.113.{n}"}
            ).status_code
            for n in range(10)
        ]
    assert statuses.count(422) == allowed  # each request counted against its real client
    assert statuses.count(429) == 10 - allowed
