"""Print the JSON Schema of a round sheet (docs/feuille.md), from the pydantic model."""

import json

from django.core.management.base import BaseCommand

from championship.sheets import sheet_json_schema


def schema_text():
    """The schema as committed in docs/sheet.schema.json: indented, UTF-8, a final newline."""
    return json.dumps(sheet_json_schema(), ensure_ascii=False, indent=2) + "\n"


class Command(BaseCommand):
    help = (
        "Affiche le schéma JSON (JSON Schema) d'une feuille de manche, pour les outils qui en "
        "produisent ; le même que docs/sheet.schema.json."
    )

    def handle(self, *args, **options):
        self.stdout.write(schema_text(), ending="")
