"""The cells of an XLSX or ODS workbook, read from its XML as it streams, within bounds
(docs/feuille.md §8.5): no library builds the whole workbook first.

A workbook of a few kilobytes may describe millions of cells: an ODS row repeated a million
times, a cell repeated to the 16,384th column, an XLSX that lists one sheet part a thousand times
or numbers its only row 5,000. So the readers here (the limits are ``cells.MAX_*``):

- count the sheets as they are listed (XLSX: ``workbook.xml``, before any sheet is read; ODS: the
  tables of ``content.xml`` as they come) and refuse more than ``MAX_SHEETS``;
- read only the sheets asked for (``grid.Wanted``), once each; in ODS, stop after the last one,
  and pass the others over with handlers that only count their elements;
- keep only filled cells and lines: a blank line is never stored (its number is skipped), blank
  cells only up to a filled one;
- count a repeated row or cell as what it expands to, and refuse, before expanding it, a filled
  cell beyond ``MAX_COLUMNS``, a filled line beyond ``MAX_LINES``, more than ``MAX_CELLS`` cells
  kept over the sheets read, a text longer than ``MAX_CELL_CHARACTERS``, more than
  ``MAX_ELEMENTS`` XML elements in the sheets read;
- refuse any DTD (``<!DOCTYPE``) or entity declaration (no spreadsheet writes one: it is how an
  « entity expansion » or an external entity, XXE, gets in), as defusedxml would, with expat
  parsing in C and calling back only for elements.

Values are read as openpyxl and odfpy read them (same numbers, dates, texts), formulas as
``Formula``. Each refusal is a ``SheetImportError`` whose French message names the limit.
"""

import contextlib
import datetime
import posixpath
import pyexpat
import re

from championship.sheets.errors import SheetError, SheetImportError
from championship.sheets.grid import Formula, Lines, plain

CHUNK = 64 * 1024  # bytes of XML fed to the parser at a time

OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
XLSX_MAX_STYLES = 64_000  # cell formats a workbook may hold (Excel's own limit)


class Stop(Exception):
    """Raised by a handler once it has read what it needed."""


class _Declaration(Exception):
    """A DTD or an entity declared: refused."""


def _refuse_declaration(*_args):
    raise _Declaration


