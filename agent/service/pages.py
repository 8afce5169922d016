"""The HTML pages the service shows people: the ingest runs page (`/ingest`).

Every value shown comes from a run record (run ids, commit ids, error messages, a summary):
each is escaped, so nothing a push or a failing step writes can become markup.
"""

import json
from html import escape

from agent.service.schemas import IngestRun, IngestStep


def render_runs(runs: list[IngestRun]) -> str:
    """The latest runs and their steps; the page refreshes itself while a run is active."""
    active = any(run.status in ("queued", "running") for run in runs)
    refresh = '<meta http-equiv="refresh" content="2">' if active else ""
    empty = '<tr><td colspan="7">No ingest runs yet.</td></tr>'
    rows = "".join(_run_row(run) for run in runs) or empty
    return (
        f"<!doctype html><html><head><meta charset=utf-8>{refresh}"
        "<title>bookrag ingest runs</title><style>body{font-family:sans-serif}"
        "td,th{border-bottom:1px solid #ddd;padding:4px 8px;vertical-align:top}</style>"
        "</head><body><h1>Ingest runs</h1><table><tr><th>run</th><th>status</th>"
        "<th>trigger</th><th>commit</th><th>requested</th><th>steps</th><th>outcome</th></tr>"
        f"{rows}</table></body></html>"
    )


def _run_row(run: IngestRun) -> str:
    steps = "".join(_step_item(step) for step in run.steps)
    outcome = run.error or (json.dumps(run.summary) if run.summary else "")
    commit, requested = (run.commit or "")[:12], str(run.requested_at)[:19]
    cells = [escape(field) for field in (run.run_id, run.status, run.trigger, commit, requested)]
    cells += [f"<ul>{steps}</ul>", escape(outcome)]  # the steps are escaped item by item
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"


def _step_item(step: IngestStep) -> str:
    plural = "s" if step.attempts != 1 else ""
    error = f" <em>{escape(step.error)}</em>" if step.error else ""
    return (
        f"<li>{escape(step.name)}: {escape(step.status)}"
        f" ({escape(str(step.attempts))} attempt{plural}){error}</li>"
    )
