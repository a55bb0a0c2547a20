"""The statistics of a season computed again after a write (`championship.views.warming` calls
`warm`): its pieces (`pieces`, `rating`), its partners page, the federation's palmarès and what
each player needs, so that the next reader finds them ready. The players' pages that were read
and that the write changed are computed again by `championship.views.stats.refresh_player_pages`;
a head-to-head page is assembled from the pieces at its first reading."""

from championship.cup.outlook import season_race
from championship.stats import pages, palmares
from championship.stats.pieces import packed_games, packed_records
from championship.stats.rating import season_ratings


def warm(season):
    packed_games([season])
    packed_records([season])
    season_ratings([season])
    pages.season_partners(season)
    palmares.palmares()
    season_race(season)  # the qualification page's statuses and « Ce qu'il faut à chacun »
