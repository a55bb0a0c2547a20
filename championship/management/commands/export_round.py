"""Print a round as a JSON sheet with its results, or write it as a workbook (docs/feuille.md)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from championship.models import Round
from championship.sheets import SheetError, dumps_sheet, export_sheet, find_round
from championship.sheets.workbooks import FORMATS, render, round_tables
from federation.snapshot import reads_one_snapshot
from scoring.vocabulary import PLAYOFF_TABLES, STAGES


class Command(BaseCommand):
    help = (
        "Affiche la feuille JSON d'une manche, avec ses résultats (totaux, donnes, championnat), "
        "ou l'écrit en classeur XLSX ou ODS (--format, --output)."
    )

    def add_arguments(self, parser):
        parser.add_argument("season", metavar="SAISON", help="par exemple 2010-2011")
        parser.add_argument("number", metavar="NUMERO", type=int, help="numéro de la manche")
        parser.add_argument(
            "--stage",
            choices=STAGES,
            default=Round.REGULAR,
            help="phase : regular (défaut), playoff ou final",
        )
        tables = " ou ".join(PLAYOFF_TABLES)
        parser.add_argument("--table", default="", help=f"table des play-offs ({tables})")
        parser.add_argument(
            "--format", choices=("json", *FORMATS), default="json", help="json (défaut, affiché), xlsx ou ods"
        )
        parser.add_argument(
            "--output", "-o", metavar="FICHIER", help="le fichier écrit (obligatoire en xlsx et ods)"
        )

    @reads_one_snapshot
    def handle(self, *args, season, number, stage, table, format, output=None, **options):
        if format != "json" and not output:
            raise CommandError(f"--format {format} : indiquer le fichier à écrire avec --output FICHIER")
        try:
            round_ = find_round(season, number, stage, table)
        except SheetError as error:
            raise CommandError(str(error)) from None
        if format == "json":
            text = dumps_sheet(export_sheet(round_))
            if output:
                Path(output).write_text(text, encoding="utf-8")
            else:
                self.stdout.write(text, ending="")
            return
        Path(output).write_bytes(render(round_tables(round_), format))
        self.stdout.write(f"{round_} écrite dans {output}")
