"""Spreadsheet files (XLSX, ODS, CSV) read as grids of values, never as formulas (docs/feuille.md §8).

A file becomes ``{sheet title: [Line]}``: each filled line keeps its number in the file (1-based,
as the spreadsheet shows it) and its cells' values up to its last filled one: text, int, float,
``datetime.date``, or ``None`` when blank; blank lines are left out. A cell holding a formula is
never computed nor read through the result its spreadsheet saved: it is a ``Formula`` (its text),
which the reader refuses, naming the cell. A CSV has no formula: a text beginning with « = » is
read as the text it is.

Only the sheets asked for are read (``sheets``: the titles it picks among the workbook's), within
bounds over the whole workbook, checked before anything is expanded (§8.5, ``grid.Bounds``):
``MAX_UNZIPPED_BYTES`` once unzipped, ``MAX_SHEETS`` sheets listed, a filled line at most at line
``MAX_LINES`` and a filled cell at most at column ``MAX_COLUMNS``, ``MAX_CELLS`` cells kept over
the sheets read (a repeated row or cell counted as what it expands to), ``MAX_CELL_CHARACTERS``
characters in a cell. XLSX and ODS are read from their XML as it streams (``xmlcells``).

The format is told by the file's extension, else by its content (a ZIP holding an OpenDocument
spreadsheet or an Office Open XML workbook; JSON begins with « { »; anything else is CSV).
"""

import csv
import io
import re
import zipfile
from pathlib import PurePath

from championship.sheets.errors import SheetError, SheetImportError
from championship.sheets.grid import Bounds, Formula, Limits, Line, Lines, plain
from championship.sheets.odscells import read_ods
from championship.sheets.xmlcells import read_xlsx

__all__ = ["CSV", "JSON", "ODS", "XLSX", "Formula", "Line", "detect_format", "read_grids"]

JSON, XLSX, ODS, CSV = "json", "xlsx", "ods", "csv"
SPREADSHEET_FORMATS = (XLSX, ODS, CSV)
# What a spreadsheet may hold once unzipped: a filled sheet is a few hundred kilobytes; a ZIP
# that inflates beyond this is refused before it is parsed (a « ZIP bomb »).
MAX_UNZIPPED_BYTES = 30_000_000
MAX_SHEETS = 100  # sheets a workbook lists (a round's workbook has 8 at most, a season's 4)
MAX_LINES = 5_000  # the last filled line of a sheet read
MAX_COLUMNS = 200  # the last filled column of a line
MAX_CELLS = 100_000  # cells kept over the sheets read (a round: 200 deals × 13 columns)
MAX_CELL_CHARACTERS = 32_767  # characters of a cell (Excel's own limit)
MAX_ELEMENTS = 500_000  # XML elements of the sheets read: cells, lines, paragraphs…
CSV_SECTION = re.compile(r"^\[(?P<title>[^\]]+)\]$")


def limits():
    return Limits(MAX_SHEETS, MAX_LINES, MAX_COLUMNS, MAX_CELLS, MAX_CELL_CHARACTERS, MAX_ELEMENTS)


def detect_format(file, data):
    """``json``, ``xlsx``, ``ods`` or ``csv``, from the extension, else from the content."""
    suffix = PurePath(file).suffix.lower().lstrip(".")
    if suffix in (JSON, XLSX, ODS, CSV):
        return suffix
    if suffix in ("xls", "xlsm", "xlsb", "fods", "ots", "xltx"):
        raise SheetImportError(
            [
                SheetError(
                    file,
                    f"format .{suffix} non pris en charge : enregistrer la feuille en .xlsx, .ods ou .csv",
                )
            ]
        )
    head = data[:4] if isinstance(data, bytes) else b""
    if head.startswith(b"PK"):
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                names = set(archive.namelist())
                if "mimetype" in names and b"opendocument.spreadsheet" in archive.read("mimetype"):
                    return ODS
                if "xl/workbook.xml" in names:
                    return XLSX
        except zipfile.BadZipFile:
            pass
        raise SheetImportError(
            [SheetError(file, "fichier compressé qui n'est ni un classeur .xlsx ni un .ods")]
        )
    text = data.lstrip(b"\xef\xbb\xbf \t\r\n") if isinstance(data, bytes) else data.lstrip()
    if text[:1] in (b"{", "{", b"[", "["):
        return JSON
    return CSV


def read_grids(file, data, fmt, sheets=None):
    """``{sheet title: [Line]}`` of a spreadsheet file, in the order of its sheets: those that
    ``sheets(titles)`` picks among the workbook's titles (all without it; a CSV's sections are all
    read, the file being small). SheetImportError naming the limit for a file beyond the bounds."""
    bounds = Bounds(file, limits())
    if fmt == CSV:
        return _read_csv(file, data, bounds)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, EOFError, OSError, ValueError):
        raise SheetImportError(
            [SheetError(file, "fichier illisible : ce n'est pas un classeur valide")]
        ) from None
    with archive:
        unzipped = sum(item.file_size for item in archive.infolist())
        if unzipped > MAX_UNZIPPED_BYTES:
            raise SheetImportError(
                [
                    SheetError(
                        file,
                        f"classeur trop gros une fois décompressé ({unzipped} octets, "
                        f"{MAX_UNZIPPED_BYTES} au plus)",
                    )
                ]
            )
        try:
            return (read_xlsx if fmt == XLSX else read_ods)(file, archive, sheets, bounds)
        except SheetImportError:
            raise
        except Exception:  # a damaged file: whatever the parser raises, the secretary is told so
            kind = "classeur Excel (.xlsx)" if fmt == XLSX else "classeur OpenDocument (.ods)"
            raise SheetImportError(
                [SheetError(file, f"fichier illisible : ce n'est pas un {kind} valide")]
            ) from None


def _decode(file, data):
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")  # a CSV saved by a French Excel


def _delimiter(text):
    """« , », « ; » or a tab: the one found on most of the first lines (section lines aside); a
    French spreadsheet saves its CSV with « ; »."""
    lines = [line for line in text.splitlines()[:50] if line.strip() and not CSV_SECTION.match(line.strip())]
    counts = {delimiter: sum(delimiter in line for line in lines) for delimiter in (",", ";", "\t")}
    return max(counts, key=lambda delimiter: (counts[delimiter], delimiter == ","))


def _read_csv(file, data, bounds):
    """A CSV, its cells as text; lines ``[Titre]`` open the sheets of a round (docs/feuille.md §8)."""
    text = _decode(file, data)
    grids, title, lines = {}, None, Lines("", bounds)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        for row in reader:
            number = reader.line_num
            cells = {index: value for index, value in enumerate(map(plain, row)) if value is not None}
            if not cells:
                continue
            first = cells.get(0) if len(cells) == 1 and isinstance(cells.get(0), str) else ""
            section = CSV_SECTION.match(first.strip())
            if section:
                if title is not None or lines.lines:
                    grids[title or ""] = lines.lines
                title = section["title"].strip()
                lines = Lines(title, bounds)
                continue
            bounds.filled_cell(lines.title, number, max(cells) + 1)
            lines.add(number, cells)
    except csv.Error as error:
        raise SheetImportError(
            [SheetError(file, f"CSV illisible à la ligne {reader.line_num} ({error})")]
        ) from None
    grids[title or ""] = lines.lines
    return grids
