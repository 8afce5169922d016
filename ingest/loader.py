"""Read a Docusaurus docs folder into `Document`s, reporting (never raising on) bad files.

Pages are `**/*.md` and `**/*.mdx`; files and folders starting with `_` are partials, and
dot-folders and `node_modules` are ignored. `draft: true` pages are skipped (Docusaurus leaves
them out of production builds); `unlisted: true` pages are kept and flagged.

Fields a book's frontmatter may not declare are derived so that filters still work:
- `module`: frontmatter `module`, else the page's first folder without its number prefix
  (`02-simulation/…` → `simulation`); None for top-level pages.
- `chapter`: frontmatter `chapter`, else the first number in the first folder's name
  (`module-2/…` or `02-simulation/…` → 2); None when there is none.
- `lesson`, `week`: frontmatter integers, else None.
- `hardware_tier`: frontmatter integer, else 1, so that "tier ≤ N" shows the page to everyone.
- `proficiency_level`, `description`: frontmatter, else None.
- `keywords`: frontmatter `keywords` plus `tags` (strings, or the `label` of tag objects).
- `category_labels`: the `_category_.json` labels of the page's folders, outermost first.

Reference-style links (`[text][id]`) into the book are written inline, and to other sites as
their text (`ingest.links`): the chunker's parser drops their definitions, which would leave
them in an answer with nowhere to go.

Routes and heading ids follow Docusaurus's rules (`ingest.docusaurus`). Where the book's site
has been built, what Docusaurus recorded wins: the doc's `slug` and `id` from
`<site>/.docusaurus/` (when its `id`/`slug`/`parse_number_prefixes` frontmatter is unchanged),
and the heading ids of the built page in `<site>/build/` (when it is newer than the source and
a heading's level and text still match). The site is the docs folder's parent.
"""

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import frontmatter
import yaml

from core.settings import Settings
from ingest import docusaurus
from ingest.built_site import BuiltSite, RecordedDoc
from ingest.documents import Document, FileProblem, LoadResult
from ingest.links import inline_references
from ingest.mdx import PartialResolver, clean_mdx, strip_tags, summary_titles
from ingest.sections import adopt_heading_ids, first_h1

PAGE_SUFFIXES = (".md", ".mdx")
FIRST_NUMBER = re.compile(r"\d+")


class DocsFolderNotFoundError(FileNotFoundError):
    """The docs folder to ingest does not exist."""


def _is_page(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts
    hidden = any(p.startswith((".", "_")) or p == "node_modules" for p in parts)
    return path.suffix in PAGE_SUFFIXES and path.is_file() and not hidden


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _keywords(meta: dict[str, Any]) -> list[str]:
    found: list[str] = []
    for key in ("keywords", "tags"):
        values = meta.get(key) or []
        for value in values if isinstance(values, list) else [values]:
            label = value.get("label") if isinstance(value, dict) else value
            if label is not None and str(label) not in found:
                found.append(str(label))
    return found


def _category_labels(root: Path, relative: Path) -> list[str]:
    labels = []
    folder = root
    for part in relative.parts[:-1]:
        folder = folder / part
        category = folder / "_category_.json"
        try:
            label = json.loads(category.read_text(encoding="utf-8")).get("label")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(label, str):
            labels.append(label)
    return labels


def derived_metadata(file_path: str, meta: dict[str, Any]) -> dict[str, Any]:
    """The chunk contract's page fields, from frontmatter or the page's folders."""
    folders = file_path.split("/")[:-1]
    first = folders[0] if folders else None
    number = FIRST_NUMBER.search(first) if first else None
    tier = _as_int(meta.get("hardware_tier"))
    return {
        "module": str(meta["module"])
        if meta.get("module") is not None
        else (docusaurus.strip_number_prefix(first) if first else None),
        "chapter": _as_int(meta.get("chapter"))
        if meta.get("chapter") is not None
        else (int(number.group()) if number else None),
        "lesson": _as_int(meta.get("lesson")),
        "week": _as_int(meta.get("week")),
        "hardware_tier": tier if tier is not None else 1,
        "proficiency_level": str(meta["proficiency_level"])
        if meta.get("proficiency_level")
        else None,
        "description": str(meta["description"]) if meta.get("description") else None,
        "keywords": _keywords(meta),
    }


def _decode(path: Path, settings: Settings) -> str:
    """The file's text; raises ValueError with a reason for files we cannot use."""
    size = path.stat().st_size
    if size > settings.max_file_bytes:
        raise ValueError(f"file is {size:,} bytes, over the {settings.max_file_bytes:,}-byte limit")
    raw = path.read_bytes()
    if b"\x00" in raw:
        raise ValueError("binary file (contains NUL bytes), not Markdown")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"not UTF-8 text (byte {error.start}: {raw[error.start]:#04x})") from None


