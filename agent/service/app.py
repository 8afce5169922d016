"""The FastAPI application: routes, LangServe chat, limits, CORS and error handling.

`bookrag serve` runs `create_app()` under uvicorn. Everything a request needs is built once at
start-up (see `Lifecycle`); CPU work (embedding, local-mode Qdrant) runs in worker threads so the
event loop only ever waits on I/O.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles

from agent.resources import Resources
from agent.service.body_limit import BodySizeLimit
from agent.service.chat_route import add_chat_routes
from agent.service.errors import install_error_handlers
from agent.service.json_guard import JsonGuard
from agent.service.lifecycle import Lifecycle
from agent.service.routes import answers, conversations, health, ingest, reading
from core.settings import Settings, get_settings

DESCRIPTION = """
A grounded chat tutor for a Docusaurus book: answers come only from the book and cite the
exact section, or honestly say the book does not cover the question.

* `/chat/*`: LangServe streaming chat (answer chunks, then one chunk with the sources).
* `/query`, `/highlight_query`: the same answers over plain REST.
* `/search`, `/context/{chunk_id}`, `/document/{parent_doc_id}`: read the book's chunks.
* `/sessions`, `/feedback`: conversations (kept in Postgres) and ratings of answers.

Every error is `{"error": {"code", "message"}}`.
"""


def create_app(settings: Settings | None = None, resources: Resources | None = None) -> FastAPI:
    """The API for the book in `settings` (default: the environment's).

    `resources` replaces the deployment's searcher and chat model (tests pass fakes here).
    """
    settings = settings or get_settings()
    lifecycle = Lifecycle(settings, resources)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await lifecycle.start()
        try:
            yield
        finally:
            await lifecycle.stop()

    app = FastAPI(title="bookrag", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.lifecycle = lifecycle
    install_error_handlers(app)
    app.add_middleware(JsonGuard, skip=frozenset({"/webhook/github"}))  # inside the size cap
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_request_bytes,
        per_path={"/webhook/github": settings.webhook_max_bytes},
    )
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins or [settings.site_url],
        allow_methods=["GET", "POST", "DELETE"],
        allow_headers=["Content-Type", "Authorization"],
        expose_headers=["Retry-After"],
    )
    for module in (answers, reading, conversations, ingest, health):
        app.include_router(module.router)
    add_chat_routes(app, lifecycle)
    if (settings.site_build_dir / "index.html").is_file():  # last: the API's routes come first
        app.mount("/", StaticFiles(directory=settings.site_build_dir, html=True), name="book")
    return app
