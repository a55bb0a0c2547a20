"""Import round sheets (JSON, SHEET_FORMAT.md), all or nothing."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from championship.sheets import SheetImportError, import_sheets


class Command(BaseCommand):
    help = (
        "Importe des feuilles de manche JSON, dans l'ordre, en une seule transaction : "
        "une feuille refusée et rien n'est enregistré."
    )

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FICHIER", help="feuille de manche (JSON)")
        parser.add_argument(
            "--create-players", action="store_true", help="inscrit les joueurs inconnus au lieu de refuser"
        )
        parser.add_argument(
            "--homologate",
            action="store_true",
            help="enregistre les manches comme homologuées (acte d'officiel) : elles comptent aussitôt",
        )

    def handle(self, *args, files, create_players, homologate, **options):
        sources = []
        for name in files:
            try:
                sources.append((name, Path(name).read_bytes()))
            except OSError as error:
                raise CommandError(f"{name} : fichier illisible ({error.strerror})") from None
        try:
            imported = import_sheets(sources, create_players=create_players, homologate=homologate)
        except SheetImportError as error:
            lines = "\n".join(f"  {message}" for message in error.messages)
            raise CommandError(f"Import refusé, rien n'a été enregistré :\n{lines}") from None
        for item in imported:
            round_ = item.round
            status = round_.get_status_display()
            totals = ", ".join(
                f"{seat.player.name} {seat.total:+d}"
                for seat in round_.seats.select_related("player").order_by("position")
            )
            self.stdout.write(self.style.SUCCESS(f"{item.file} : {round_} importée ({status}) — {totals}"))
            for warning in item.warnings:
                self.stdout.write(self.style.WARNING(f"{item.file} : avertissement, {warning}"))
