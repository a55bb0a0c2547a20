"""The site as production runs it, for the module that crawls it (tests/production/deployment.py)."""

import pytest

from tests.production import deployment


@pytest.fixture(scope="module")
def deployed_site(tmp_path_factory):
    """The demo federation served by gunicorn, prepared once for the module."""
    site = deployment.prepare(tmp_path_factory.mktemp("production"))
    with deployment.served(site):
        yield site
