"""Past seasons from a totals table (docs/feuille.md §9): a line per round, a column per player
(blank where absent), with « Date », « Lieu » and optionally « Manche » columns. Each line becomes
a totals-only sheet (§3) checked and stored like any other (``import_sheets``: the same model,
the same services, all or nothing), so that the history, podiums and records of the federation
appear on the site. ``plan_season`` checks and scores everything inside a transaction that is
rolled back: what the import would create, before it does; ``apply_previewed`` then stores exactly
that, or nothing.
"""

import hashlib
import json
import re
from dataclasses import dataclass, field

from django.db import transaction

from championship.models import Round
from championship.services import create_season, update_season_rulebook
from championship.sheets.cells import JSON, detect_format, read_grids
from championship.sheets.checks import season_dates
from championship.sheets.errors import SheetError, SheetImportError
from championship.sheets.grid import Wanted
from championship.sheets.parse import MAX_SHEET_BYTES
from championship.sheets.spreadsheet import (
    STAGES_READ,
    CellError,
    date_of,
    formula_errors,
    normalize,
    number_of,
    text_of,
)
from championship.sheets.store import import_sheets
from federation.models import Player, Season

NUMBER, DATE, PLACE, STAGE = "number", "date", "place", "stage"
# Headings that are not players (any case, accents optional); « Phase », « Table » and « Statut »
# come with the season export's « Manches » sheet, which this import reads back.
HEADINGS = {
    "manche": NUMBER,
    "numero": NUMBER,
    "n°": NUMBER,
    "no": NUMBER,
    "date": DATE,
    "lieu": PLACE,
    "phase": STAGE,
    "table": None,
    "statut": None,
}
COLUMN_NAMES = {NUMBER: "Manche", DATE: "Date", PLACE: "Lieu", STAGE: "Phase"}


@dataclass
class _Row:
    line: int
    label: str  # the source name given to import_sheets, to find the line of an error
    players: list  # the names present, in the order of the columns
    columns: dict  # key or player name -> column heading as written


@dataclass
class SeasonPlan:
    """What a totals table creates: the rounds (stored, or rolled back for a dry run), the
    players registered, whether the season is created."""

    season: str
    rounds: list = field(default_factory=list)  # Round objects (rolled back for a dry run)
    new_players: list = field(default_factory=list)
    new_season: bool = False
    applied: bool = False


class _DryRun(Exception):
    pass


# The one sheet a totals table is read from: « Manches » (the season export's) if the workbook
# has one, else its first.
TOTALS_SHEET = Wanted(("Manches",), else_first=True)


def read_totals_table(file, data, season_name):
    """[(label, sheet dict)] of a totals table and the ``_Row`` of each, or SheetImportError
    naming the cell of what cannot be read."""
    fmt = detect_format(file, data)
    if fmt == JSON:
        raise SheetImportError([SheetError(file, "un tableau de totaux est un classeur .xlsx, .ods ou .csv")])
    if len(data) > MAX_SHEET_BYTES:
        raise SheetImportError(
            [
                SheetError(
                    file,
                    f"fichier trop gros pour un tableau de totaux ({len(data)} octets, "
                    f"{MAX_SHEET_BYTES} au plus)",
                )
            ]
        )
    grids = read_grids(file, data, fmt, sheets=TOTALS_SHEET)
    if not grids:
        raise SheetImportError([SheetError(file, "le tableau est vide")])
    title, lines = next(iter(grids.items()))
    sheet_name = title or None
    errors = formula_errors(file, lines, sheet_name, lambda index: text_of(_heading(lines, index)))
    if errors:
        raise SheetImportError(errors)
    header = next((line for line in lines if not line.blank), None)
    if header is None:
        raise SheetImportError([SheetError(file, "le tableau est vide")])
    keys, players = _header_columns(header)
    if DATE not in keys:
        raise SheetImportError([SheetError(file, "il manque la colonne « Date »")])
    existing = Season.objects.filter(name=season_name).first()
    first = 1
    if existing is not None:
        numbers = existing.rounds.filter(stage=Round.REGULAR).values_list("number", flat=True)
        first = max(numbers, default=0) + 1
    sources, rows = [], []
    for line in lines[lines.index(header) + 1 :]:
        if line.blank:
            continue
        stage = line.get(keys[STAGE][0]) if STAGE in keys else None
        if stage is not None and STAGES_READ.get(normalize(text_of(stage))) != Round.REGULAR:
            errors.append(
                CellError(
                    file,
                    "seules les manches de la saison régulière s'importent d'un tableau de totaux",
                    sheet=sheet_name,
                    line=line.number,
                    column=keys[STAGE][1],
                )
            )
            continue
        label = f"{file}#{line.number}"
        number = line.get(keys[NUMBER][0]) if NUMBER in keys else None
        sheet = {
            "season": season_name,
            "number": number_of(number) if number is not None else first + len(rows),
            "date": date_of(line.get(keys[DATE][0])),
        }
        if PLACE in keys and line.get(keys[PLACE][0]) is not None:
            sheet["place"] = text_of(line.get(keys[PLACE][0]))
        present = [(index, name) for index, name in players.items() if line.get(index) is not None]
        sheet["players"] = [{"name": name} for _index, name in present]
        sheet["totals"] = {name: number_of(line.get(index)) for index, name in present}
        columns = {key: heading for key, (_index, heading) in keys.items()}
        columns.update({name: name for _index, name in present})
        rows.append(_Row(line.number, label, [name for _index, name in present], columns))
        sources.append((label, sheet))
    if errors:
        raise SheetImportError(errors)
    if not sources:
        raise SheetImportError([SheetError(file, "aucune manche dans le tableau")])
    return sources, rows, sheet_name


