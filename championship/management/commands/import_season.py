"""Import a past season from a totals table (docs/feuille.md §9): a dry run by default (what it
would create), ``--apply`` to store it, all or nothing, through the same checks and services as
``import_round``."""

from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from championship.management.commands.import_round import find_official
from championship.sheets import SheetImportError
from championship.sheets.seasons import plan_season
from federation.history import recorded_as
from federation.models import validate_season_name


class Command(BaseCommand):
    help = (
        "Importe une saison passée d'un tableau de totaux (une ligne par manche, une colonne par joueur, "
        "colonnes Date, Lieu et Manche) : sans --apply, affiche ce qui serait créé sans rien enregistrer."
    )

    def add_arguments(self, parser):
        parser.add_argument("season", metavar="SAISON", help="par exemple 2005-2006")
        parser.add_argument("file", metavar="FICHIER", help="le tableau de totaux (XLSX, ODS ou CSV)")
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--dry-run", action="store_true", help="affiche ce qui serait créé (le défaut)")
        mode.add_argument("--apply", action="store_true", help="enregistre les manches")
        parser.add_argument(
            "--create-players", action="store_true", help="inscrit les joueurs inconnus au lieu de refuser"
        )
        parser.add_argument(
            "--homologate",
            action="store_true",
            help="enregistre les manches comme homologuées (acte de la Direction, exige --by)",
        )
        parser.add_argument(
            "--by",
            metavar="IDENTIFIANT",
            help="le compte de l'officiel qui importe, auteur de l'historique ; avec --homologate, un membre "
            "de la Direction de la saison ou un superutilisateur, inscrit comme celui qui a homologué",
        )

    def handle(self, *args, season, file, apply, create_players, homologate, by=None, **options):
        try:
            validate_season_name(season)
        except ValidationError as error:
            raise CommandError(f"SAISON : {' '.join(error.messages)}") from None
        user = find_official(by, homologate)
        try:
            data = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file} : fichier illisible ({error.strerror})") from None
        try:
            with recorded_as(user):
                plan = plan_season(
                    file,
                    data,
                    season,
                    apply=apply,
                    create_players=create_players,
                    homologate=homologate,
                    user=user,
                )
        except SheetImportError as error:
            lines = "\n".join(f"  {message}" for message in error.messages)
            raise CommandError(f"Import refusé, rien n'a été enregistré :\n{lines}") from None
        verb = "importée" if apply else "serait importée"
        status = "homologuée" if homologate else "brouillon"
        if plan.new_season:
            self.stdout.write(
                f"Saison {season} {'créée' if apply else 'à créer'} (règlement par défaut, sans malus "
                "de compte-rendu en retard : ceux d'une saison passée ne sont pas connus)"
            )
        if plan.new_players:
            joined = ", ".join(plan.new_players)
            self.stdout.write(f"Joueurs {'inscrits' if apply else 'à inscrire'} : {joined}")
        for round_ in plan.rounds:
            totals = ", ".join(f"{name} {total:+d}" for name, total in round_.shown_totals)
            place = f" ({round_.place})" if round_.place else ""
            self.stdout.write(
                f"manche {round_.number} du {round_.date:%d/%m/%Y}{place} {verb} ({status}) — {totals}"
            )
        count = len(plan.rounds)
        if apply:
            self.stdout.write(self.style.SUCCESS(f"{count} manches importées dans la saison {season}."))
        else:
            self.stdout.write(
                self.style.WARNING(
                    f"Aperçu : {count} manches, rien n'a été enregistré (--apply pour les importer)."
                )
            )
