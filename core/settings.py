"""Deployment settings: every environment variable bookrag reads, in one place."""

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Settings read from the environment (or a `.env` file); unset means the embedded default."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    book_docs_dir: Path = Field(Path("book/docs"), description="Docusaurus docs folder to ingest.")
    book_id: str = Field("physical-ai-handbook", description="Tenant id stored on every chunk.")
    site_url: str = Field("http://localhost:3000", description="Origin of the published book.")
    docs_name: str = Field(
        "the book",
        min_length=1,
        description="How answers and refusals name the documentation, as its site does "
        "(e.g. 'the Redux docs').",
    )
    site_base_url: str = Field("/", description="Docusaurus `baseUrl` of the site.")
    docs_route_base: str = Field("docs", description="Docusaurus docs `routeBasePath`.")
    link_hosts: list[str] = Field(
        default_factory=list,
        description="Hosts besides the book's site that links in answers may point to "
        "(e.g. docs.ros.org); images only ever load from the book's site.",
    )

    site_build_dir: Path = Field(
        Path("book/build"),
        description="A built Docusaurus site (`docusaurus build` output) that `bookrag serve` "
        "serves at `/` when the folder exists, so the book and its chat share one address.",
    )
    data_dir: Path = Field(Path(".data"), description="Where embedded Qdrant and Postgres live.")
    qdrant_url: str | None = Field(None, description="Qdrant server URL; unset = local mode.")
    qdrant_api_key: str | None = Field(None, description="API key for Qdrant Cloud.")
    database_url: str | None = Field(None, description="Postgres URL; unset = embedded server.")

    embeddings: str = Field(
        "minilm",
        description="`minilm` (offline, bundled) or `openai:<model>`, e.g. text-embedding-3-small.",
    )
    embeddings_dimension: int | None = Field(
        None, ge=1, description="Vector size of an OpenAI-compatible model we do not know."
    )
    openai_api_key: str | None = Field(None, description="Key for OpenAI or a compatible API.")
    openai_base_url: str | None = Field(None, description="Base URL of an OpenAI-compatible API.")

    llm_model: str | None = Field(
        None,
        description="Chat model for `init_chat_model`, e.g. `openai:gpt-4o-mini`; unset = none.",
    )
    llm_timeout_seconds: float = Field(30.0, gt=0, description="Timeout of one LLM call.")
    llm_max_retries: int = Field(2, ge=0, description="Retries of a failed LLM call.")

    cross_encoder_candidates: int = Field(
        3,
        ge=0,
        le=30,
        description="How many of the reranker's first candidates the cross-encoder reads and "
        "reorders (about 25 ms of CPU each); 0 = none, for more answers a second per core.",
    )

    chunk_max_tokens: int = Field(800, ge=100, description="Hard cap on a chunk's tokens.")
    chunk_split_tokens: int = Field(700, ge=50, description="Sections above this are split.")
    chunk_short_tokens: int = Field(200, ge=0, description="Sections below this are enriched.")
    chunk_overlap_tokens: int = Field(100, ge=0, description="Overlap between split parts.")
    max_file_bytes: int = Field(5_000_000, ge=1, description="Larger source files are rejected.")

    session_expiry_hours: float = Field(
        24.0, gt=0, description="Inactivity after which a session's context window restarts."
    )
    cors_origins: list[str] = Field(
        default_factory=list,
        description="Browser origins allowed to call the API; empty = the book's `SITE_URL`.",
    )
    trusted_proxies: list[str] = Field(
        default_factory=list,
        description="Addresses of reverse proxies whose X-Forwarded-For/-Proto headers are "
        'believed (e.g. ["127.0.0.1"] behind a local nginx); empty = none, so a client can '
        "never choose the address its rate limit counts against.",
    )
    max_request_bytes: int = Field(262_144, ge=1024, description="Larger request bodies: 413.")
    rate_limit_client_per_minute: int = Field(
        120, ge=0, description="Requests per client address per minute; 0 = unlimited."
    )
    rate_limit_session_per_minute: int = Field(
        30, ge=0, description="Chat turns per session per minute; 0 = unlimited."
    )
    ingest_workflows: bool = Field(
        True, description="Run webhook and manual ingests as durable workflows in the server."
    )
    workflow_schema: str = Field(
        "dbos", pattern=r"^[a-z_][a-z0-9_]*$", description="Postgres schema of the workflows."
    )
    github_webhook_secret: str | None = Field(
        None, description="Secret of the GitHub webhook (checks X-Hub-Signature-256)."
    )
    rag_secret: str | None = Field(
        None, description="Bearer token the GitHub Action sends to /webhook/github."
    )
    admin_token: str | None = Field(None, description="Bearer token for POST /ingest_book.")
    docs_glob: str = Field(
        "book/docs/**", description="Repository paths whose changes trigger an ingest."
    )
    webhook_failures_per_minute: int = Field(
        20, ge=0, description="Failed webhook authentications per address per minute, then 429."
    )
    webhook_max_bytes: int = Field(
        25 * 1024 * 1024, ge=1024, description="Larger webhook bodies: 413."
    )
    db_pool_max_size: int = Field(10, ge=1, description="Most Postgres connections the API holds.")
    db_pool_timeout_seconds: float = Field(
        5.0, gt=0, description="Longest wait for a Postgres connection before answering 503."
    )

    @property
    def qdrant_path(self) -> Path:
        """Folder of the embedded (local-mode) Qdrant store."""
        return self.data_dir / "qdrant"

    @property
    def postgres_dir(self) -> Path:
        """Folder of the embedded PostgreSQL server."""
        return self.data_dir / "pg"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()
