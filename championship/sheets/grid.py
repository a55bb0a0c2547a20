"""A sheet as the readers give it (docs/feuille.md §8): numbered lines of plain values, formulas
kept as such, and the bounds that one workbook's reading keeps within (§8.5).

``Bounds`` counts over the whole workbook: the sheets it lists, and the cells kept from the
sheets read, a repeated row or cell counted as what it expands to. Each check runs before the
cells it counts are made, and refuses with a French message that names the limit.
"""

import datetime
import re
import unicodedata
from dataclasses import dataclass

from championship.sheets.errors import CellError, SheetError, SheetImportError


@dataclass(frozen=True)
class Formula:
    """A cell that holds a formula: never computed, refused by the reader."""

    text: str


@dataclass
class Line:
    number: int  # 1-based, as the spreadsheet numbers its lines
    cells: list

    def get(self, index):
        return self.cells[index] if index is not None and index < len(self.cells) else None

    @property
    def blank(self):
        return all(value is None for value in self.cells)


def plain(value):
    """A cell's value as the reader takes it: whole floats as ints, datetimes as dates, a blank
    text as no value."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, str) and not value.strip():
        return None
    return value


def normalize(text):
    """« Garde  sans » → « garde sans », « Cœur » → « coeur », « play-off » → « play off »."""
    text = str(text).replace("œ", "oe").replace("Œ", "OE")
    text = "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))
    return " ".join(re.split(r"[\s_\-]+", text.lower().strip()))


@dataclass(frozen=True)
class Wanted:
    """The sheets an import reads: the first titled each of ``titles`` (any case, accents
    optional), or, with ``else_first`` and none of them in the workbook, its first sheet."""

    titles: tuple
    else_first: bool = False

    def keys(self):
        return {normalize(title) for title in self.titles}

    def choose(self, titles):
        """The titles to read among a workbook's ``titles`` (in order)."""
        keys, picked = self.keys(), {}
        for title in titles:
            if normalize(title) in keys:
                picked.setdefault(normalize(title), title)
        if not picked and self.else_first and titles:
            return [titles[0]]
        return list(picked.values())


@dataclass(frozen=True)
class Limits:
    sheets: int  # sheets a workbook lists
    lines: int  # the number of a sheet's last filled line
    columns: int  # the column of a line's last filled cell
    cells: int  # cells kept over the sheets read
    characters: int  # characters of one cell
    elements: int  # XML elements of the sheets read (cells, lines, paragraphs…)


class Bounds:
    """The limits of one file's reading, and the cells kept so far."""

    def __init__(self, file, limits):
        self.file = file
        self.limits = limits
        self.cells = 0
        self.elements = 0  # counted by the readers themselves, in the loop

    def refuse(self, message, sheet=None, line=None):
        if sheet is None:
            raise SheetImportError([SheetError(self.file, message)])
        raise SheetImportError([CellError(self.file, message, sheet=sheet or None, line=line)])

    def sheet_count(self, count):
        """Called as each sheet of the workbook's list is counted."""
        most = self.limits.sheets
        if count > most:
            self.refuse(f"classeur de plus de {most} feuilles ({most} au plus)")

    def filled_cell(self, sheet, line, column, repeated=1):
        """A filled cell at ``column`` (1-based), repeated ``repeated`` times to its right."""
        most = self.limits.columns
        if column + repeated - 1 > most:
            what = f"cellule remplie répétée {repeated} fois" if repeated > 1 else "cellule remplie"
            self.refuse(f"{what} au-delà de la colonne {most} ({most} colonnes au plus)", sheet, line)

    def filled_line(self, sheet, line, repeated=1):
        """A filled line numbered ``line``, repeated ``repeated`` times below it."""
        most = self.limits.lines
        if line + repeated - 1 > most:
            what = f"ligne remplie répétée {repeated} fois" if repeated > 1 else "ligne remplie"
            self.refuse(f"{what} au-delà de la ligne {most} ({most} lignes au plus par feuille)", sheet, line)

    def keep(self, sheet, line, count):
        """``count`` more cells kept (blank ones before a filled one of the line included)."""
        self.cells += count
        most = self.limits.cells
        if self.cells > most:
            self.refuse(
                f"plus de {most} cellules à lire dans le classeur ({most} au plus, une cellule ou une "
                "ligne répétée comptant autant de fois qu'elle est répétée)",
                sheet,
                line,
            )

    def too_many_elements(self, sheet, line):
        most = self.limits.elements
        self.refuse(f"plus de {most} éléments XML dans les feuilles lues ({most} au plus)", sheet, line)

    def characters(self, sheet, line, count):
        most = self.limits.characters
        if count > most:
            self.refuse(f"cellule de plus de {most} caractères ({most} au plus)", sheet, line)


class Lines:
    """The lines of one sheet as they are read: only filled ones, each ending at its last filled
    cell, their cells counted against the bounds before they are made."""

    def __init__(self, title, bounds):
        self.title = title
        self.bounds = bounds
        self.lines = []

    def add(self, number, cells, repeated=1):
        """``cells`` ({column index, 0-based: value}, filled ones) at line ``number``, repeated
        ``repeated`` times below."""
        if not cells:
            return
        self.bounds.filled_line(self.title, number, repeated)
        width = max(cells) + 1
        self.bounds.keep(self.title, number, width * repeated)
        row = [None] * width
        for index, value in cells.items():
            row[index] = value
        for offset in range(repeated):  # one list shared by the repeats: lines are read, never changed
            self.lines.append(Line(number + offset, row))
