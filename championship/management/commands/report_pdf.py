"""python manage.py report_pdf SEASON NUMBER -o FILE: a round's compte-rendu as a PDF file.

Laid out within the same limits as on the site (``PDF_RENDER_MEMORY_MB``, ``PDF_RENDER_TIMEOUT``),
always afresh: the site's store of PDFs is neither read nor written.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from championship.lib.pdf import PdfRenderError, render_pdf
from championship.models import Round
from championship.reports.display import report_display
from federation.snapshot import reads_one_snapshot
from scoring.vocabulary import PLAYOFF_TABLES, STAGES


class Command(BaseCommand):
    help = "Écrit le compte-rendu d'une manche au format PDF."

    def add_arguments(self, parser):
        parser.add_argument("season", help="la saison, par exemple 2010-2011")
        parser.add_argument("number", type=int, help="le numéro de la manche")
        parser.add_argument("-o", "--output", required=True, help="le fichier PDF à écrire")
        parser.add_argument("--stage", choices=STAGES, default=Round.REGULAR)
        parser.add_argument("--table", choices=PLAYOFF_TABLES, default="", help="la table de play-off")

    @reads_one_snapshot
    def handle(self, *args, season, number, output, stage, table, **options):
        if stage == Round.PLAYOFF and not table:
            raise CommandError(
                f"--table : précisez la table ({' ou '.join(PLAYOFF_TABLES)}) d'une manche de play-off."
            )
        try:
            round_ = Round.objects.select_related("season").get(
                season__name=season, stage=stage, table=table if stage == Round.PLAYOFF else "", number=number
            )
        except Round.DoesNotExist:
            label = dict(Round.STAGES)[stage]
            raise CommandError(f"Aucune manche {number} ({label}) dans la saison « {season} ».") from None
        try:
            pdf = render_pdf("championship/reports/report_pdf.html", {"display": report_display(round_)})
        except PdfRenderError as error:
            cause = f"{error.reason} : {error.detail}" if error.detail else error.reason
            raise CommandError(
                f"Le PDF n'a pas pu être produit ({cause}) ; voir PDF_RENDER_MEMORY_MB et PDF_RENDER_TIMEOUT."
            ) from error
        path = Path(output)
        try:
            path.write_bytes(pdf)
        except OSError as error:
            raise CommandError(f"-o : impossible d'écrire « {output} » ({error.strerror}).") from error
        self.stdout.write(self.style.SUCCESS(f"Compte-rendu écrit dans {path} ({len(pdf)} octets)."))
