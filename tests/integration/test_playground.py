"""The LangServe playground as a reader opens it: Debian's Chromium draws its chat form."""

import shutil
import subprocess

import pytest

from tests.conftest import running_server

CHROMIUM = shutil.which("chromium")


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)")
def test_the_playground_draws_its_chat_form(book):
    with running_server(book) as base:
        dom = subprocess.run(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--virtual-time-budget=10000",
                "--dump-dom",
                f"{base}/chat/playground/",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    assert '<div id="root"></div>' not in dom  # the page did not fail while drawing
    assert 'id="#/properties/question-input"' in dom  # the question field of the form
