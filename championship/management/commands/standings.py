"""`python manage.py standings SEASON --format json|csv [--as-of DATE]` (docs/feuille.md)."""

import datetime
import json

from django.core.management.base import BaseCommand, CommandError
from django_tables2.export import TableExport

from championship.standings.season import season_standings
from championship.standings.tables import StandingsTable
from federation.models import Season
from federation.snapshot import reads_one_snapshot
from scoring.ranking import TIEBREAKS

# Every tie-break of the registry that has a figure of its own, whatever the season's rulebook
# keeps: the JSON's keys never change from one season to another.
JSON_TIEBREAKS = [tiebreak for tiebreak in TIEBREAKS.values() if tiebreak.header is not None]


def standings_json(standings):
    """The stable JSON of the standings command (keys exactly as docs/feuille.md): a ranked
    player's figures, then a key per tie-break of the registry that has a figure of its own
    (`scoring.ranking.TIEBREAKS`), in the registry's order, whichever the season uses."""
    return {
        "season": standings.season.name,
        "ranking": [
            {
                "rank": row.rank,
                "player": row.player.name,
                "points": row.points,
                "rounds": row.rounds,
                **{tiebreak.key: tiebreak.figure(row.standing.season) for tiebreak in JSON_TIEBREAKS},
            }
            for row in standings.ranked
        ],
        "unranked": [
            {"player": row.player.name, "points": row.points, "rounds": row.rounds}
            for row in standings.unranked
        ],
        "awards": [
            {"code": award.code, "players": list(award.players), "value": award.value}
            for award in standings.awards
        ],
    }


def as_of_date(value):
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--as-of : date invalide « {value} » (format attendu AAAA-MM-JJ).") from None


class Command(BaseCommand):
    help = "Affiche le classement d'une saison (JSON ou CSV), malus de retard de compte-rendu à une date."

    def add_arguments(self, parser):
        parser.add_argument("season", help="nom de la saison, par exemple 2010-2011")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument(
            "--as-of",
            dest="as_of",
            help="date des malus de retard de compte-rendu (AAAA-MM-JJ, défaut : aujourd'hui)",
        )

    @reads_one_snapshot
    def handle(self, *args, **options):
        try:
            season = Season.objects.get(name=options["season"])
        except Season.DoesNotExist:
            raise CommandError(f"Saison inconnue : « {options['season']} ».") from None
        as_of = as_of_date(options["as_of"]) if options["as_of"] else None
        standings = season_standings(season, as_of)
        if options["format"] == "csv":
            self.stdout.write(
                TableExport("csv", StandingsTable(standings.ranked, season)).export(), ending=""
            )
        else:
            self.stdout.write(json.dumps(standings_json(standings), ensure_ascii=False, indent=2))
