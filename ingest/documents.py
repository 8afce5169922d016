"""The values that flow between the ingest steps: pages, chunks and file problems."""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Document:
    """One Docusaurus page, cleaned and ready to chunk."""

    file_path: str
    """Path relative to the docs root, with `/` separators (e.g. `ros2/01-nodes.md`)."""
    doc_id: str
    """Docusaurus document id: stable per file, used as the chunks' parent document id."""
    title: str
    """Frontmatter `title`, else the first H1, else a name made from the file name."""
    page_url: str
    """Absolute URL of the page on the published site (no anchor)."""
    body: str
    """Markdown without frontmatter; MDX imports/exports and JSX tags removed, their text kept;
    admonitions turned into plain paragraphs that start with their label."""
    metadata: dict[str, Any]
    """Every frontmatter key, plus the derived chunk-contract fields (module, chapter, ...)."""
    content_hash: str
    """sha256 of the file's bytes."""
    collapsible_titles: tuple[str, ...] = ()
    """The titles of the page's collapsible blocks (`<details><summary>`), which the body shows
    as bold labels: a heading in all but markup for what each block holds."""


@dataclass(frozen=True)
class FileProblem:
    """A file that was not ingested, and why, in words a book author can act on."""

    file_path: str
    reason: str
    failed: bool = True
    """True for a broken file; False for a file skipped on purpose (e.g. a draft)."""


@dataclass
class LoadResult:
    """What the loader found under a docs root."""

    documents: list[Document] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
