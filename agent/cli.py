"""The `bookrag` command line: ingest, search, ask, evaluate and migrate.

The agent's modules load only for the commands that need them, so `bookrag ingest` starts fast.
"""

import argparse
import hashlib
import json
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from agent.evaluation.metrics import (
    EvalInputError,
    evaluate_retrieval,
    load_questions,
    report_json,
    summary_line,
)
from agent.inputs import InvalidTurnError
from agent.retrieval.search import SearchFilters, SearchHit
from core.database import DatabaseUnavailableError, connect, migrate
from core.embeddings import ModelFileError
from core.migrations import schema_version
from core.settings import Settings, get_settings
from core.store import StoreLockedError
from ingest.loader import DocsFolderNotFoundError
from ingest.recorded import run_ingest

if TYPE_CHECKING:
    from agent.conversations.turns import TurnResult
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
    migrate(settings)
    summary = run_ingest(settings, args.docs, full=args.full, progress=_progress_bar)
    for problem in summary.problems:
        kind = "failed" if problem["failed"] else "skipped"
        print(f"{kind}: {problem['file']}: {problem['reason']}", file=sys.stderr)
    print(json.dumps(summary.as_dict(), ensure_ascii=False))
    return 0


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


def _hit_json(hit: SearchHit) -> dict[str, Any]:
    fields = ("file_path", "heading_path", "section_type", "module", "chapter", "text")
    return {"id": hit.id, "score": hit.score, "url": hit.url} | {
        field: hit.payload.get(field) for field in fields
    }


def cmd_search(args: argparse.Namespace) -> int:
    """Print the top chunks for a query."""
    from agent.resources import build_resources

    searcher = build_resources(_settings(args)).searcher
    hits = searcher.search(args.query, k=args.k, filters=_filters(args))
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


def _evaluation_settings(docs: Path) -> Settings:
    """Settings of the evaluated folder's own book, ingested (incrementally) first."""
    settings = get_settings().model_copy(update={"book_id": evaluation_book_id(docs)})
    migrate(settings)
    run_ingest(settings, docs, progress=_progress_bar)
    return settings


def cmd_eval_retrieval(args: argparse.Namespace) -> int:
    """Ingest a docs folder into its own collection and score a question set against it."""
    questions = load_questions(args.questions)
    settings = _evaluation_settings(args.docs)
    from agent.evaluation.harness import (
        graph_retriever,  # the graph loads slowly; only eval needs it
    )
    from agent.resources import build_resources

    report = evaluate_retrieval(questions, graph_retriever(build_resources(settings)), k=args.k)
    print(report_json(report) if args.json else summary_line(report))
    return 0


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question from the book, streaming the answer, then list its sources."""
    import asyncio

    from agent.resources import as_ingested, build_resources, load_chat_model
    from agent.retrieval.sources import format_source

    settings = _settings(args)
    resources = build_resources(settings, load_chat_model(settings))
    if settings.book_id != get_settings().book_id:  # cite and name that book as it was ingested
        resources = as_ingested(resources)
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

    from agent.conversations.sessions import open_session, session_uuid
    from agent.conversations.turns import Turn, run_turn
    from core.database import open_pool

    session = session_uuid(args.session) if args.session else None
    filters = _filters(args).model_dump(exclude_none=True)
    turn = Turn(args.question, session, args.selected_text, filters)
    if session is None:
        return await run_turn(turn, resources, on_text=_print_text)
    await asyncio.to_thread(migrate, resources.settings)
    async with await open_pool(resources.settings, max_size=1) as pool:
        async with pool.connection() as conn:
            await open_session(conn, session, resources.settings.book_id)
        return await run_turn(turn, resources, pool, on_text=_print_text)


def _print_text(text: str) -> None:
    print(text, end="", flush=True)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the chat and REST API over HTTP."""
    import uvicorn

    from agent.service.app import create_app

    logging.basicConfig(  # bookrag's own lines (ingest steps, errors) as key=value logs
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per LLM call is noise
    settings = _settings(args)
    proxies = settings.trusted_proxies
    address = f"http://{args.host}:{args.port}"
    if (settings.site_build_dir / "index.html").is_file():
        print(f"Read the book and ask it questions at {address}/", flush=True)
    else:
        print(
            f"Serving the API at {address}/docs (no built site in {settings.site_build_dir}: "
            "with Node.js >= 20, `make run` builds it and serves the book here)",
            flush=True,
        )
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        proxy_headers=bool(proxies),  # off unless the operator names the proxies to believe
        forwarded_allow_ips=",".join(proxies) or None,
    )
    return 0


def cmd_eval_answers(args: argparse.Namespace) -> int:
    """Ingest a docs folder into its own collection and score the graph's answers."""
    from agent.evaluation.harness import evaluate_answers
    from agent.resources import build_resources, load_chat_model

    questions = load_questions(args.questions)
    settings = _evaluation_settings(args.docs)
    report = evaluate_answers(questions, build_resources(settings, load_chat_model(settings)))
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        keys = ["n", "fact_recall", "citation_hit", "refusal_correct", "false_refusal"]
        print("  ".join(f"{key}={report[key]}" for key in [*keys, "highlight_only"]))
    return 0


def cmd_books(args: argparse.Namespace) -> int:
    """List the books ingested here for this embedding model, with their chunk counts; the
    configured one (what a request without `book_id` gets) is marked."""
    from core.embeddings import make_embedding_model
    from core.store import open_index, served_books

    settings = get_settings()
    model = make_embedding_model(settings)
    for book in served_books(settings, model):
        try:
            index = open_index(settings, model, book)
            count = index.count()
            chunks = f"{count} chunk{'' if count == 1 else 's'}" if count else "not ingested"
        except StoreLockedError:
            chunks = "in use by another process"
        marker = "  (default)" if book == settings.book_id else ""
        print(f"{book}: {chunks}{marker}")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """Apply pending database migrations and say where the database stands."""
    settings = get_settings()
    for name in migrate(settings):
        print(f"applied {name}")
    with connect(settings) as conn:
        print(f"database at migration {schema_version(conn)}")
    return 0


def cmd_check_citations(args: argparse.Namespace) -> int:
    """Check every citation URL against a built Docusaurus site."""
    from ingest.site_check import run

    return run(args, _settings(args))


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

    check = commands.add_parser(
        "check-citations", help="check citation URLs against a built Docusaurus site"
    )
    check.add_argument("build", type=Path, help="output folder of `docusaurus build`")
    check.add_argument("--docs", type=Path, help="docs folder (default: BOOK_DOCS_DIR)")
    check.add_argument(
        "--index", action="store_true", help="check the citations stored in the index instead"
    )
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--all", action="store_true", help="list resolving citations too")
    check.add_argument(
        "--rules-only",
        action="store_true",
        help="ignore what a previous build recorded next to the docs; use our naming rules only",
    )
    check.set_defaults(handler=cmd_check_citations)

    books = commands.add_parser("books", help="list the ingested books a server can answer from")
    books.set_defaults(handler=cmd_books)

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
