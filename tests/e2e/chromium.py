"""The browser of the end-to-end tests: Debian's Chromium (/usr/bin/chromium, or $CHROMIUM_PATH),
driven by Playwright (sync API), whose own browser download is never used. A module that needs it
sets `pytestmark = requires_chromium`: without Chromium it is skipped, with its reason; CI
installs it."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]

requires_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason=f"Chromium introuvable ({CHROMIUM}) : installez-le (apt-get install chromium) "
    "ou donnez son chemin dans CHROMIUM_PATH pour lancer le test de bout en bout.",
)


def launch(browser_type):
    """Debian's Chromium, headless, started by Playwright's `browser_type`."""
    return browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@contextmanager
def headless_chromium():
    """A headless Chromium, closed at the end of the block.

    Playwright's sync API keeps an asyncio event loop running in this thread for as long as it is
    started, and Django refuses ORM calls from a thread with a running loop (SynchronousOnlyOperation).
    A test's own database reads happen between browser steps, never concurrently with them (the
    live server answers from its own thread), so the check is lifted inside the block only.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = launch(playwright.chromium)
            try:
                yield browser
            finally:
                browser.close()
