"""`python manage.py restore FICHIER [--noinput]`: replace the whole database by a backup made
by `backup` (federation.backups)."""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from federation.backups import BackupError, check_restorable, describe, missing_migrations, restore

CONFIRMATION = "oui"


class Command(BaseCommand):
    help = (
        "Remplace TOUTE la base par une sauvegarde faite avec « backup » (SQLite ou PostgreSQL, "
        "selon la base configurée). Demande confirmation, sauf avec --noinput."
    )
    requires_system_checks = []  # docs/exploitation.md, « Les vérifications de Django »

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FICHIER", help="sauvegarde à restaurer")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="ne pas demander de confirmation",
        )

    def handle(self, *args, file, interactive, **options):
        database = describe(connection)
        try:
            check_restorable(connection, file)
            if interactive and not self.confirmed(database, file):
                self.stdout.write("Restauration annulée : la base n'a pas changé.")
                return
            restore(connection, file)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(f"Base {database} restaurée depuis « {file} »."))
        missing = missing_migrations(connection)
        if missing:
            self.stdout.write(
                self.style.WARNING(
                    f"La sauvegarde précède {len(missing)} migration(s) du code : lancez "
                    "« python manage.py migrate »."
                )
            )

    def confirmed(self, database, file):
        try:
            answer = input(
                f"La restauration remplace TOUT le contenu de la base {database} (joueurs, saisons, manches, "
                f"comptes-rendus, comptes, historique) par celui de « {file} » ; ce qui a été saisi depuis "
                f"cette sauvegarde sera perdu.\nTapez « {CONFIRMATION} » pour continuer : "
            )
        except EOFError:  # nothing to read: no answer is no
            return False
        return answer.strip().lower() == CONFIRMATION
