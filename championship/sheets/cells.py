"""Spreadsheet files (XLSX, ODS, CSV) read as grids of values, never as formulas (docs/feuille.md §8).

A file becomes ``{sheet title: [Line]}``: each line keeps its number in the file (1-based, as the
spreadsheet shows it) and its cells' values: text, int, float, ``datetime.date``, or ``None`` when
blank. A cell holding a formula is never computed nor read through the result its spreadsheet
saved: it is a ``Formula`` (its text), which the reader refuses, naming the cell. A CSV has no
formula: a text beginning with « = » is read as the text it is.

The format is told by the file's extension, else by its content (a ZIP holding an OpenDocument
spreadsheet or an Office Open XML workbook; JSON begins with « { »; anything else is CSV).
"""

import csv
import datetime
import io
import re
import zipfile
from dataclasses import dataclass
from pathlib import PurePath

from championship.sheets.errors import SheetError, SheetImportError

JSON, XLSX, ODS, CSV = "json", "xlsx", "ods", "csv"
SPREADSHEET_FORMATS = (XLSX, ODS, CSV)
# What a spreadsheet may hold once unzipped: a filled sheet is a few hundred kilobytes; a ZIP
# that inflates beyond this is refused before it is parsed (a « ZIP bomb »).
MAX_UNZIPPED_BYTES = 30_000_000
MAX_COLUMNS = 200  # columns read per line; beyond, ignored (a repeated blank column in ODS)
MAX_LINES = 5_000  # lines read per sheet
CSV_SECTION = re.compile(r"^\[(?P<title>[^\]]+)\]$")


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
                    f"format .{suffix} non pris en charge : enregistrer la feuille en .xlsx, .ods ou .csv",
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


def read_grids(file, data, fmt):
    """``{sheet title: [Line]}`` of a spreadsheet file, in the order of its sheets."""
    if fmt == CSV:
        return _read_csv(file, data)
    _check_zip(file, data)
    try:
        return _read_xlsx(data) if fmt == XLSX else _read_ods(data)
    except SheetImportError:
        raise
    except Exception:  # a damaged file: whatever the library raises, the secretary is told so
        kind = "classeur Excel (.xlsx)" if fmt == XLSX else "classeur OpenDocument (.ods)"
        raise SheetImportError(
            [SheetError(file, f"fichier illisible : ce n'est pas un {kind} valide")]
        ) from None


def _check_zip(file, data):
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unzipped = sum(item.file_size for item in archive.infolist())
    except zipfile.BadZipFile:
        raise SheetImportError(
            [SheetError(file, "fichier illisible : ce n'est pas un classeur valide")]
        ) from None
    if unzipped > MAX_UNZIPPED_BYTES:
        raise SheetImportError([SheetError(file, "classeur trop gros une fois décompressé")])


def _plain(value):
    """A cell's value as the reader takes it: whole floats as ints, datetimes as dates."""
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, str) and not value.strip():
        return None
    return value


def _trim(cells):
    while cells and cells[-1] is None:
        cells.pop()
    return cells


def _read_xlsx(data):
    from openpyxl import load_workbook

    # data_only=False: a formula stays a formula (its text), never replaced by a saved result
    book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    grids = {}
    try:
        for sheet in book.worksheets:
            lines = []
            for number, row in enumerate(sheet.iter_rows(max_col=MAX_COLUMNS), start=1):
                if number > MAX_LINES:
                    break
                cells = []
                for cell in row:
                    value = getattr(cell, "value", None)
                    if getattr(cell, "data_type", None) == "f" or not isinstance(
                        value, str | int | float | datetime.date | datetime.time | type(None)
                    ):
                        value = Formula(str(value))
                    cells.append(_plain(value))
                lines.append(Line(number, _trim(cells)))
            grids[sheet.title] = lines
    finally:
        book.close()
    return grids


def _read_ods(data):
    from odf import opendocument, teletype
    from odf.namespaces import OFFICENS, TABLENS
    from odf.table import Table

    document = opendocument.load(io.BytesIO(data))
    grids = {}
    for table in document.spreadsheet.getElementsByType(Table):
        lines, number = [], 0
        for row in _children(table, "table-row", TABLENS):
            repeat = min(int(row.attributes.get((TABLENS, "number-rows-repeated"), 1)), MAX_LINES)
            cells = []
            for cell in row.childNodes:
                if cell.qname[1] not in ("table-cell", "covered-table-cell") or len(cells) >= MAX_COLUMNS:
                    continue
                columns = int(cell.attributes.get((TABLENS, "number-columns-repeated"), 1))
                value = _ods_value(cell, teletype, OFFICENS, TABLENS)
                count = min(columns, MAX_COLUMNS - len(cells))
                cells.extend([value] * count)
            cells = _trim(cells)
            for _ in range(repeat if cells else 1):
                number += 1
                lines.append(Line(number, list(cells)))
            if not cells:
                number += repeat - 1
            if number > MAX_LINES:
                break
        grids[table.getAttribute("name")] = lines
    return grids


def _children(element, local_name, namespace):
    """The rows of a table, those inside row groups and header rows included, in order."""
    for child in element.childNodes:
        if child.qname == (namespace, local_name):
            yield child
        elif child.qname[0] == namespace and child.qname[1] in (
            "table-rows",
            "table-header-rows",
            "table-row-group",
        ):
            yield from _children(child, local_name, namespace)


def _ods_value(cell, teletype, officens, tablens):
    attributes = cell.attributes
    if (tablens, "formula") in attributes:
        return Formula(attributes[(tablens, "formula")])
    kind = attributes.get((officens, "value-type"))
    if kind in ("float", "percentage", "currency"):
        text = attributes.get((officens, "value"), "")
        try:
            return _plain(float(text))
        except ValueError:
            return text
    if kind == "date":
        text = attributes.get((officens, "date-value"), "")
        try:
            return datetime.date.fromisoformat(text[:10])
        except ValueError:
            return text
    if kind == "boolean":
        return attributes.get((officens, "boolean-value")) == "true"
    paragraphs = [teletype.extractText(node) for node in cell.childNodes if node.qname[1] == "p"]
    return _plain("\n".join(paragraphs)) if paragraphs else None


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


def _read_csv(file, data):
    """A CSV, its cells as text; lines ``[Titre]`` open the sheets of a round (docs/feuille.md §8)."""
    text = _decode(file, data)
    grids, title, lines = {}, None, []
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        for row in reader:
            number = reader.line_num
            if number > MAX_LINES:
                break
            cells = _trim([_plain(value) for value in row[:MAX_COLUMNS]])
            first = cells[0] if len(cells) == 1 and isinstance(cells[0], str) else ""
            section = CSV_SECTION.match(first.strip())
            if section:
                if title is not None or any(not line.blank for line in lines):
                    grids[title or ""] = lines
                title, lines = section["title"].strip(), []
                continue
            lines.append(Line(number, cells))
    except csv.Error as error:
        raise SheetImportError(
            [SheetError(file, f"CSV illisible à la ligne {reader.line_num} ({error})")]
        ) from None
    grids[title or ""] = lines
    return grids
