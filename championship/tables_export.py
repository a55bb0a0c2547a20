"""The base of the site's tables (django-tables2): whatever exports them (the standings CSV of
the site and of the `standings` command) gets cells that are safe to open in a spreadsheet."""

import django_tables2 as tables

from federation.validators import spreadsheet_cell


class SpreadsheetSafeTable(tables.Table):
    """Exports escape each text cell a spreadsheet would run as a formula (OWASP, CSV injection):
    a name stored before the entry rules comes out as text; numbers stay numbers."""

    def as_values(self, exclude_columns=None):
        for row in super().as_values(exclude_columns=exclude_columns):
            yield [spreadsheet_cell(value) for value in row]