def parse(file, stream, start, end=None, data=None, setup=None):
    """Feed ``stream`` (a file object) to expat with the handlers given (``setup`` receives the
    parser first); stops quietly on ``Stop``; a DTD or an entity declaration, or malformed XML,
    refuses the file."""
    parser = pyexpat.ParserCreate(namespace_separator=" ")

    parser.buffer_text = True
    parser.SetParamEntityParsing(pyexpat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.StartDoctypeDeclHandler = _refuse_declaration
    parser.EntityDeclHandler = _refuse_declaration
    parser.UnparsedEntityDeclHandler = _refuse_declaration
    parser.ExternalEntityRefHandler = _refuse_declaration
    parser.StartElementHandler = start
    if end is not None:
        parser.EndElementHandler = end
    if data is not None:
        parser.CharacterDataHandler = data
    if setup is not None:
        setup(parser)
    try:
        while True:
            chunk = stream.read(CHUNK)
            parser.Parse(chunk, not chunk)
            if not chunk:
                break
    except Stop:
        return
    except _Declaration:
        raise SheetImportError(
            [
                SheetError(
                    file,
                    "classeur refusé : son XML déclare une DTD ou des entités (« <!DOCTYPE », « <!ENTITY »), "
                    "ce qu'aucun tableur n'écrit",
                )
            ]
        ) from None


# --- XLSX ---------------------------------------------------------------------------------------------


def _local(name):
    return name.rpartition(" ")[2]


def _attr(attrs, local):
    """An attribute by its local name, whatever its namespace (``r:id``, ``id``)."""
    if local in attrs:
        return attrs[local]
    for key, value in attrs.items():
        if key.endswith(" " + local):
            return value
    return None


def _relationships(file, archive, path):
    """{Id: (type, target part)} of a ``.rels`` part (targets made absolute inside the ZIP)."""
    rels_path = posixpath.join(posixpath.dirname(path), "_rels", posixpath.basename(path) + ".rels")
    base = posixpath.dirname(path)
    found = {}

    def start(name, attrs):
        if _local(name) == "Relationship":
            target = attrs.get("Target", "")
            if attrs.get("TargetMode") == "External":
                return
            part = (
                target.lstrip("/")
                if target.startswith("/")
                else posixpath.normpath(posixpath.join(base, target))
            )
            found[attrs.get("Id")] = (attrs.get("Type", ""), part)

    if rels_path in archive.namelist():
        with archive.open(rels_path) as stream:
            parse(file, stream, start)
    return found


def _workbook_part(file, archive):
    rels = _relationships(file, archive, "")
    for kind, part in rels.values():
        if kind.endswith("/officeDocument"):
            return part
    return "xl/workbook.xml"


def _xlsx_sheets(file, archive, path, bounds):
    """[(title, r:id)] of the workbook's sheet list, and whether it counts dates from 1904; more
    than ``max_sheets`` refused as soon as counted."""
    sheets, state = [], {"date1904": False}

    def start(name, attrs):
        local = _local(name)
        if local == "sheet":
            sheets.append((attrs.get("name", ""), _attr(attrs, "id")))
            bounds.sheet_count(len(sheets))
        elif local == "workbookPr":
            state["date1904"] = attrs.get("date1904", "").lower() in ("1", "true")

    with archive.open(path) as stream:
        parse(file, stream, start)
    return sheets, state["date1904"]


def _xlsx_date_styles(file, archive, path):
    """(styles whose number format is a date, styles whose format is a duration), by index in
    ``cellXfs``, as openpyxl tells them."""
    from openpyxl.styles.numbers import builtin_format_code, is_date_format, is_timedelta_format

    custom, dates, durations, kinds = {}, set(), set(), {}
    state = {"in_xfs": False, "count": 0}
    if path is None or path not in archive.namelist():
        return dates, durations

    def start(name, attrs):
        local = _local(name)
        if local == "numFmt":
            with contextlib.suppress(ValueError):
                custom[int(attrs.get("numFmtId", -1))] = attrs.get("formatCode", "")
        elif local == "cellXfs":
            state["in_xfs"] = True
        elif local == "xf" and state["in_xfs"]:
            index = state["count"]
            state["count"] += 1
            if index >= XLSX_MAX_STYLES:
                raise SheetImportError(
                    [
                        SheetError(
                            file,
                            f"classeur de plus de {XLSX_MAX_STYLES} formats de cellule "
                            f"({XLSX_MAX_STYLES} au plus)",
                        )
                    ]
                )
            try:
                number_format = int(attrs.get("numFmtId", 0))
            except ValueError:
                number_format = 0
            if number_format not in kinds:
                code = builtin_format_code(number_format)
                code = custom.get(number_format, code)
                kinds[number_format] = (is_date_format(code), is_timedelta_format(code))
            is_date, is_duration = kinds[number_format]
            if is_date:
                dates.add(index)
            if is_duration:
                durations.add(index)

    def end(name):
        if _local(name) == "cellXfs":
            state["in_xfs"] = False

    with archive.open(path) as stream:
        parse(file, stream, start, end)
    return dates, durations


class _Shared:
    """A cell that holds a string of the shared table, resolved once the sheets are read."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def _shared_strings(file, archive, path, wanted):
    """{index: text} of the shared strings ``wanted`` (the others are passed over)."""
    strings = {}
    if not wanted:
        return strings
    if path is None or path not in archive.namelist():
        raise SheetImportError([SheetError(file, "fichier illisible : textes partagés introuvables")])
    state = {"index": -1, "keep": False, "text": False, "skip": 0, "parts": []}

    def start(name, attrs):
        local = _local(name)
        if local == "si":
            state["index"] += 1
            state["keep"] = state["index"] in wanted
            state["parts"] = []
        elif local == "rPh":
            state["skip"] += 1
        elif local == "t" and state["keep"] and not state["skip"]:
            state["text"] = True

    def end(name):
        local = _local(name)
        if local == "t":
            state["text"] = False
        elif local == "rPh":
            state["skip"] -= 1
        elif local == "si" and state["keep"]:
            strings[state["index"]] = "".join(state["parts"]).replace("x005F_", "")
            state["keep"] = False
            if len(strings) == len(wanted):
                raise Stop

    def data(text):
        if state["text"]:
            state["parts"].append(text)

    with archive.open(path) as stream:
        parse(file, stream, start, end, data)
    return strings


COORDINATE = re.compile(r"^\$?([A-Za-z]{1,10})\$?(\d*)$")


def _column_of(coordinate):
    match = COORDINATE.match(coordinate)
    if not match:
        raise ValueError(f"coordonnée illisible : {coordinate}")
    column = 0
    for letter in match.group(1).upper():
        column = column * 26 + ord(letter) - 64
    return column


class _XlsxSheet:
    """The parser's handlers while one worksheet part is read: its filled lines, shared strings
    left as ``_Shared``."""

    def __init__(self, title, bounds, context):
        from openpyxl.utils.datetime import from_excel, from_ISO8601

        self.title, self.bounds, self.context = title, bounds, context
        self.convert = (from_excel, from_ISO8601)
        self.lines = Lines(title, bounds)
        self.row = 0
        self.column = 0
        self.cells = None  # {index: value} of the line being read
        self.cell = None  # what is known of the cell being read
        self.collect = None  # the list its text goes to
        self.skip = 0  # inside a phonetic run (``rPh``), whose text is no value

    def start(self, name, attrs):
        bounds = self.bounds
        bounds.elements += 1
        if bounds.elements > bounds.limits.elements:
            bounds.too_many_elements(self.title, self.row)
        local = name.rpartition(" ")[2]
        if local == "c":
            if self.cells is not None:
                coordinate = attrs.get("r")
                self.column = _column_of(coordinate) if coordinate else self.column + 1
                style = attrs.get("s")
                self.cell = {"type": attrs.get("t", "n"), "style": int(style) if style else 0}
        elif local == "row":
            number = attrs.get("r")
            if number is not None:
                value = float(number)
                if not value.is_integer():
                    raise ValueError(f"numéro de ligne illisible : {number}")
                self.row = int(value)
            else:
                self.row += 1
            self.column, self.cells = 0, {}
        elif self.cell is not None:
            cell = self.cell
            if local in ("v", "f"):
                cell[local] = self.collect = []
            elif local == "is":
                cell["is"] = []
            elif local == "rPh":
                self.skip += 1
            elif local == "t" and "is" in cell and not self.skip:
                self.collect = cell["is"]

    def data(self, text):
        if self.collect is not None:
            self.collect.append(text)

    def end(self, name):
        local = name.rpartition(" ")[2]
        if local in ("v", "f", "t"):
            self.collect = None
        elif local == "c" and self.cell is not None:
            value = _xlsx_value(self.cell, *self.context, *self.convert)
            self.cell = None
            if isinstance(value, str):
                self.bounds.characters(self.title, self.row, len(value))
                value = plain(value)
            elif not isinstance(value, _Shared | Formula):
                value = plain(value)
            if value is not None:
                self.bounds.filled_cell(self.title, self.row, self.column)
                self.bounds.filled_line(self.title, self.row)
                self.cells[self.column - 1] = value
        elif local == "row" and self.cells is not None:
            self.lines.add(self.row, self.cells)
            self.cells = None
        elif local == "rPh":
            self.skip -= 1


def _xlsx_sheet(file, archive, path, title, bounds, context):
    """The filled lines of one worksheet part (shared strings left as ``_Shared``)."""
    sheet = _XlsxSheet(title, bounds, context)
    with archive.open(path) as stream:
        parse(file, stream, sheet.start, sheet.end, sheet.data)
    return sheet.lines.lines


def _xlsx_value(cell, dates, durations, epoch, from_excel, from_iso):
    """A cell's value as openpyxl reads it (``data_only=False``)."""
    if "f" in cell:  # a formula stays a formula (its text), never the result saved with it
        return Formula("=" + "".join(cell["f"]))
    kind = cell["type"]
    if kind == "inlineStr":
        return "".join(cell["is"]) if "is" in cell else None
    text = "".join(cell.get("v", ()))
    if not text:
        return None
    if kind == "n":
        number = float(text) if ("." in text or "e" in text.lower()) else int(text)
        if cell["style"] in dates:
            try:
                number = from_excel(number, epoch, timedelta=cell["style"] in durations)
            except (OverflowError, ValueError):
                return "#VALUE!"
        if isinstance(number, datetime.timedelta):  # as before: a duration is refused, shown as text
            return Formula(str(number))
        return number
    if kind == "s":
        return _Shared(int(text))
    if kind == "b":
        return bool(int(text))
    if kind == "d":
        return from_iso(text)
    return text  # "str", "e" (#N/A…)


def read_xlsx(file, archive, sheets, bounds):
    """{title: [Line]} of the worksheets ``choose`` picks, in the workbook's order."""
    workbook = _workbook_part(file, archive)
    listed, date1904 = _xlsx_sheets(file, archive, workbook, bounds)
    rels = _relationships(file, archive, workbook)
    worksheets = [
        (title, rels[rid][1]) for title, rid in listed if rid in rels and rels[rid][0].endswith("/worksheet")
    ]
    parts = {kind.rpartition("/")[2]: part for kind, part in rels.values()}
    titles = [title for title, _part in worksheets]
    wanted = set(sheets.choose(titles)) if sheets is not None else set(titles)
    epoch = datetime.datetime(1904, 1, 1) if date1904 else datetime.datetime(1899, 12, 30)
    context = (*_xlsx_date_styles(file, archive, parts.get("styles")), epoch)
    grids = {}
    for title, part in worksheets:
        if title in wanted and title not in grids:
            grids[title] = _xlsx_sheet(file, archive, part, title, bounds, context)
    needed = {
        value.index
        for lines in grids.values()
        for line in lines
        for value in line.cells
        if isinstance(value, _Shared)
    }
    strings = _shared_strings(file, archive, parts.get("sharedStrings"), needed)
    for title, lines in grids.items():
        for line in lines:
            if any(isinstance(value, _Shared) for value in line.cells):
                cells = []
                for value in line.cells:
                    if isinstance(value, _Shared):
                        bounds.characters(title, line.number, len(strings[value.index]))
                        value = plain(strings[value.index])
                    cells.append(value)
                while cells and cells[-1] is None:
                    cells.pop()
                line.cells = cells
        grids[title] = [line for line in lines if not line.blank]
    return grids
