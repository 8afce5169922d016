"""Markdown-aware chunking: H2 sections as the unit, adaptive to their length.

- A section of at most `chunk_split_tokens` is one chunk, its H3 subsections included.
- A longer section becomes its lead text plus one chunk per H3 subsection; any of those still
  over the limit is packed into balanced parts at block boundaries, each part after the first
  starting with about `chunk_overlap_tokens` of the previous part's tail.
- A code block or table is never split: one larger than `chunk_max_tokens` becomes a chunk of
  its own, flagged `oversized`. A paragraph that large is cut at sentence ends.
- Sections under `chunk_short_tokens` are embedded with their lesson context (module, chapter,
  description), because a lone "Key Takeaways" list says little about what it belongs to.
- Every chunk is embedded with a contextual header: `Title › H2 › H3`.
"""

import hashlib
import json
import math
import re
import uuid
from collections import Counter
from dataclasses import dataclass
from typing import Any

from core.settings import Settings
from core.structure import is_review_page, is_structural
from ingest.documents import Document
from ingest.mdx import summary_label
from ingest.sections import Block, Section, parse_sections
from ingest.tokens import count_tokens

CHUNK_NAMESPACE = uuid.UUID("6f1c7a52-3a57-4f43-9d0a-0f8f4b1a9e21")
CHUNKER_VERSION = 19
"""Bump when chunking changes, so every page is chunked again on the next ingest."""
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
LIST_ITEM_START = re.compile(r"\n(?=(?:[-*+]|\d{1,9}[.)])[ \t])")
"""Where a list's next top-level item starts (nested items and continuation lines are
indented)."""
HEADER_SEPARATOR = " › "


@dataclass(frozen=True)
class Chunk:
    """A piece of a page as stored in the vector store."""

    id: str
    embedded_text: str
    """What the embedding model sees: contextual header (and lesson context), then the text."""
    payload: dict[str, Any]
    """The chunk contract of ARCHITECTURE.md (includes `text` and `content_hash`)."""


@dataclass(frozen=True)
class _Piece:
    """A chunk before ids and neighbours are known."""

    section: Section
    blocks: list[Block]
    section_headings: list[str]
    oversized: bool = False


def document_fingerprint(doc: Document, settings: Settings) -> str:
    """Hash of everything a page's chunks are made from: equal hashes give equal chunks."""
    recipe = [
        CHUNKER_VERSION,
        [settings.book_id, settings.docs_name],
        [settings.chunk_max_tokens, settings.chunk_split_tokens],
        [settings.chunk_short_tokens, settings.chunk_overlap_tokens],
        [doc.file_path, doc.doc_id, doc.title, doc.page_url, doc.body, doc.metadata],
        doc.collapsible_titles,
    ]
    return hashlib.sha256(json.dumps(recipe, sort_keys=True, default=str).encode()).hexdigest()


def chunk_pages(documents: list[Document], settings: Settings) -> list[Chunk]:
    """Chunk every document; chunk ids are stable across runs for unchanged text positions."""
    return [chunk for doc in documents for chunk in chunk_document(doc, settings)]


def chunk_document(doc: Document, settings: Settings) -> list[Chunk]:
    """Chunk one page."""
    pieces = [
        piece
        for section in parse_sections(doc.body, doc.title)
        for piece in _section_pieces(section, settings)
    ]
    ids = _stable_ids(settings.book_id, doc.file_path, pieces)
    chunks = []
    for index, piece in enumerate(pieces):
        text = "\n\n".join(block.text for block in piece.blocks)
        embedded = _embedded_text(doc, piece.section, text, settings)
        payload = {
            **_page_fields(doc, settings),
            "heading_path": piece.section.heading_path,
            "heading": piece.section.heading,
            "anchor": piece.section.anchor,
            "section_headings": [
                *piece.section_headings,
                *(title for title in doc.collapsible_titles if summary_label(title) in text),
            ],
            "section_type": _section_type(doc.title, piece.section.heading, piece.blocks),
            "chunk_index": index,
            "total_chunks": len(pieces),
            "prev_chunk_id": ids[index - 1] if index > 0 else None,
            "next_chunk_id": ids[index + 1] if index + 1 < len(ids) else None,
            "token_count": count_tokens(text),
            "oversized": piece.oversized,
            "content_hash": hashlib.sha256(embedded.encode()).hexdigest(),
            "text": text,
            "embedded_text": embedded,
        }
        chunks.append(Chunk(ids[index], embedded, payload))
    return chunks


def _page_fields(doc: Document, settings: Settings) -> dict[str, Any]:
    meta = doc.metadata
    return {
        "book_id": settings.book_id,
        "docs_name": settings.docs_name,
        "document_fingerprint": document_fingerprint(doc, settings),
        "doc_id": doc.doc_id,
        "file_path": doc.file_path,
        "title": doc.title,
        "sidebar_label": meta.get("sidebar_label"),
        "page_url": doc.page_url,
        "description": meta.get("description"),
        "module": meta.get("module"),
        "chapter": meta.get("chapter"),
        "lesson": meta.get("lesson"),
        "week": meta.get("week"),
        "hardware_tier": meta.get("hardware_tier"),
        "proficiency_level": meta.get("proficiency_level"),
        "keywords": meta.get("keywords") or [],
    }


def _section_pieces(section: Section, settings: Settings) -> list[_Piece]:
    """Pieces for one H2 section (or the page top), following the module rules."""
    if section.total_tokens() <= settings.chunk_split_tokens:
        blocks = _flatten(section)
        headings = [sub.heading for sub in section.subsections]
        return [_Piece(section, blocks, headings)] if blocks else []
    pieces = _pack(section, section.blocks, settings)
    for sub in section.subsections:
        pieces += _pack(sub, _flatten(sub), settings)
    return pieces


