"""End-to-end tests: a real headless Chromium (Playwright) against pytest-django's live server."""
