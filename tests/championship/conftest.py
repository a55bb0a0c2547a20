import pytest

from tests.factories import make_round


@pytest.fixture
def as_user(client, request):
    """`as_user("secretary")`: the test client logged in as that fixture's user (or anonymous)."""

    def login(who):
        client.logout()
        if who != "anonymous":
            client.force_login(request.getfixturevalue(who).user)
        return client

    return login


@pytest.fixture
def example(season, president, secretary):
    """The example round of docs/feuille.md, a draft, with Émile's late arrival."""
    return make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])
