"""`python manage.py backup FICHIER`: a backup of the whole database (federation.backups)."""

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from federation.backups import BackupError, backup, describe


class Command(BaseCommand):
    help = (
        "Sauvegarde toute la base dans un fichier, sans arrêter le site : copie en ligne pour SQLite, "
        "pg_dump --format=custom pour PostgreSQL."
    )
    requires_system_checks = []  # docs/exploitation.md, « Les vérifications de Django »

    def add_arguments(self, parser):
        parser.add_argument(
            "file", metavar="FICHIER", help="fichier de sauvegarde à écrire (remplacé s'il existe)"
        )

    def handle(self, *args, file, **options):
        try:
            backup(connection, file)
        except BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(f"Base {describe(connection)} sauvegardée dans « {file} »."))
