"""The package boundaries: what importing one part of bookrag drags in."""

import subprocess
import sys

import pytest


def modules_loaded_by(module: str) -> set[str]:
    """The bookrag modules a fresh interpreter has loaded after importing `module`."""
    packages = "{'agent', 'core', 'ingest'}"
    code = (
        f"import sys, {module}; "
        f"print('\\n'.join(m for m in sys.modules if m.split('.')[0] in {packages}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_importing_the_graph_loads_no_ingest_machinery_or_migration_runner():
    loaded = modules_loaded_by("agent.graph")
    assert "agent.graph" in loaded
    assert not {"ingest.chunker", "ingest.loader", "ingest.mdx", "core.migrations"} & loaded
    assert not any(name.startswith("ingest") for name in loaded)


@pytest.mark.parametrize("module", ["ingest.pipeline", "ingest.workflow", "ingest.recorded"])
def test_ingest_never_imports_the_agent(module):
    loaded = modules_loaded_by(module)
    assert module in loaded
    assert not any(name.startswith("agent") for name in loaded)
