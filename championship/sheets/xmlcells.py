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
from championship.sheets.grid import Bounds, Formula, Lines, normalize, plain

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
                    "classeur refusé : son XML déclare une DTD ou des entités (« <!DOCTYPE », « <!ENTITY »), "
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
        raise SheetImportError([SheetError(file, "fichier illisible : textes partagés introuvables")])
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
        raise ValueError(f"coordonnée illisible : {coordinate}")
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
                    raise ValueError(f"numéro de ligne illisible : {number}")
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


# --- ODS ----------------------------------------------------------------------------------------------

T_SPREADSHEET = f"{OFFICE} spreadsheet"
T_TABLE = f"{TABLE} table"
T_ROW = f"{TABLE} table-row"
T_CELLS = {f"{TABLE} table-cell", f"{TABLE} covered-table-cell"}
T_ROW_GROUPS = {f"{TABLE} table-rows", f"{TABLE} table-header-rows", f"{TABLE} table-row-group"}
T_P = f"{TEXT} p"
T_LINE_BREAK, T_TAB, T_SPACES = f"{TEXT} line-break", f"{TEXT} tab", f"{TEXT} s"
A_NAME = f"{TABLE} name"
A_ROWS = f"{TABLE} number-rows-repeated"
A_COLUMNS = f"{TABLE} number-columns-repeated"
A_FORMULA = f"{TABLE} formula"
A_TYPE, A_VALUE = f"{OFFICE} value-type", f"{OFFICE} value"
A_DATE, A_BOOLEAN = f"{OFFICE} date-value", f"{OFFICE} boolean-value"
A_SPACES = f"{TEXT} c"


def _repeat(attrs, key):
    value = int(attrs.get(key) or 1)
    if value < 1:
        raise ValueError(f"répétition illisible : {value}")
    return value


class _OdsTable:
    """One table being read: while it is, the parser calls its own handlers, which follow the
    line, the cell and the paragraph being read (``level``: elements open inside the table)."""

    def __init__(self, reader, title, bounds, tentative=False):
        self.reader = reader
        self.title = title
        self.bounds = bounds
        self.tentative = tentative
        self.refusal = None  # a tentative table's refusal, kept for the end
        self.lines = Lines(title, bounds)
        self.level = 0
        self.containers = {0}  # levels of the table and of its row groups
        self.row_level = None
        self.row = 0  # lines before the one being read
        self.row_repeat = 1
        self.cells = None  # {index: value} of the line being read
        self.column = 0  # cells of the line before the one being read, blank ones included
        self.cell = None  # attributes of the cell being read
        self.cell_level = None
        self.paragraphs = None
        self.p_level = None  # level of the paragraph being read
        self.length = 0
        if tentative:
            reader.handlers(self.guarded(self.start), self.guarded(self.end), self.guarded(self.data))
        else:
            reader.handlers(self.start, self.end, self.data)

    def guarded(self, method):
        """A handler of a tentative table: a refusal is kept, the lines dropped, and the rest of
        the table passed over."""

        def handler(*args):
            try:
                method(*args)
            except SheetImportError as error:
                self.refusal, self.lines.lines = error, []
                self.reader.skip(self, self.level)

        return handler

    def start(self, name, attrs):
        self.level += 1
        level = self.level
        bounds = self.bounds
        bounds.elements += 1
        if bounds.elements > bounds.limits.elements:
            bounds.too_many_elements(self.title, self.row + 1)
        if self.cell is not None:
            if name == T_P and level == self.cell_level + 1:
                self.paragraphs.append([])
                self.p_level = level
            elif self.p_level is not None:
                if name == T_LINE_BREAK:
                    self.text("\n")
                elif name == T_TAB:
                    self.text("\t")
                elif name == T_SPACES:
                    count = int(attrs.get(A_SPACES) or 1)
                    bounds.characters(self.title, self.row + 1, self.length + count)
                    self.text(" " * count)
        elif self.row_level is not None:
            if level == self.row_level + 1 and name in T_CELLS:
                self.cell, self.cell_level, self.paragraphs, self.p_level = attrs, level, [], None
                self.length = 0
        elif level - 1 in self.containers:
            if name == T_ROW:
                self.row_level, self.row_repeat = level, _repeat(attrs, A_ROWS)
                self.cells, self.column = {}, 0
            elif name in T_ROW_GROUPS:
                self.containers.add(level)

    def text(self, text):
        self.length += len(text)
        self.bounds.characters(self.title, self.row + 1, self.length)
        self.paragraphs[-1].append(text)

    def data(self, text):
        if self.p_level is not None:
            self.text(text)

    def end(self, name):
        level = self.level
        if level == 0:  # the table's own end
            self.reader.table_done(self)
            return
        self.level -= 1
        if level == self.p_level:
            self.p_level = None
        elif level == self.cell_level:
            self.end_cell()
        elif level == self.row_level:
            self.lines.add(self.row + 1, self.cells, self.row_repeat)
            self.row, self.row_level, self.cells = self.row + self.row_repeat, None, None
        elif name in T_ROW_GROUPS:
            self.containers.discard(level)

    def end_cell(self):
        attrs, paragraphs = self.cell, self.paragraphs
        self.cell = self.cell_level = self.paragraphs = self.p_level = None
        if not attrs and not paragraphs:  # a blank cell written out
            self.column += 1
            return
        repeat = _repeat(attrs, A_COLUMNS)
        value = _ods_value(attrs, paragraphs)
        if value is not None:
            number = self.row + 1
            self.bounds.filled_cell(self.title, number, self.column + 1, repeat)
            self.bounds.filled_line(self.title, number, self.row_repeat)
            for index in range(self.column, self.column + repeat):
                self.cells[index] = value
        self.column += repeat


