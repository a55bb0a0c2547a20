"""The errors of a sheet, in French: each names the file, then the deal and the field when known."""

from championship.models import Round


class SheetError(Exception):
    """One error of one sheet: ``demo.json, donne 3, champ « points » : 92 n'est pas entre 0 et 91``."""

    def __init__(self, file, message, *, deal=None, field=None):
        self.file = file
        self.message = message
        self.deal = deal
        self.field = field
        super().__init__(str(self))

    @property
    def where(self):
        """``demo.json, donne 3, champ « points »``: the file, then the deal and field when known."""
        where = [self.file]
        if self.deal is not None:
            where.append(f"donne {self.deal}")
        if self.field is not None:
            where.append(f"champ « {self.field} »")
        return ", ".join(where)

    def __str__(self):
        return f"{self.where} : {self.message}"


class CellError(SheetError):
    """An error at a cell: ``manche.xlsx, feuille Donnes, ligne 7, colonne Points : …``."""

    def __init__(self, file, message, *, sheet, line=None, column=None, heading=None, deal=None, field=None):
        self.sheet = sheet
        self.line = line
        self.column = column
        self.heading = heading
        super().__init__(file, message, deal=deal, field=field)

    @property
    def where(self):
        where = [self.file] + ([f"feuille {self.sheet}"] if self.sheet else [])
        if self.line is not None:
            where.append(f"ligne {self.line}" + (f" ({self.heading})" if self.heading else ""))
        if self.column is not None:
            where.append(f"colonne {self.column}")
        return ", ".join(where)


class SheetImportError(Exception):
    """An import refused: ``errors`` lists every ``SheetError`` found; nothing was written."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(self.messages))

    @property
    def messages(self):
        return [str(error) for error in self.errors]


def stage_phrase(stage, table, number):
    """« la manche 3 », « la manche 1 de la table A des play-offs », « la manche 1 de la finale »."""
    if stage == Round.PLAYOFF:
        return f"la manche {number} de la table {table} des play-offs"
    if stage == Round.FINAL:
        return f"la manche {number} de la finale"
    return f"la manche {number}"