def _header_columns(header):
    """The columns of a totals table's header line: ``{key: (index, heading)}`` for the known
    headings (Date, Lieu, Manche…), ``{index: player name}`` for the others."""
    keys, players = {}, {}
    for index, value in enumerate(header.cells):
        if value is None:
            continue
        name = text_of(value).strip()
        if normalize(name) in HEADINGS:
            if HEADINGS[normalize(name)] is not None:
                keys[HEADINGS[normalize(name)]] = (index, name)
        else:
            players[index] = name
    return keys, players


def _heading(lines, index):
    header = next((line for line in lines if not line.blank), None)
    value = header.get(index) if header is not None else None
    return value if value is not None else chr(65 + index) if index < 26 else str(index + 1)


def _located(file, error, rows, sheet_name):
    """An error of a line's sheet at its cell: the line, and the column of the field it names."""
    row = next((row for row in rows if row.label == error.file), None)
    if row is None:
        return SheetError(file, error.message, deal=error.deal, field=error.field)
    field = error.field or ""
    root, _dot, rest = field.partition(".")
    column = None
    if root in ("totals", "expected_totals"):
        column = row.columns.get(rest or error.message.partition(" : ")[0])
    elif root.startswith("players[") and root[8:-1].isdigit():
        index = int(root[8:-1]) - 1
        column = row.players[index] if index < len(row.players) else None
    elif root in COLUMN_NAMES:
        column = row.columns.get(root, COLUMN_NAMES[root])
    return CellError(file, error.message, sheet=sheet_name, line=row.line, column=column)


PAST_SEASON_REASON = "saison passée importée d'un tableau de totaux : comptes-rendus inconnus"


def create_past_season(name, user):
    """The season of a totals table, created with the default rulebook except for the late-report
    malus, set to 0: the comptes-rendus of a past season are not known here, and its winners
    would otherwise each get the malus of a missing report (docs/feuille.md §9)."""
    start, end = season_dates(name)
    season = create_season(name, start, end, reason=PAST_SEASON_REASON, user=user)
    text, count = LATE_MALUS.subn("late_malus_per_week = 0", season.rulebook_text)
    if count != 1:  # the default rulebook always has the setting once
        raise RuntimeError("late_malus_per_week introuvable dans le règlement par défaut")
    update_season_rulebook(season, text, user, PAST_SEASON_REASON)
    return season


LATE_MALUS = re.compile(r"^late_malus_per_week\s*=.*$", re.M)


def plan_season(file, data, season_name, *, apply=False, create_players=False, homologate=False, user=None):
    """Check every line of a totals table and store its rounds (``apply``), or store them in a
    transaction rolled back (a dry run): a ``SeasonPlan`` either way, or SheetImportError naming
    each faulty cell (nothing stored)."""
    sources, rows, sheet_name = read_totals_table(file, data, season_name)
    plan = SeasonPlan(season_name, new_season=not Season.objects.filter(name=season_name).exists())
    names = {name for row in rows for name in row.players}
    known = set(Player.objects.filter(name__in=names).values_list("name", flat=True))
    plan.new_players = sorted(names - known) if create_players else []
    try:
        with transaction.atomic():
            if plan.new_season:
                create_past_season(season_name, user)
            try:
                imported = import_sheets(
                    sources, create_players=create_players, homologate=homologate, user=user
                )
            except SheetImportError as error:
                raise SheetImportError(
                    [_located(file, item, rows, sheet_name) for item in error.errors]
                ) from None
            plan.rounds = [item.round for item in imported]
            for round_ in plan.rounds:  # read now: a dry run rolls them back
                round_.shown_totals = [
                    (seat.player.name, seat.total)
                    for seat in round_.seats.select_related("player").order_by("position")
                ]
            if not apply:
                raise _DryRun
    except _DryRun:
        pass
    plan.applied = apply
    return plan


def plan_digest(plan):
    """A fingerprint of what a plan creates: the season (new or not), the players registered and
    each round's number, date, place, status and totals (``apply_previewed`` compares it)."""
    summary = [
        plan.season,
        plan.new_season,
        plan.new_players,
        [
            [round_.number, round_.date.isoformat(), round_.place, round_.status, round_.shown_totals]
            for round_ in plan.rounds
        ],
    ]
    return hashlib.sha256(json.dumps(summary, ensure_ascii=False).encode()).hexdigest()


def apply_previewed(file, data, season_name, digest, **options):
    """``plan_season(apply=True)`` of a table previewed as ``digest``, refused with nothing stored
    if it would now create anything else (the same table confirmed twice, rounds entered since)."""
    with transaction.atomic():
        plan = plan_season(file, data, season_name, apply=True, **options)
        if plan_digest(plan) != digest:
            raise SheetImportError(
                [
                    SheetError(
                        file,
                        "l'import ne créerait plus ce que montrait l'aperçu (déjà importé, ou des manches "
                        "enregistrées depuis) : refaites l'aperçu",
                    )
                ]
            )
    return plan
