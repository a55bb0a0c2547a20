"""Print a round as a JSON sheet with its results (docs/feuille.md)."""

from django.core.management.base import BaseCommand, CommandError

from championship.models import Round
from championship.sheets import SheetError, dumps_sheet, export_sheet, find_round
from scoring.vocabulary import PLAYOFF_TABLES, STAGES


class Command(BaseCommand):
    help = "Affiche la feuille JSON d'une manche, avec ses résultats (totaux, donnes, championnat)."

    def add_arguments(self, parser):
        parser.add_argument("season", metavar="SAISON", help="par exemple 2010-2011")
        parser.add_argument("number", metavar="NUMERO", type=int, help="numéro de la manche")
        parser.add_argument(
            "--stage",
            choices=STAGES,
            default=Round.REGULAR,
            help="phase : regular (défaut), playoff ou final",
        )
        tables = " ou ".join(PLAYOFF_TABLES)
        parser.add_argument("--table", default="", help=f"table des play-offs ({tables})")

    def handle(self, *args, season, number, stage, table, **options):
        try:
            round_ = find_round(season, number, stage, table)
        except SheetError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(dumps_sheet(export_sheet(round_)), ending="")
