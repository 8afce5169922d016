"""Test doubles for what cannot run here (an LLM), and spies that wrap real parts."""

from langchain_core.embeddings import Embeddings

from ingest.search import HybridSearcher, SearchHit


class CountingEmbeddings(Embeddings):
    """The real embedding model, counting how often it is asked."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        self.calls += 1
        return self.inner.embed_query(text)


class CountingSearcher(HybridSearcher):
    """The real hybrid searcher, counting its searches."""

    searches = 0

    def search(self, *args, **kwargs) -> list[SearchHit]:  # type: ignore[no-untyped-def]
        self.searches += 1
        return super().search(*args, **kwargs)
