"""A 3-round season for the statistics, every figure computable by hand.

The three rounds are the example sheet (docs/regles.md §4.3) with its players' roles handed
round: round 1 as written; round 2 with Alice's part played by Bruno, Bruno's by Chloé, Chloé's
by David, David's by Émile, Émile's by Alice; round 3 with Alice's by David, Bruno's by Alice,
Chloé's by Émile, David's by Bruno, Émile's by Chloé. Each round's totals are the example's
(−650, +380, +50, +220, 0) handed round the same way, each deal's shares too:

- round 1, deal 1 (Garde of Bruno called David, made, U = 110): Bruno +210, David +100, Chloé −70
  (her misère), Alice −120, Émile −120; deal 4 (Garde sans of Alice alone, failed): Alice −520, the
  others +130;
- round 2, deal 1: Chloé +210, Émile +100, David −70, Bruno −120, Alice −120; deal 4: Bruno −520;
- round 3, deal 1: Alice +210, Bruno +100, Émile −70, David −120, Chloé −120; deal 4: David −520.
"""

import datetime

import pytest

from championship.models import Round
from championship.stats import pages
from championship.views import stats as stats_views
from tests.factories import EXAMPLE_DEALS, EXAMPLE_PLAYERS, make_round

ROLES = [
    {name: name for name in EXAMPLE_PLAYERS},
    {"Alice": "Bruno", "Bruno": "Chloé", "Chloé": "David", "David": "Émile", "Émile": "Alice"},
    {"Alice": "David", "Bruno": "Alice", "Chloé": "Émile", "David": "Bruno", "Émile": "Chloé"},
]
DATES = [datetime.date(2010, 10, 1), datetime.date(2010, 11, 5), datetime.date(2010, 12, 3)]


def handed(deal, role):
    """The example deal `deal` with each player's part played by `role[player]`."""
    moved = dict(deal)
    for field in ("dealer", "taker", "partner"):
        if moved.get(field):
            moved[field] = role[moved[field]]
    if "poignees" in moved:
        moved["poignees"] = [(role[player], size) for player, size in moved["poignees"]]
    if "miseres" in moved:
        moved["miseres"] = [role[player] for player in moved["miseres"]]
    return moved


@pytest.fixture
def three_rounds(season):
    """The season's 3 homologated rounds (see the module), in the order played."""
    return [
        make_round(
            season,
            [role[name] for name in EXAMPLE_PLAYERS],
            [handed(deal, role) for deal in EXAMPLE_DEALS],
            number=number,
            date=date,
            status=Round.HOMOLOGATED,
        )
        for number, (role, date) in enumerate(zip(ROLES, DATES, strict=True), start=1)
    ]


@pytest.fixture
def computed(monkeypatch):
    """What the player pages computed since the fixture started: `{"figures": [...], "bodies":
    [...]}` of (player pk, season name or None), and `"rendered"`: the bodies' templates."""
    seen = {"figures": [], "bodies": [], "rendered": []}
    figures, bodies, render = pages._player_stats, stats_views._player_context, stats_views.render_to_string

    def count_figures(player, season, chosen):
        seen["figures"].append((player.pk, season.name if season else None))
        return figures(player, season, chosen)

    def count_bodies(player, season):
        seen["bodies"].append((player.pk, season.name if season else None))
        return bodies(player, season)

    def count_renders(template, context):
        seen["rendered"].append(template.rsplit("/", 1)[-1])
        return render(template, context)

    monkeypatch.setattr(stats_views, "render_to_string", count_renders)
    monkeypatch.setattr(pages, "_player_stats", count_figures)
    monkeypatch.setattr(stats_views, "_player_context", count_bodies)
    return seen
