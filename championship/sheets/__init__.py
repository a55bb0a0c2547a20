"""The round sheet (feuille de marque) as JSON: read, check, import and export (docs/feuille.md).

A sheet goes through four steps, each refusing with French errors that name the file, the deal
(1-based) and the field as the sheet spells it:

1. the file: bytes → JSON (``parse``: size, UTF-8, duplicate keys, nesting; a malformed file
   gives its line and column);
2. the structure: the pydantic model ``schema.Sheet`` (strict types, keys, values, the rules
   shared with the entry forms), every error of the file collected (``parse``);
3. the database and the rules (``checks``): season, players, round number, rights, catalogue;
   then each deal scored by ``scoring``, the round, ``expected_totals``;
4. the writing (``store``): season, players, round, seats, deals, adjustments, report, then
   ``services.rescore_round`` (and ``homologate_round``) store every figure.

``import_sheets`` runs all the files of one import in a single transaction: one bad file and
nothing is written. ``export_sheet`` gives the sheet back with its ``results`` (``export``).
The JSON Schema of a sheet is ``sheet_json_schema()`` (``manage.py sheet_schema``).

A sheet may also come as a spreadsheet (docs/feuille.md §8): ``cells`` reads an XLSX, ODS or CSV
file as grids of values (formulas refused, never computed), ``spreadsheet`` lays them out into the
JSON structure that the same steps check, giving each error back at its cell, ``workbooks``
writes the template and the workbooks of a round and of a season, and ``seasons`` imports a past
season from a table of totals (§9).
"""

from championship.sheets.checks import CREATE_PLAYERS_HINT, CheckedSheet, read_sheet, season_dates
from championship.sheets.errors import SheetError, SheetImportError
from championship.sheets.export import card_points, dumps_sheet, export_sheet, find_round, sheet_filename
from championship.sheets.parse import MAX_JSON_DEPTH, MAX_SHEET_BYTES, parse_json, parse_sheet
from championship.sheets.schema import COLOUR_CODES, PLAYOFF_TABLES, STAGES, Sheet, sheet_json_schema
from championship.sheets.store import HOMOLOGATION_REASON, IMPORT_REASON, ImportedRound, import_sheets

__all__ = [
    "COLOUR_CODES",
    "CREATE_PLAYERS_HINT",
    "HOMOLOGATION_REASON",
    "IMPORT_REASON",
    "MAX_JSON_DEPTH",
    "MAX_SHEET_BYTES",
    "PLAYOFF_TABLES",
    "STAGES",
    "CheckedSheet",
    "ImportedRound",
    "Sheet",
    "SheetError",
    "SheetImportError",
    "card_points",
    "dumps_sheet",
    "export_sheet",
    "find_round",
    "import_sheets",
    "parse_json",
    "parse_sheet",
    "read_sheet",
    "season_dates",
    "sheet_filename",
    "sheet_json_schema",
]
