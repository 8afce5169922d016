"""What the graph's nodes use but do not own: settings, the book's searcher, the chat model.

The process-wide default is built on first use from the settings. A caller (a test, the
service) can hand the graph other resources through `configurable["resources"]`.
"""

import asyncio
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from langchain_core.language_models import BaseChatModel
from langgraph.config import get_config

from agent.retrieval.search import HybridSearcher
from core.embeddings import make_embedding_model
from core.settings import Settings, get_settings
from core.store import open_index


@dataclass(frozen=True)
class Resources:
    """The dependencies of one graph run."""

    settings: Settings
    searcher: HybridSearcher
    chat_model: BaseChatModel | None
    """None: answer offline (extractive), grade and rewrite by rules."""


def load_chat_model(settings: Settings) -> BaseChatModel | None:
    """The chat model named by `LLM_MODEL` (any `init_chat_model` id), or None when unset."""
    if not settings.llm_model:
        return None
    from langchain.chat_models import init_chat_model

    options: dict[str, Any] = {
        "timeout": settings.llm_timeout_seconds,
        "max_retries": settings.llm_max_retries,
    }
    if settings.openai_base_url:
        options["base_url"] = settings.openai_base_url
    if settings.openai_api_key:
        options["api_key"] = settings.openai_api_key
    return init_chat_model(settings.llm_model, **options)


def build_resources(settings: Settings, chat_model: BaseChatModel | None = None) -> Resources:
    """Resources for a book described by `settings`."""
    model = make_embedding_model(settings)
    searcher = HybridSearcher(open_index(settings, model), model, settings.book_id)
    return Resources(settings, searcher, chat_model)


def as_ingested(resources: Resources) -> Resources:
    """`resources` with the site their book was ingested under (the site of its pages' URLs)
    and the name it was ingested with (`DOCS_NAME` at its ingest), where its chunks record
    them: for a book other than the configured one, whose settings describe another."""
    point = next(iter(resources.searcher.index.points(fields=["page_url", "docs_name"])), None)
    payload = point.payload if point else {}
    update = {"docs_name": str(payload["docs_name"])} if payload.get("docs_name") else {}
    site = urlsplit(str(payload.get("page_url", "")))
    if site.scheme and site.netloc:
        update |= {"site_url": f"{site.scheme}://{site.netloc}", "site_base_url": "/"}
    settings = resources.settings.model_copy(update=update)
    return Resources(settings, resources.searcher, resources.chat_model)


@lru_cache(maxsize=1)
def default_resources() -> Resources:
    """The deployment's resources, from the environment."""
    settings = get_settings()
    return build_resources(settings, load_chat_model(settings))


async def current_resources() -> Resources:
    """The resources the running graph was given, or the deployment's.

    Building the deployment's opens files (the embedded store, the model), so the first call
    does it in a worker thread, never on the event loop.
    """
    given = (get_config().get("configurable") or {}).get("resources")
    if isinstance(given, Resources):
        return given
    return await asyncio.to_thread(default_resources)
