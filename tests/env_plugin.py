"""Loaded by pytest before Django (see pyproject addopts): the test environment's variables.

The settings refuse to start without SECRET_KEY when DEBUG is off, which is what the suite
runs with, so the suite provides its own throwaway key here.

The static files are those production serves: the manifest storage (hashed names, a missing
file is an error, as in production), collected once into a folder named after the content of
the static sources and of the pinned requirements (tests/static_files.py), so that a run after
a change collects anew and a run without one reuses the folder.
"""

import os

from tests.static_files import collected_static_root

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("STATIC_ROOT", str(collected_static_root()))
os.environ.setdefault("SECURE_COOKIES", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost")
# Each test process keeps its own cache (the suite clears it around every test).
os.environ.setdefault("CACHE_URL", "locmem://")
# No figures computed in the background after each write, but in the tests of it.
os.environ.setdefault("WARM_FIGURES", "0")