def _flatten(section: Section) -> list[Block]:
    """The section's blocks with each subsection's heading and blocks after them."""
    blocks = list(section.blocks)
    for sub in section.subsections:
        heading = f"{'#' * len(sub.heading_path)} {sub.heading}"
        blocks.append(Block(heading, "heading", count_tokens(heading)))
        blocks += _flatten(sub)
    return blocks


def _pack(section: Section, blocks: list[Block], settings: Settings) -> list[_Piece]:
    """Balanced parts of at most the split size, cut only between blocks, with overlap."""
    blocks = [part for block in blocks for part in _split_oversized_prose(block, settings)]
    total = sum(block.tokens for block in blocks)
    if not blocks or not any(block.kind != "heading" for block in blocks):
        return []
    if total <= settings.chunk_split_tokens:
        return [_Piece(section, blocks, [])]
    budget = math.ceil(total / math.ceil(total / settings.chunk_split_tokens))
    pieces: list[_Piece] = []
    current: list[Block] = []
    for block in blocks:
        if block.tokens > settings.chunk_max_tokens:
            if current:
                pieces.append(_Piece(section, current, []))
            pieces.append(_Piece(section, [block], [], oversized=True))
            current = []
            continue
        if current and sum(b.tokens for b in current) + block.tokens > budget:
            pieces.append(_Piece(section, current, []))
            current = _overlap(current, block, settings)
        current.append(block)
    if current:
        pieces.append(_Piece(section, current, []))
    return pieces


def _overlap(previous: list[Block], upcoming: Block, settings: Settings) -> list[Block]:
    """The tail of `previous` (whole prose blocks or last sentences) to repeat before `upcoming`."""
    room = min(settings.chunk_overlap_tokens, settings.chunk_max_tokens - upcoming.tokens)
    tail: list[Block] = []
    for block in reversed(previous):
        used = sum(b.tokens for b in tail)
        if block.kind in ("code", "table", "heading"):
            break
        if used + block.tokens <= room:
            tail.insert(0, block)
            continue
        last = _last_parts(block, room - used)
        if last:
            tail.insert(0, Block(last, block.kind, count_tokens(last)))
        break
    return tail


def _last_parts(block: Block, budget: int) -> str:
    """The block's last sentences (or list items) that fit in `budget` tokens."""
    parts, joiner = _parts(block)
    kept: list[str] = []
    for part in reversed(parts):
        if count_tokens(joiner.join([part, *kept])) > budget:
            break
        kept.insert(0, part)
    return joiner.join(kept)


def _parts(block: Block) -> tuple[list[str], str]:
    """A prose block's parts and how they join: a list's items (each with its continuation and
    nested lines) on lines of their own, a paragraph's sentences with spaces."""
    items = LIST_ITEM_START.split(block.text) if block.kind == "list" else []
    return (items, "\n") if len(items) > 1 else (SENTENCE_END.split(block.text), " ")


def _split_oversized_prose(block: Block, settings: Settings) -> list[Block]:
    """Cut a paragraph over the hard cap at sentence ends and a list between its items; code and
    tables stay whole."""
    if block.tokens <= settings.chunk_max_tokens or block.kind in ("code", "table"):
        return [block]
    parts, joiner = _parts(block)
    return _packed(parts, joiner, block.kind, settings)


def _packed(parts: list[str], joiner: str, kind: str, settings: Settings) -> list[Block]:
    """`parts` joined into blocks of at most the split size (a longer part stays whole)."""
    blocks: list[Block] = []
    current: list[str] = []
    for part in parts:
        if current and count_tokens(joiner.join([*current, part])) > settings.chunk_split_tokens:
            text = joiner.join(current)
            blocks.append(Block(text, kind, count_tokens(text)))
            current = []
        current.append(part)
    text = joiner.join(current)
    blocks.append(Block(text, kind, count_tokens(text)))
    return blocks


def _section_type(title: str, heading: str, blocks: list[Block]) -> str:
    """structural (objectives, takeaways, ..., any section of a quiz), code_heavy, or
    instructional."""
    if is_structural(heading) or is_review_page(title):
        return "structural"
    code = [block for block in blocks if block.kind == "code"]
    total = sum(block.tokens for block in blocks) or 1
    if len(code) >= 2 or sum(block.tokens for block in code) / total >= 0.5:
        return "code_heavy"
    return "instructional"


def _embedded_text(doc: Document, section: Section, text: str, settings: Settings) -> str:
    path = section.heading_path
    header_parts = path if path[0] == doc.title else [doc.title, *path]
    lines = [HEADER_SEPARATOR.join(header_parts)]
    if count_tokens(text) < settings.chunk_short_tokens:
        lines += _lesson_context(doc)
    return "\n".join(lines) + "\n\n" + text


def _lesson_context(doc: Document) -> list[str]:
    """Short-section enrichment: where the section sits and what the page is about."""
    meta = doc.metadata
    where = [
        f"{name.capitalize()}: {meta[name]}"
        for name in ("module", "chapter", "lesson")
        if meta.get(name) is not None
    ]
    lines = [" · ".join(where)] if where else []
    if meta.get("description"):
        lines.append(str(meta["description"]))
    return lines


def _stable_ids(book_id: str, file_path: str, pieces: list[_Piece]) -> list[str]:
    """uuid5 of (book, file, heading path, ordinal among pieces with that heading path)."""
    seen: Counter[str] = Counter()
    ids = []
    for piece in pieces:
        path = HEADER_SEPARATOR.join(piece.section.heading_path)
        key = f"{book_id}\n{file_path}\n{path}\n{seen[path]}"
        seen[path] += 1
        ids.append(str(uuid.uuid5(CHUNK_NAMESPACE, key)))
    return ids
