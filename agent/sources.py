"""Chunks as the graph carries them: search hits, numbered sources, whole sections."""

from typing import Any

from agent.state import Source
from ingest.search import SearchHit
from ingest.store import BookIndex


def candidate_from(hit: SearchHit, **extra: Any) -> dict[str, Any]:
    """A search hit as the state carries it (plain data, so checkpoints can store it)."""
    return {
        "id": hit.id,
        "score": hit.score,
        "dense_score": hit.dense_score,
        "payload": hit.payload,
        **extra,
    }


def hit_from(candidate: dict[str, Any]) -> SearchHit:
    """A candidate dict of the state back as a search hit."""
    return SearchHit(
        candidate["id"], candidate["score"], candidate["payload"], candidate["dense_score"]
    )


def source_url(payload: dict[str, Any]) -> str:
    """The page URL with the section's anchor."""
    anchor = payload.get("anchor")
    return f"{payload['page_url']}#{anchor}" if anchor else payload["page_url"]


def number_sources(documents: list[dict[str, Any]]) -> list[Source]:
    """Sources numbered 1..n in the order given."""
    return [
        Source(
            n=n,
            title=d["payload"].get("title", ""),
            heading=d["payload"].get("heading", ""),
            url=source_url(d["payload"]),
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


def expand_fragments(documents: list[dict[str, Any]], index: BookIndex) -> list[dict[str, Any]]:
    """Give a chunk that is one part of a split section its neighbouring parts' text too."""
    wanted: set[str] = set()
    for document in documents:
        payload = document["payload"]
        for key in ("prev_chunk_id", "next_chunk_id"):
            if payload.get(key):
                wanted.add(payload[key])
    neighbours = {str(r.id): r.payload or {} for r in index.retrieve(sorted(wanted))}
    expanded = []
    for document in documents:
        payload = dict(document["payload"])
        path = payload.get("heading_path")
        before = neighbours.get(payload.get("prev_chunk_id") or "", {})
        after = neighbours.get(payload.get("next_chunk_id") or "", {})
        parts = [
            part.get("text", "")
            for part in (before, payload, after)
            if part is payload or part.get("heading_path") == path
        ]
        payload["text"] = "\n\n".join(parts)
        expanded.append({**document, "payload": payload})
    return expanded
