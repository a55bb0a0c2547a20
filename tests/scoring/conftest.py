import pytest

from scoring.rulebook import load_default_rulebook


@pytest.fixture
def rulebook():
    """The shipped default rulebook (hypothesis tests use module constants instead)."""
    return load_default_rulebook()
