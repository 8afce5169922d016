"""The naive LangChain pipeline we compare against: 1000/200 character splits, dense top-k.

Same embedding model and the same scoring. To be scored by heading, each naive chunk is given
the heading path in force where it starts and the H2/H3 headings that start inside it, which
is generous to the baseline: a chunk that merely touches a section counts as that section.
"""

import hashlib
from pathlib import Path

import frontmatter
import numpy as np
from langchain_text_splitters import RecursiveCharacterTextSplitter
from markdown_it import MarkdownIt

from agent.retrieval.search import SearchHit
from ingest.docusaurus import split_heading_id
from ingest.embedding_cache import EmbeddingCache

CHUNK_SIZE = 1000
CHUNK_OVERLAP = 200


def _headings(text: str) -> list[tuple[int, int, str]]:
    """(character offset, level, text) of each heading outside code fences."""
    line_starts = [0]
    for line in text.splitlines(keepends=True):
        line_starts.append(line_starts[-1] + len(line))
    tokens = MarkdownIt("commonmark").parse(text)
    found = []
    for position, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            heading, _ = split_heading_id(tokens[position + 1].content)
            found.append((line_starts[token.map[0]], int(token.tag[1]), heading))
    return found


def _payload(file_path: str, text: str, start: int, end: int, headings) -> dict:
    path: dict[int, str] = {}
    for offset, level, heading in headings:
        if offset > start:
            break
        path = {lvl: h for lvl, h in path.items() if lvl < level}
        path[level] = heading
    inside = [h for offset, level, h in headings if start < offset < end and level in (2, 3)]
    return {
        "file_path": file_path,
        "heading_path": [path[level] for level in sorted(path) if level <= 3],
        "section_headings": inside,
        "text": text,
    }


class NaiveIndex:
    """Character-split chunks of every page, embedded once, searched by brute-force cosine."""

    def __init__(self, docs_dir: Path, cache: EmbeddingCache) -> None:
        splitter = RecursiveCharacterTextSplitter(
            chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP, add_start_index=True
        )
        self.payloads: list[dict] = []
        for path in sorted([*docs_dir.rglob("*.md"), *docs_dir.rglob("*.mdx")]):
            body = frontmatter.loads(path.read_text(encoding="utf-8")).content
            headings = _headings(body)
            relative = str(path.relative_to(docs_dir))
            for piece in splitter.create_documents([body]):
                start = piece.metadata["start_index"]
                end = start + len(piece.page_content)
                self.payloads.append(_payload(relative, piece.page_content, start, end, headings))
        by_hash = {_hash(p["text"]): p["text"] for p in self.payloads}
        vectors, _ = cache.embed(by_hash)
        self.matrix = np.array([vectors[_hash(p["text"])] for p in self.payloads], dtype=np.float32)
        self.model = cache.model

    def search(self, query: str, k: int = 10) -> list[SearchHit]:
        """Dense top-k by cosine similarity."""
        vector = np.asarray(self.model.embeddings.embed_query(query), dtype=np.float32)
        scores = self.matrix @ vector
        top = np.argsort(-scores)[:k]
        return [SearchHit(str(i), float(scores[i]), self.payloads[i]) for i in top]


def _hash(text: str) -> str:
    return hashlib.sha256(f"naive\n{text}".encode()).hexdigest()
