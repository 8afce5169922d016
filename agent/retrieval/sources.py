"""Chunks as the graph carries them: search hits, numbered sources, whole sections."""

import posixpath

from agent.offline.text import points_only, signpost_link
from agent.retrieval.search import SearchHit
from agent.state import Candidate, Source
from core.citation import citation_url
from core.safety import escape_text
from core.store import BookIndex, IndexedPoint, Match


def page_names(payload: dict) -> list[str]:
    """What a chunk's page is called: its title, H1, sidebar label and the words of its id,
    which books do not keep equal (readers name a page by any of them, and see its id in its
    address: `typed-linting` for "Linting with Type Information"). The id's words are read
    here, not with ingest's `_humanise`, which the query side must not import."""
    slug = str(payload.get("doc_id") or "").rsplit("/", 1)[-1]
    names = [
        payload.get("title"),
        *payload.get("heading_path", [])[:1],
        payload.get("sidebar_label"),
        slug.replace("-", " ").replace("_", " "),
    ]
    return [str(name) for name in names if name]


def candidate_from(hit: SearchHit) -> Candidate:
    """A search hit as the state carries it."""
    return Candidate(
        id=hit.id,
        score=hit.score,
        dense_score=hit.dense_score,
        dense_scores=list(hit.dense_scores),
        payload=hit.payload,
    )


def hit_from(candidate: Candidate) -> SearchHit:
    """A candidate of the state back as a search hit."""
    return SearchHit(
        candidate["id"], candidate["score"], candidate["payload"], candidate["dense_score"]
    )


def number_sources(documents: list[Candidate], site_url: str | None = None) -> list[Source]:
    """Sources numbered 1..n in the order given, their URLs on `site_url` when given."""
    return [
        Source(
            n=n,
            title=escape_text(d["payload"].get("title", "")),
            heading=escape_text(d["payload"].get("heading", "")),
            url=citation_url(d["payload"], site_url),
            file_path=d["payload"].get("file_path", ""),
            chunk_id=d["id"],
            score=round(float(d.get("rerank_score", d["score"])), 4),
        )
        for n, d in enumerate(documents, start=1)
    ]


def format_source(source: Source) -> str:
    """`[Chapter Title: Section Heading](URL)`, the book's citation format."""
    label = (
        source["title"]
        if source["heading"] == source["title"]
        else (f"{source['title']}: {source['heading']}")
    )
    return f"[{label}]({source['url']})"


def expand_fragments(documents: list[Candidate], index: BookIndex) -> list[Candidate]:
    """Give a chunk that is one part of a split section its neighbouring parts' text too, and
    the earlier parts back to the first that says something itself when those only point
    elsewhere (`points_only`: the tail of an FAQ entry's "Further information", whose links'
    titles match a question that the entry's answer, two parts back, answers)."""
    wanted: set[str] = set()
    for document in documents:
        payload = document["payload"]
        for key in ("prev_chunk_id", "next_chunk_id"):
            if payload.get(key):
                wanted.add(payload[key])
    neighbours = {str(r.id): r.payload or {} for r in index.retrieve(sorted(wanted))}
    expanded: list[Candidate] = []
    for document in documents:
        payload = dict(document["payload"])
        path = payload.get("heading_path")
        before = neighbours.get(payload.get("prev_chunk_id") or "", {})
        after = neighbours.get(payload.get("next_chunk_id") or "", {})
        parts = [
            part
            for part in (before, payload, after)
            if part is payload or part.get("heading_path") == path
        ]
        text = _joined([part.get("text", "") for part in parts])
        while points_only(text) and (earlier := _same_section_before(parts[0], index)):
            parts.insert(0, earlier)
            text = _joined([part.get("text", "") for part in parts])
        payload["text"] = text
        expanded.append({**document, "payload": payload})
    return expanded


def follow_signposts(documents: list[Candidate], index: BookIndex) -> list[Candidate]:
    """Each chunk that only sends the reader to another section of the book (`signpost_link`:
    Jest's "`jest.Mocked<Source>`", "See TypeScript Usage chapter of Mock Functions page for
    documentation.") replaced by the section it sends them to, which is what an answer can
    quote and cite: the first chunk under the linked heading, or the page's first when the link
    names no heading. A link the index cannot resolve, or to a section already among
    `documents`, leaves the chunk as it is."""
    followed: list[Candidate] = []
    seen = {document["id"] for document in documents}
    for document in documents:
        target = _signposted(document["payload"], index)
        if target is None or target.id in seen:
            followed.append(document)
            continue
        seen.add(target.id)
        followed.append({**document, "id": target.id, "payload": target.payload})
    return followed


def _signposted(payload: dict, index: BookIndex) -> IndexedPoint | None:
    """The first chunk of the section a signpost chunk links to, if the book has it."""
    link = signpost_link(payload.get("text", ""))
    if link is None or not payload.get("book_id"):
        return None
    path, anchor = link
    here = posixpath.dirname(payload.get("file_path", ""))
    page = posixpath.normpath(posixpath.join(here, path))
    conditions = [Match("book_id", payload["book_id"]), Match("file_path", page)]
    if anchor:
        conditions.append(Match("anchor", anchor))
    chunks = sorted(index.points(conditions), key=lambda p: p.payload.get("chunk_index", 0))
    return chunks[0] if chunks else None


def _same_section_before(part: dict, index: BookIndex) -> dict | None:
    """The part of the same section before `part`, if the section was split before it."""
    earlier = part.get("prev_chunk_id")
    found = index.retrieve([earlier]) if earlier else []
    payload = (found[0].payload or {}) if found else {}
    return payload if payload and payload.get("heading_path") == part.get("heading_path") else None


MIN_OVERLAP_CHARS = 20
"""A shorter match between one part's end and the next part's start is chance, not overlap."""


def _joined(parts: list[str]) -> str:
    """Consecutive parts of a section as one text, each seam's overlap said once: a part opens
    with the previous part's last sentences (ingest repeats them), and an answer read from the
    joined text would otherwise hold them twice, one copy cut off from what follows it."""
    text = parts[0]
    for part in parts[1:]:
        text = f"{text}\n\n{part[_overlap(text, part) :].lstrip()}"
    return text


def _overlap(before: str, after: str) -> int:
    """How many leading characters of `after` repeat the end of `before` (cut at whitespace)."""
    end = before.rstrip()
    cuts = [i for i, char in enumerate(after) if char.isspace()] + [len(after)]
    for cut in reversed(cuts):
        repeated = after[:cut].strip()
        if len(repeated) < MIN_OVERLAP_CHARS:
            return 0
        if end.endswith(repeated):
            return cut
    return 0
