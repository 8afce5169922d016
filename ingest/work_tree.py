"""Bring the book's git work tree to a pushed commit before a webhook run ingests it."""

import subprocess
from pathlib import Path


class WorkTreeError(RuntimeError):
    """The work tree could not be brought to the pushed commit; the message says why."""


def _git(folder: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise WorkTreeError(f"git {' '.join(args)} failed: {error}") from error
    if done.returncode != 0:
        problem = (done.stderr or done.stdout).strip().splitlines()
        reason = problem[-1] if problem else f"exit status {done.returncode}"
        raise WorkTreeError(f"git {' '.join(args)} failed in {folder}: {reason}")
    return done.stdout.strip()


def in_work_tree(folder: Path) -> bool:
    """Whether `folder` is inside a git work tree."""
    try:
        return _git(folder, "rev-parse", "--is-inside-work-tree") == "true"
    except WorkTreeError:
        return False


def sync_to_commit(folder: Path, branch: str | None, commit: str | None) -> str | None:
    """Fetch and check out the pushed commit (or branch head); None for a plain folder.

    Returns the commit the work tree is now at. Local changes are never overwritten: git
    refuses the checkout and the run fails with git's reason.
    """
    if not in_work_tree(folder):
        return None
    wanted = commit or (f"origin/{branch}" if branch else None)
    if wanted is None:
        return _git(folder, "rev-parse", "HEAD")
    _git(folder, "fetch", "--quiet", "origin", *([branch] if branch else []))
    _git(folder, "checkout", "--quiet", "--detach", wanted)
    return _git(folder, "rev-parse", "HEAD")
