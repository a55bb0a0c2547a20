"""The cells of an OpenDocument spreadsheet (.ods), read as a stream of XML events within the
reader's bounds (see championship.sheets.xmlcells)."""

import datetime

from championship.sheets.errors import SheetImportError
from championship.sheets.grid import Bounds, Formula, Lines, normalize, plain
from championship.sheets.xmlcells import OFFICE, TABLE, TEXT, Stop, parse

T_LINE_BREAK, T_TAB, T_SPACES = f"{TEXT} line-break", f"{TEXT} tab", f"{TEXT} s"
A_TYPE, A_VALUE = f"{OFFICE} value-type", f"{OFFICE} value"
A_DATE, A_BOOLEAN = f"{OFFICE} date-value", f"{OFFICE} boolean-value"
T_SPREADSHEET = f"{OFFICE} spreadsheet"


T_TABLE = f"{TABLE} table"


T_ROW = f"{TABLE} table-row"


T_CELLS = {f"{TABLE} table-cell", f"{TABLE} covered-table-cell"}


T_ROW_GROUPS = {f"{TABLE} table-rows", f"{TABLE} table-header-rows", f"{TABLE} table-row-group"}


T_P = f"{TEXT} p"


A_NAME = f"{TABLE} name"


A_ROWS = f"{TABLE} number-rows-repeated"


A_COLUMNS = f"{TABLE} number-columns-repeated"


A_FORMULA = f"{TABLE} formula"


A_SPACES = f"{TEXT} c"


def _repeat(attrs, key):
    value = int(attrs.get(key) or 1)
    if value < 1:
        raise ValueError(f"répétition illisible : {value}")
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
