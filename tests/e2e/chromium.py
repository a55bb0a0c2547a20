"""The browser of the end-to-end tests: Debian's Chromium (/usr/bin/chromium, or $CHROMIUM_PATH),
driven by Playwright (sync API), whose own browser download is never used. A module that needs it
sets `pytestmark = requires_chromium`: without Chromium it is skipped, with its reason; CI
installs it.

Where Debian's `chromium-headless-shell` is installed too (/usr/bin/chromium-headless-shell, or
$CHROMIUM_HEADLESS_SHELL_PATH; CI installs it), the tests run in it: the same Chromium (same
version, same Blink and V8) built without the browser around the page, Chromium's « old »
headless mode, which is also what Playwright itself runs headless. The browser tests take a third
less processor in it (measured: docs/mesures.md). Without it, Chromium itself runs every test.
The tests of the news on a phone need Chromium itself (`launch(..., notifications=True)`): in the
shell, « Moi » offers no subscription and the DevTools protocol reports no service worker
registration, so no push can be delivered."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL_PATH", "/usr/bin/chromium-headless-shell")
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


def executable(notifications=False):
    """The headless shell when it is installed and `notifications` are not needed, else Chromium."""
    return HEADLESS_SHELL if not notifications and Path(HEADLESS_SHELL).exists() else CHROMIUM


def launch(browser_type, notifications=False):
    """Debian's Chromium headless (`executable`), started by Playwright's `browser_type`."""
    return browser_type.launch(executable_path=executable(notifications), args=CHROMIUM_ARGS)


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
