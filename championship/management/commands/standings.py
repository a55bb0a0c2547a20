"""`python manage.py standings SEASON --format json|csv [--as-of DATE]` (docs/feuille.md)."""

import datetime
import json

from django.core.management.base import BaseCommand, CommandError
from django_tables2.export import TableExport

from championship.standings import season_standings
from championship.tables_standings import StandingsTable
from federation.models import Season


def standings_json(standings):
    """The stable JSON of the standings command (keys exactly as docs/feuille.md): a ranked
    player's figures are those of the standings table, a key per tie-break of the season that
    has a column (`scoring.ranking.Tiebreak`), in the rulebook's order."""
    return {
        "season": standings.season.name,
        "ranking": [
            {
                "rank": row.rank,
                "player": row.player.name,
                "points": row.points,
                "rounds": row.rounds,
                **{tiebreak.key: figure for tiebreak, figure in row.figures},
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
        raise CommandError(f"--as-of : date invalide « {value} » (format attendu AAAA-MM-JJ).") from None


class Command(BaseCommand):
    help = "Affiche le classement d'une saison (JSON ou CSV), malus de retard de compte-rendu à une date."

    def add_arguments(self, parser):
        parser.add_argument("season", help="nom de la saison, par exemple 2010-2011")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument(
            "--as-of",
            dest="as_of",
            help="date des malus de retard de compte-rendu (AAAA-MM-JJ, défaut : aujourd'hui)",
        )

    def handle(self, *args, **options):
        try:
            season = Season.objects.get(name=options["season"])
        except Season.DoesNotExist:
            raise CommandError(f"Saison inconnue : « {options['season']} ».") from None
        as_of = as_of_date(options["as_of"]) if options["as_of"] else None
        standings = season_standings(season, as_of)
        if options["format"] == "csv":
            self.stdout.write(
                TableExport("csv", StandingsTable(standings.ranked, season)).export(), ending=""
            )
        else:
            self.stdout.write(json.dumps(standings_json(standings), ensure_ascii=False, indent=2))