def _parse_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    try:
        post = frontmatter.loads(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f" at line {mark.line + 2}" if mark else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        raise ValueError(f"invalid YAML frontmatter{where}: {problem}") from None
    if not isinstance(post.metadata, dict):
        raise ValueError("frontmatter is not a YAML mapping")
    return dict(post.metadata), post.content


def _partial_reader(root: Path, page: Path, settings: Settings, seen: set[Path]) -> PartialResolver:
    def read(import_path: str) -> str | None:
        target = (page.parent / import_path).resolve()
        if not target.is_relative_to(root.resolve()) or target in seen or not target.is_file():
            return None
        try:
            _, body = _parse_frontmatter(_decode(target, settings))
        except ValueError:
            return None
        return clean_mdx(body, _partial_reader(root, target, settings, seen | {target}))

    return read


ROUTE_KEYS = ("id", "slug", "parse_number_prefixes")
"""Frontmatter keys that decide a page's id and route: a record made with others is stale."""


def _recorded(site: BuiltSite | None, relative: str, meta: dict[str, Any]) -> RecordedDoc | None:
    """What Docusaurus recorded for this page, if it recorded it from the same route keys."""
    recorded = site.docs.get(relative) if site is not None else None
    if recorded is None:
        return None
    for key in ROUTE_KEYS:
        if str(recorded.frontmatter.get(key)) != str(meta.get(key)):
            return None
    return recorded


def load_document(
    root: Path, path: Path, settings: Settings, site: BuiltSite | None = None
) -> Document | FileProblem:
    """One page, or the problem that keeps it out; `site` supplies recorded routes and ids."""
    relative = path.relative_to(root).as_posix()
    try:
        text = _decode(path, settings)
        if not text.strip():
            return FileProblem(relative, "empty file", failed=False)
        meta, content = _parse_frontmatter(text)
        if meta.get("draft") is True:
            return FileProblem(relative, "draft page (draft: true)", failed=False)
        body = clean_mdx(content, _partial_reader(root, path, settings, {path.resolve()}))
        body = inline_references(body)  # the parser drops `[id]: url`, stranding `[text][id]`
        recorded = _recorded(site, relative, meta)
        slug = recorded.slug if recorded else docusaurus.page_slug(relative, meta)
        rendered = site.rendered_page(recorded) if site and recorded else None
        if rendered is not None:
            found = [(h.level, h.text, h.id) for h in rendered.headings]
            body = adopt_heading_ids(body, found)
        title = meta.get("title") or first_h1(body) or _humanise(path.stem)
        metadata = {**meta, **derived_metadata(relative, meta)}
        metadata["category_labels"] = _category_labels(root, Path(relative))
        metadata["unlisted"] = meta.get("unlisted") is True
        return Document(
            file_path=relative,
            doc_id=recorded.id if recorded else docusaurus.doc_id(relative, meta),
            title=strip_tags(str(title)),  # a title is text: no markup reaches a reader
            page_url=docusaurus.page_url(
                slug, settings.site_url, settings.site_base_url, settings.docs_route_base
            ),
            body=body,
            metadata=metadata,
            content_hash=hashlib.sha256(text.encode()).hexdigest(),
            collapsible_titles=tuple(summary_titles(content)),
        )
    except ValueError as error:
        return FileProblem(relative, str(error))
    except Exception as error:  # one odd file must never stop a whole book
        return FileProblem(relative, f"could not read: {type(error).__name__}: {error}")


def _humanise(stem: str) -> str:
    words = docusaurus.strip_number_prefix(stem).replace("-", " ").replace("_", " ")
    return words.strip().capitalize() or stem


def load_documents(
    docs_dir: Path,
    settings: Settings,
    site: BuiltSite | None = None,
    use_built_site: bool = True,
) -> LoadResult:
    """Every page under `docs_dir`, in path order, and every file that was left out.

    `site` defaults to the built Docusaurus site around `docs_dir`, if there is one;
    `use_built_site=False` ignores any, leaving routes and ids to our rules alone.
    """
    root = Path(docs_dir)
    if not root.is_dir():
        raise DocsFolderNotFoundError(
            f"docs folder {root} does not exist; set BOOK_DOCS_DIR or pass --docs"
        )
    if not use_built_site:
        site = None
    elif site is None:
        site = BuiltSite.discover(root)
    result = LoadResult()
    for path in sorted(p for p in root.rglob("*") if _is_page(p, root)):
        loaded = load_document(root, path, settings, site)
        if isinstance(loaded, Document):
            result.documents.append(loaded)
        else:
            result.problems.append(loaded)
    return result
