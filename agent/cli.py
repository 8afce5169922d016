"""The `bookrag` command line: ingest, search, ask, evaluate and migrate.

The agent's modules load only for the commands that need them, so `bookrag ingest` starts fast.
"""

import argparse
import hashlib
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from agent.inputs import InvalidTurnError
from ingest.database import DatabaseUnavailableError, connect
from ingest.embeddings import ModelFileError, make_embedding_model
from ingest.evaluation import (
    EvalInputError,
    evaluate_retrieval,
    load_questions,
    report_json,
    summary_line,
)
from ingest.loader import DocsFolderNotFoundError
from ingest.pipeline import IngestSummary, open_index, run_ingest
from ingest.runs import describe, end_run, recorded_step, start_cli_run
from ingest.search import HybridSearcher, SearchFilters, SearchHit
from ingest.settings import Settings, get_settings
from ingest.store import StoreLockedError

if TYPE_CHECKING:
    from agent.chat import TurnResult
    from agent.resources import Resources

USER_ERRORS = (
    InvalidTurnError,
    DocsFolderNotFoundError,
    StoreLockedError,
    DatabaseUnavailableError,
    EvalInputError,
    ModelFileError,
    ValidationError,
    ValueError,
)


def _progress_bar(total: int) -> Callable[[int], None]:
    from tqdm import tqdm

    bar = tqdm(total=total, desc="embedding chunks", unit="chunk", file=sys.stderr)

    def advance(done: int) -> None:
        bar.update(done)

    return advance


def _settings(args: argparse.Namespace) -> Settings:
    settings = get_settings()
    if getattr(args, "book_id", None):
        settings = settings.model_copy(update={"book_id": args.book_id})
    return settings


def cmd_ingest(args: argparse.Namespace) -> int:
    """Ingest a docs folder and print the run summary as JSON."""
    settings = _settings(args)
    summary = _recorded_ingest(settings, args.docs, args.full)
    for problem in summary.problems:
        kind = "failed" if problem["failed"] else "skipped"
        print(f"{kind}: {problem['file']}: {problem['reason']}", file=sys.stderr)
    print(json.dumps(summary.as_dict(), ensure_ascii=False))
    return 0


def _recorded_ingest(settings: Settings, docs: Path | None, full: bool) -> IngestSummary:
    """Run the ingest in this process, recorded as a `cli` run beside the server's runs."""
    open_index(settings, make_embedding_model(settings))  # a locked store fails before recording
    with connect(settings) as conn:
        run_id = start_cli_run(conn, settings.book_id, full)
    try:
        summary = run_ingest(
            settings,
            docs,
            full=full,
            progress=_progress_bar,
            track=lambda step: recorded_step(settings, run_id, step),
        )
    except Exception as error:
        with connect(settings) as conn:
            end_run(conn, run_id, error=describe(error))
        raise
    with connect(settings) as conn:
        end_run(conn, run_id, summary.as_dict())
    return summary


def _filters(args: argparse.Namespace) -> SearchFilters:
    return SearchFilters(
        hardware_tier=args.tier,
        module=args.module,
        chapter_min=args.chapter_min,
        chapter_max=args.chapter_max,
        lesson=args.lesson,
        proficiency_levels=args.proficiency,
        parent_doc_id=args.doc,
    )


def _searcher(settings: Settings) -> HybridSearcher:
    model = make_embedding_model(settings)
    return HybridSearcher(open_index(settings, model), model, settings.book_id)


def _hit_json(hit: SearchHit) -> dict[str, Any]:
    fields = ("file_path", "heading_path", "section_type", "module", "chapter", "text")
    return {"id": hit.id, "score": hit.score, "url": hit.url} | {
        field: hit.payload.get(field) for field in fields
    }


def cmd_search(args: argparse.Namespace) -> int:
    """Print the top chunks for a query."""
    settings = _settings(args)
    hits = _searcher(settings).search(args.query, k=args.k, filters=_filters(args))
    if args.json:
        print(json.dumps([_hit_json(hit) for hit in hits], ensure_ascii=False))
        return 0
    if not hits:
        print("no results (has the book been ingested? run `bookrag ingest`)")
    for rank, hit in enumerate(hits, start=1):
        path = " › ".join(hit.payload.get("heading_path", []))
        print(f"{rank:>2}. {hit.score:.3f}  {path}\n    {hit.url}")
    return 0


def evaluation_book_id(docs: Path) -> str:
    """A book id of its own for each evaluated docs folder, so eval never touches the book."""
    digest = hashlib.sha256(str(docs.resolve()).encode()).hexdigest()[:8]
    return f"eval-{digest}"


