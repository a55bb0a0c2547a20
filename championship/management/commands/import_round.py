"""Import round sheets (JSON, XLSX, ODS or CSV, docs/feuille.md), all or nothing.

`--by USERNAME` names the official who imports: his rights on the season apply (as on the
site's import page) and he is the author of every history record written. Homologating is an
official's act: `--homologate` requires `--by`, a member of the season's board or a superuser,
recorded as the one who homologated.
"""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from championship.sheets import SheetImportError, import_sheets
from federation.history import recorded_as


class Command(BaseCommand):
    help = (
        "Importe des feuilles de manche (JSON, XLSX, ODS ou CSV), dans l'ordre, en une seule transaction : "
        "une feuille refusée et rien n'est enregistré."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "files", nargs="+", metavar="FICHIER", help="feuille de manche (JSON, XLSX, ODS ou CSV)"
        )
        parser.add_argument(
            "--create-players", action="store_true", help="inscrit les joueurs inconnus au lieu de refuser"
        )
        parser.add_argument(
            "--homologate",
            action="store_true",
            help="enregistre les manches comme homologuées (acte d'officiel, exige --by) : elles comptent "
            "aussitôt",
        )
        parser.add_argument(
            "--by",
            metavar="IDENTIFIANT",
            help="le compte de l'officiel qui importe, auteur de l'historique ; avec --homologate, un membre "
            "de la Direction de la saison ou un superutilisateur, inscrit comme celui qui a homologué",
        )

    def official(self, username, homologate):
        return find_official(username, homologate)

    def handle(self, *args, files, create_players, homologate, by=None, **options):
        user = self.official(by, homologate)
        sources = []
        for name in files:
            try:
                sources.append((name, Path(name).read_bytes()))
            except OSError as error:
                raise CommandError(f"{name} : fichier illisible ({error.strerror})") from None
        try:
            with recorded_as(user):
                imported = import_sheets(
                    sources, create_players=create_players, homologate=homologate, user=user
                )
        except SheetImportError as error:
            lines = "\n".join(f"  {message}" for message in error.messages)
            raise CommandError(f"Import refusé, rien n'a été enregistré :\n{lines}") from None
        for item in imported:
            round_ = item.round
            status = round_.get_status_display()
            totals = ", ".join(
                f"{seat.player.name} {seat.total:+d}"
                for seat in round_.seats.select_related("player").order_by("position")
            )
            self.stdout.write(self.style.SUCCESS(f"{item.file} : {round_} importée ({status}) — {totals}"))
            for warning in item.warnings:
                self.stdout.write(self.style.WARNING(f"{item.file} : avertissement, {warning}"))


def find_official(username, homologate):
    """The account of ``--by`` (None without it); ``--homologate`` requires one."""
    if not username:
        if homologate:
            raise CommandError(
                "--homologate exige --by IDENTIFIANT : le compte de l'officiel qui homologue "
                "(Direction de la saison ou superutilisateur)."
            )
        return None
    user = get_user_model()._default_manager.filter(**{get_user_model().USERNAME_FIELD: username}).first()
    if user is None:
        raise CommandError(f"--by : aucun compte « {username} »")
    if not user.is_active:
        raise CommandError(f"--by : le compte « {username} » est désactivé")
    return user
