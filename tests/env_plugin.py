"""Loaded by pytest before Django (see pyproject addopts): the test environment's variables.

The settings refuse to start without SECRET_KEY when DEBUG is off, which is what the suite
runs with, so the suite provides its own throwaway key here.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("STATIC_MANIFEST", "0")
os.environ.setdefault("SECURE_COOKIES", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
# Each test process keeps its own cache (the suite clears it around every test).
os.environ.setdefault("CACHE_URL", "locmem://")
# No figures computed in the background after each write, but in the tests of it.
os.environ.setdefault("WARM_FIGURES", "0")