def cmd_eval_retrieval(args: argparse.Namespace) -> int:
    """Ingest a docs folder into its own collection and score a question set against it."""
    questions = load_questions(args.questions)
    settings = get_settings().model_copy(update={"book_id": evaluation_book_id(args.docs)})
    run_ingest(settings, args.docs, progress=_progress_bar)
    from agent.evaluation import graph_retriever  # the graph loads slowly; only eval needs it
    from agent.resources import build_resources

    report = evaluate_retrieval(questions, graph_retriever(build_resources(settings)), k=args.k)
    print(report_json(report) if args.json else summary_line(report))
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question from the book, streaming the answer, then list its sources."""
    import asyncio

    from agent.resources import build_resources, load_chat_model
    from agent.sources import format_source

    settings = _settings(args)
    resources = build_resources(settings, load_chat_model(settings))
    result = asyncio.run(_ask(args, resources))
    print()
    if result.session_expired:
        print("\n(The session had expired: this answer started a fresh conversation.)")
    if result.sources:
        print("\nSources:")
        for source in result.sources:
            print(f"  [{source['n']}] {format_source(source)}")
    return 0


async def _ask(args: argparse.Namespace, resources: "Resources") -> "TurnResult":
    import asyncio

    from agent.chat import Turn, stream_turn
    from agent.sessions import open_session, session_uuid
    from ingest.database import open_pool

    session = session_uuid(args.session) if args.session else None
    filters = _filters(args).model_dump(exclude_none=True)
    turn = Turn(args.question, session, args.selected_text, filters)
    if session is None:
        return await _print_turn(stream_turn(turn, resources))
    await asyncio.to_thread(lambda: connect(resources.settings).close())  # migrations
    async with await open_pool(resources.settings, max_size=1) as pool:
        async with pool.connection() as conn:
            await open_session(conn, session, resources.settings.book_id)
        return await _print_turn(stream_turn(turn, resources, pool))


async def _print_turn(events: "AsyncIterator[str | TurnResult]") -> "TurnResult":
    from agent.chat import TurnResult

    async for event in events:
        if isinstance(event, TurnResult):
            return event
        print(event, end="", flush=True)
    raise RuntimeError("the graph finished without a result")


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the chat and REST API over HTTP."""
    import uvicorn

    from agent.service.app import create_app

    logging.basicConfig(  # bookrag's own lines (ingest steps, errors) as key=value logs
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per LLM call is noise
    app = create_app(_settings(args))
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)
    return 0


def cmd_eval_answers(args: argparse.Namespace) -> int:
    """Ingest a docs folder into its own collection and score the graph's answers."""
    from agent.evaluation import evaluate_answers
    from agent.resources import build_resources, load_chat_model

    questions = load_questions(args.questions)
    settings = get_settings().model_copy(update={"book_id": evaluation_book_id(args.docs)})
    run_ingest(settings, args.docs, progress=_progress_bar)
    report = evaluate_answers(questions, build_resources(settings, load_chat_model(settings)))
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        keys = ["n", "fact_recall", "citation_hit", "refusal_correct", "false_refusal"]
        print("  ".join(f"{key}={report[key]}" for key in [*keys, "highlight_only"]))
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """Apply pending database migrations."""
    with connect(get_settings()) as conn:
        version = conn.execute("SELECT max(version) FROM schema_migrations").fetchone()
    print(f"database at migration {version[0] if version else 0}")
    return 0


def _add_filter_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tier", type=int, help="hardware tier: show content for this tier or lower"
    )
    parser.add_argument("--module", help="module key, e.g. ros2")
    parser.add_argument("--chapter-min", type=int)
    parser.add_argument("--chapter-max", type=int)
    parser.add_argument("--lesson", type=int)
    parser.add_argument("--proficiency", nargs="+", metavar="LEVEL", help="any of A1..C2")
    parser.add_argument("--doc", help="only chunks of this parent document id")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(prog="bookrag", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    ingest = commands.add_parser("ingest", help="ingest a Docusaurus docs folder")
    ingest.add_argument("--docs", type=Path, help="docs folder (default: BOOK_DOCS_DIR)")
    ingest.add_argument("--book-id", help="book id (default: BOOK_ID)")
    ingest.add_argument("--full", action="store_true", help="rebuild the collection")
    ingest.set_defaults(handler=cmd_ingest)

    search = commands.add_parser("search", help="hybrid search of the ingested book")
    search.add_argument("query")
    search.add_argument("--k", type=int, default=5)
    search.add_argument("--book-id")
    search.add_argument("--json", action="store_true")
    _add_filter_options(search)
    search.set_defaults(handler=cmd_search)

    evaluate = commands.add_parser("eval", help="evaluate against a question set")
    kinds = evaluate.add_subparsers(dest="kind", required=True)
    retrieval = kinds.add_parser("retrieval", help="retrieval hit@k and MRR")
    retrieval.add_argument("--docs", type=Path, required=True)
    retrieval.add_argument("--questions", type=Path, required=True)
    retrieval.add_argument("--k", type=int, default=10)
    retrieval.add_argument("--json", action="store_true")
    retrieval.set_defaults(handler=cmd_eval_retrieval)

    answers = kinds.add_parser("answers", help="answer quality: facts, citations, refusals")
    answers.add_argument("--docs", type=Path, required=True)
    answers.add_argument("--questions", type=Path, required=True)
    answers.add_argument("--json", action="store_true")
    answers.set_defaults(handler=cmd_eval_answers)

    ask = commands.add_parser("ask", help="ask the book a question")
    ask.add_argument("question")
    ask.add_argument("--session", help="conversation name or UUID; keeps history in Postgres")
    ask.add_argument("--selected-text", help="answer only from this text")
    ask.add_argument("--book-id")
    _add_filter_options(ask)
    ask.set_defaults(handler=cmd_ask)

    serve = commands.add_parser("serve", help="serve the chat and REST API")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--book-id")
    serve.set_defaults(handler=cmd_serve)

    migrate = commands.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(handler=cmd_migrate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; user errors print one line and exit with status 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.handler(args))
    except USER_ERRORS as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