class _OdsReader:
    """One pass over ``content.xml``: the tables counted as they come, those to read read by an
    ``_OdsTable``, the others passed over by handlers that only count their elements."""

    def __init__(self, file, sheets, bounds):
        self.file = file
        self.keys = sheets.keys() if sheets is not None else None
        self.else_first = sheets is not None and sheets.else_first
        self.bounds = bounds
        self.grids, self.taken, self.first = {}, set(), None
        self.depth = 0
        self.spreadsheet = None
        self.count = 0
        self.parser = None
        self.skipped = None  # the table being passed over (None: one that is not read)
        self.skip_level = 0

    def setup(self, parser):
        self.parser = parser
        self.outside()

    def handlers(self, start, end, data):
        self.parser.StartElementHandler = start
        self.parser.EndElementHandler = end
        self.parser.CharacterDataHandler = data

    def outside(self):
        self.handlers(self.start, self.end, None)

    def start(self, name, attrs):
        self.depth += 1
        if name == T_TABLE and self.spreadsheet == self.depth - 1:
            self.count += 1
            self.bounds.sheet_count(self.count)
            title = attrs.get(A_NAME, "")
            key = normalize(title)
            if self.keys is None or (key in self.keys and key not in self.taken):
                self.taken.add(key)
                _OdsTable(self, title, self.bounds)
            elif self.count == 1 and self.else_first:
                _OdsTable(self, title, Bounds(self.file, self.bounds.limits), tentative=True)
            else:
                self.skip(None, 0)
        elif name == T_SPREADSHEET:
            self.spreadsheet = self.depth

    def end(self, name):
        self.depth -= 1
        if name == T_SPREADSHEET:
            raise Stop

    def skip(self, table, level):
        """Pass over the rest of a table (``level`` elements open inside it)."""
        self.skipped, self.skip_level = table, level
        self.handlers(self.skip_start, self.skip_end, None)

    def skip_start(self, _name, _attrs):
        self.skip_level += 1

    def skip_end(self, _name):
        if self.skip_level:
            self.skip_level -= 1
        else:
            self.table_done(self.skipped)

    def table_done(self, table):
        self.depth -= 1
        self.outside()
        if table is not None and table.tentative:
            self.first = table
        elif table is not None:
            self.grids[table.title] = table.lines.lines
        if self.keys is not None and self.taken >= self.keys:
            raise Stop

    def result(self):
        if not self.grids and self.first is not None:
            if self.first.refusal is not None:
                raise self.first.refusal
            return {self.first.title: self.first.lines.lines}
        return self.grids


def read_ods(file, archive, sheets, bounds):
    """{title: [Line]} of the tables ``sheets`` picks, in the workbook's order, read in one pass
    over ``content.xml`` that stops once the last is read. With ``else_first``, the first table
    is read in case none of the titles comes: on its own bounds, its refusal kept for the end,
    when it turns out to be the one read."""
    reader = _OdsReader(file, sheets, bounds)
    with archive.open("content.xml") as stream:
        parse(file, stream, reader.start, reader.end, setup=reader.setup)
    return reader.result()


def _ods_value(attrs, paragraphs):
    """A cell's value as odfpy's reader took it: a formula, a number, a date, a boolean, else the
    text of its paragraphs (one a line)."""
    if A_FORMULA in attrs:
        return Formula(attrs[A_FORMULA])
    kind = attrs.get(A_TYPE)
    if kind in ("float", "percentage", "currency"):
        text = attrs.get(A_VALUE, "")
        try:
            return plain(float(text))
        except ValueError:
            return text
    if kind == "date":
        text = attrs.get(A_DATE, "")
        try:
            return datetime.date.fromisoformat(text[:10])
        except ValueError:
            return text
    if kind == "boolean":
        return attrs.get(A_BOOLEAN) == "true"
    if not paragraphs:
        return None
    return plain("\n".join("".join(parts) for parts in paragraphs))
