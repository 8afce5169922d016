"""One door to the index: only `core.store` talks to an engine's client objects."""

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("agent", "core", "ingest", "bench")
ENGINE_MODULES = ("qdrant_client", "qdrant_edge", "langchain_qdrant")
ALLOWED = {
    # the BM25 encoder (qdrant_edge.Bm25) and LangChain's sparse-embeddings interface, no index
    "core/embeddings.py": {"qdrant_edge", "langchain_qdrant"},
    # qdrant-client's exception types, mapped to 503; no client object is touched
    "agent/service/errors.py": {"qdrant_client"},
}


def engine_imports(path: Path) -> set[str]:
    """The engine packages a module imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        found |= {name.split(".")[0] for name in names if name.split(".")[0] in ENGINE_MODULES}
    return found


def test_only_the_store_imports_a_vector_engine():
    offenders = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            relative = path.relative_to(REPO).as_posix()
            if relative.startswith("core/store/"):
                continue
            extra = engine_imports(path) - ALLOWED.get(relative, set())
            if extra:
                offenders[relative] = extra
    assert offenders == {}


def test_nothing_outside_the_store_reaches_for_an_index_client():
    offenders = [
        path.relative_to(REPO).as_posix()
        for package in PACKAGES
        for path in (REPO / package).rglob("*.py")
        if not path.relative_to(REPO).as_posix().startswith("core/store/")
        and "index.client" in path.read_text()
    ]
    assert offenders == []
