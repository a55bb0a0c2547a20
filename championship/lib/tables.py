"""The base of the site's tables (django-tables2): whatever exports them (the standings CSV of
the site and of the `standings` command) gets cells that are safe to open in a spreadsheet, and
on a phone each row keeps its key cells on one line and stacks the others under it."""

import django_tables2 as tables
from django_tables2.utils import Accessor, AttributeDict

from federation.validators import spreadsheet_cell


class SpreadsheetSafeTable(tables.Table):
    """Exports escape each text cell a spreadsheet would run as a formula (OWASP, CSV injection):
    a name stored before the entry rules comes out as text; numbers stay numbers.

    `stacked` names the columns that a narrow screen shows under the row's key cells rather than
    beside them (site.css, `table.stack`); each of their cells carries its header as `data-label`.
    `main` names the key column that takes the line's remaining width. Every cell has the class
    `col-<column name>`.

    `player_pk` is the accessor of the player a row is about (a table of players): the row then
    carries `data-player="<pk>"`, which marks it for that player when he reads the page
    (`federation.my_rows`), whoever the table was rendered and cached for."""

    stacked = ()
    main = None
    player_pk = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.player_pk is not None:
            accessor = Accessor(self.player_pk)
            self.row_attrs = AttributeDict(
                {**self.row_attrs, "data-player": lambda record: accessor.resolve(record)}
            )
        for bound in self.columns:
            if bound.name not in self.stacked:
                continue
            column = bound.column
            td = dict(column.attrs.get("td", column.attrs.get("cell", {})))
            td.setdefault("data-label", bound.header)
            column.attrs = {**column.attrs, "td": td}

    def get_column_class_names(self, classes_set, bound_column):
        classes = set(super().get_column_class_names(classes_set, bound_column))
        classes.add(f"col-{bound_column.name}")
        if bound_column.name in self.stacked:
            classes.add("more")
        if bound_column.name == self.main:
            classes.add("key-main")
        return classes

    def as_values(self, exclude_columns=None):
        for row in super().as_values(exclude_columns=exclude_columns):
            yield [spreadsheet_cell(value) for value in row]
