"""A round sheet as a spreadsheet (XLSX, ODS or CSV), read into the JSON sheet's structure
(docs/feuille.md §8) so that the one model (``schema.Sheet``) and the same checks validate it.

The layout, in French, is shared by the downloadable template, the round export and the reader:

- « Manche »: a line per heading (Saison, Numéro, Date, Lieu, Phase, Table, compte-rendu);
- « Joueurs »: Joueur, Couleur, Total papier (4 or 5 lines, in seating order);
- « Donnes »: a line per deal (Donneur, Type, Preneur, Contrat, Roi appelé, Partenaire, Bouts,
  Points, Poignées, Petit au bout, Chelem, Misères);
- « Bonus et malus »: Joueur, Code, Points, Note.

Any other sheet (the export's « Parts », « Totaux », « Championnat ») is ignored on reading. The
paper totals are ``expected_totals`` when the sheet has deals, the round's ``totals`` (a
totals-only round) when it has none. Every error of the model is given back at its cell:
``manche.xlsx, feuille Donnes, ligne 7, colonne Points : 92 n'est pas entre 0 et 91``.
"""

import datetime
import re

from championship.sheets.cells import Formula, read_grids
from championship.sheets.errors import CellError, SheetError, SheetImportError
from championship.sheets.grid import Wanted, normalize
from scoring.vocabulary import COLOUR_LABELS as COLOUR_NAMES
from scoring.vocabulary import (
    CONTRACT_ALIASES,
    CONTRACT_LABELS,
    KIND_LABELS,
    POIGNEE_LABELS,
    SIDE_LABELS,
    STAGE_LABELS,
    SUIT_LABELS,
)

MANCHE, JOUEURS, DONNES, BONUS = "Manche", "Joueurs", "Donnes", "Bonus et malus"
PARTS, TOTAUX, CHAMPIONNAT = "Parts", "Totaux", "Championnat"

# The « Manche » sheet: heading (column A), value (column B), the sheet key it fills.
MANCHE_HEADERS = ("Rubrique", "Valeur", "Aide")
MANCHE_ROWS = (
    ("Saison", "season", "deux années : 2010-2011"),
    ("Numéro", "number", "numéro de la manche dans la saison"),
    ("Date", "date", "AAAA-MM-JJ ou JJ/MM/AAAA"),
    ("Lieu", "place", "facultatif"),
    ("Phase", "stage", "saison régulière (vide), play-off ou finale"),
    ("Table", "table", "A ou B, en play-off seulement"),
    ("Compte-rendu : auteur", "report.author", "facultatif : un joueur assis"),
    ("Compte-rendu : rendu le", "report.filed", "date de dépôt ; vide : pas encore rendu"),
    ("Compte-rendu : texte", "report.text", "le récit (Markdown)"),
)
PLAYER_COLUMNS = (("Joueur", "name"), ("Couleur", "colour"), ("Total papier", "total"))
DEAL_COLUMNS = (
    ("N°", None),
    ("Donneur", "dealer"),
    ("Type", "kind"),
    ("Preneur", "taker"),
    ("Contrat", "contract"),
    ("Roi appelé", "called"),
    ("Partenaire", "partner"),
    ("Bouts", "bouts"),
    ("Points", "points"),
    ("Poignées", "poignees"),
    ("Petit au bout", "petit_au_bout"),
    ("Chelem", "chelem"),
    ("Misères", "miseres"),
)
ADJUSTMENT_COLUMNS = (("Joueur", "player"), ("Code", "code"), ("Points", "points"), ("Note", "note"))
ALONE = "seul"  # the « Partenaire » of a taker who plays alone at 5 (null in JSON)
QUEEN_PREFIX = "dame de "  # « Roi appelé »: « dame de cœur » when the queen is called

# The « Chelem » column: label -> (announced, made by).
# (no comma in a label: an XLSX list separates its values with commas)
CHELEM_LABELS = {
    "annoncé réussi": (True, "attack"),
    "annoncé chuté": (True, None),
    "réussi sans annonce": (False, "attack"),
    "défense": (False, "defence"),
    "annoncé réussi par la défense": (True, "defence"),
}
# Phrases of the JSON format that a spreadsheet says otherwise.
MESSAGE_WORDS = (
    ("ou null quand le preneur joue seul", f"ou « {ALONE} » quand le preneur joue seul"),
    ("(« taker »)", "(colonne Preneur)"),
    (", ou « kind »", ", ou le type (colonne Type)"),
)


def _lookup(labels, *extra):
    """normalized code or label → code."""
    table = {}
    for code, label in labels.items():
        table[normalize(code)] = code
        table[normalize(label)] = code
    for alias, code in extra:
        table[normalize(alias)] = code
    return table


KINDS_READ = _lookup(KIND_LABELS, ("passée", "passed"), ("petit sec", "petit_sec"))
CONTRACTS_READ = _lookup(CONTRACT_LABELS, *((alias, alias) for alias in CONTRACT_ALIASES))
SUITS_READ = _lookup(SUIT_LABELS)
SIDES_READ = _lookup(SIDE_LABELS)
STAGES_READ = _lookup(STAGE_LABELS, ("régulière", "regular"), ("playoff", "playoff"))
COLOURS_READ = _lookup(COLOUR_NAMES)
SIZES_READ = _lookup(POIGNEE_LABELS)
CHELEMS_READ = {normalize(label): value for label, value in CHELEM_LABELS.items()}

# What the writer shows of a code (the labels, lower case as a secretary writes them).
KIND_SHOWN = dict(KIND_LABELS)
CONTRACT_SHOWN = {code: label.lower() for code, label in CONTRACT_LABELS.items()}
SUIT_SHOWN = dict(SUIT_LABELS)
SIDE_SHOWN = dict(SIDE_LABELS)
STAGE_SHOWN = dict(STAGE_LABELS)
COLOUR_SHOWN = dict(COLOUR_NAMES)


# --- cell values -------------------------------------------------------------------------------------


def text_of(value):
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def number_of(value):
    """A number cell, or a text that reads as one (« 44,5 »); other texts as they are (the model
    refuses them)."""
    if isinstance(value, str):
        text = value.strip().replace("\u202f", "").replace("\xa0", "").replace(" ", "")
        if re.fullmatch(r"[+-]?\d+", text):
            return int(text)
        if re.fullmatch(r"[+-]?\d+[.,]\d+", text):
            number = float(text.replace(",", "."))
            return int(number) if number.is_integer() else number
    return value


def date_of(value):
    """A date cell, « 2010-11-19 » or « 19/11/2010 » as ISO text; anything else as it is."""
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, str):
        text = value.strip()
        match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
        if match:
            day, month, year = (int(part) for part in match.groups())
            return f"{year:04d}-{month:02d}-{day:02d}"
        return text
    return value


def choice_of(value, table):
    """A code from its code or its label (any case, accents optional); else the text as it is."""
    text = text_of(value)
    if text is None:
        return None
    return table.get(normalize(text), text.strip())


def _items(text, separators=r"[;,\n]"):
    return [item.strip() for item in re.split(separators, text_of(text) or "") if item.strip()]


def poignees_of(value):
    """« Bruno simple ; Chloé double » → [{"player": "Bruno", "size": "simple"}, …]."""
    poignees = []
    for item in _items(value):
        name, _space, size = item.replace("(", " ").replace(")", " ").strip().rpartition(" ")
        if not name:
            name, size = size, ""
        poignees.append({"player": name.strip(), "size": SIZES_READ.get(normalize(size), size)})
    return poignees


def called_of(value):
    """« cœur » → ("coeur", None); « dame de cœur » → ("coeur", "dame")."""
    text = text_of(value)
    if text is None:
        return None, None
    if normalize(text).startswith(QUEEN_PREFIX):
        return choice_of(text.strip()[len(QUEEN_PREFIX) :], SUITS_READ), "dame"
    return choice_of(text, SUITS_READ), None


def chelem_of(value):
    text = text_of(value)
    if text is None:
        return None
    if normalize(text) in CHELEMS_READ:
        announced, made_by = CHELEMS_READ[normalize(text)]
        return {"announced": announced, "made_by": made_by}
    return {"made_by": text.strip()}  # refused by the model: « camp inconnu »


# --- the reader ----------------------------------------------------------------------------------------


class Locator:
    """Where each part of the sheet came from, to name the cell of an error."""

    def __init__(self, file):
        self.file = file
        self.manche = {}  # key -> line
        self.players = []  # line of players[i]
        self.player_lines = {}  # name -> line
        self.deals = []  # line of deals[i]
        self.adjustments = []
        self.totals_only = False

    def cell(self, message, sheet, line=None, column=None, heading=None):
        return CellError(self.file, message, sheet=sheet, line=line, column=column, heading=heading)

    def locate(self, error):
        """A SheetError of the JSON sheet as a CellError naming the cell it comes from."""
        if isinstance(error, CellError):
            return error
        message = error.message
        for json_words, words in MESSAGE_WORDS:
            message = message.replace(json_words, words)
        field = error.field or ""
        parts = re.findall(r"[^.\[\]]+", field)
        root = parts[0] if parts else ""
        index = int(parts[1]) - 1 if len(parts) > 1 and parts[1].isdigit() else None
        if error.deal is not None:
            line = self.deals[error.deal - 1] if error.deal <= len(self.deals) else None
            columns = {key: header for header, key in DEAL_COLUMNS if key}
            columns["called_rank"] = "Roi appelé"
            return self.cell(message, DONNES, line, columns.get(root))
        if root == "deals":
            return self.cell(message, DONNES)
        if root == "players":
            line = self.players[index] if index is not None and index < len(self.players) else None
            column = {"name": "Joueur", "colour": "Couleur"}.get(parts[-1]) if index is not None else None
            return self.cell(message, JOUEURS, line, column)
        if root in ("totals", "expected_totals"):
            name = field.partition(".")[2] or message.partition(" : ")[0]
            return self.cell(message, JOUEURS, self.player_lines.get(name), "Total papier")
        if root == "adjustments":
            line = self.adjustments[index] if index is not None and index < len(self.adjustments) else None
            columns = {key: header for header, key in ADJUSTMENT_COLUMNS}
            return self.cell(message, BONUS, line, columns.get(parts[-1]) if len(parts) > 2 else None)
        headings = {key: heading for heading, key, _help in MANCHE_ROWS}
        key = root if root != "report" else ".".join(parts[:2])
        if key in headings or root == "report":
            heading = headings.get(key, headings["report.author"])
            return self.cell(message, MANCHE, self.manche.get(key), heading=heading)
        return error


def _header(lines):
    """The first line that is not blank (the headers) and the lines after it."""
    for position, line in enumerate(lines):
        if not line.blank:
            return line, lines[position + 1 :]
    return None, []


def _columns(header, known, sheet, locator, errors):
    """{key: column index} of a sheet's header line; an unknown header is an error."""
    if header is None:
        return {}
    by_name = {normalize(name): key for name, key in known}
    columns = {}
    for index, value in enumerate(header.cells):
        if value is None:
            continue
        name = normalize(text_of(value))
        if name in by_name:
            key = by_name[name]
            columns[key if key is not None else "#"] = index
        else:
            expected = ", ".join(name for name, _key in known)
            errors.append(
                locator.cell(
                    f"colonne inconnue « {text_of(value)} » (colonnes : {expected})", sheet, header.number
                )
            )
    return columns


def _find(grids, title):
    wanted = normalize(title)
    return next((lines for name, lines in grids.items() if normalize(name) == wanted), None)


# The sheets a round is read from: the others (« Mode d'emploi », « Parts », « Totaux »…) are never read.
ROUND_SHEETS = Wanted((MANCHE, JOUEURS, DONNES, BONUS))


def formula_errors(file, lines, sheet, column_name):
    """A CellError for every formula among `lines` (formulas are refused, never computed): its
    sheet, its line and `column_name(index)`."""
    return [
        CellError(
            file,
            f"formule refusée (« {value.text} ») : saisir la valeur elle-même",
            sheet=sheet,
            line=line.number,
            column=column_name(index),
        )
        for line in lines
        for index, value in enumerate(line.cells)
        if isinstance(value, Formula)
    ]


def read_workbook(file, grids):
    """The JSON structure of a round workbook (a dict for ``parse_sheet``) and its ``Locator``;
    SheetImportError for what cannot be read at all (a formula, an unknown column, a missing sheet)."""
    locator = Locator(file)
    errors = []
    for title, lines in grids.items():
        errors += formula_errors(file, lines, title, _column_letter)
    if errors:
        raise SheetImportError(errors)
    if len(grids) == 1 and "" in grids:
        raise SheetImportError(
            [
                SheetError(
                    file, "CSV sans sections : une feuille de manche en CSV commence par la ligne [Manche]"
                )
            ]
        )
    missing = [title for title in (MANCHE, JOUEURS) if _find(grids, title) is None]
    if missing:
        names = ", ".join(f"« {title} »" for title in missing)
        raise SheetImportError(
            [SheetError(file, f"il manque la feuille {names} (voir le modèle à télécharger)")]
        )
    sheet = {}
    _read_manche(_find(grids, MANCHE), sheet, locator, errors)
    players, totals = _read_players(_find(grids, JOUEURS), locator, errors)
    deals = _read_deals(_find(grids, DONNES) or [], locator, errors)
    adjustments = _read_adjustments(_find(grids, BONUS) or [], locator, errors)
    if errors:
        raise SheetImportError(errors)
    sheet["players"] = players
    if deals:
        sheet["deals"] = deals
        if any(total is not None for total in totals.values()):
            sheet["expected_totals"] = {name: total for name, total in totals.items() if total is not None}
    else:
        locator.totals_only = True
        sheet["totals"] = {name: total for name, total in totals.items() if total is not None}
    if adjustments:
        sheet["adjustments"] = adjustments
    return sheet, locator


def _column_letter(index):
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _read_manche(lines, sheet, locator, errors):
    headings = {normalize(heading): key for heading, key, _help in MANCHE_ROWS}
    report = {}
    for line in lines:
        heading = line.get(0)
        if heading is None or normalize(text_of(heading)) == normalize(MANCHE_HEADERS[0]):
            continue
        key = headings.get(normalize(text_of(heading)))
        if key is None:
            known = ", ".join(heading for heading, _key, _help in MANCHE_ROWS)
            errors.append(
                locator.cell(
                    f"rubrique inconnue « {text_of(heading)} » (rubriques : {known})", MANCHE, line.number
                )
            )
            continue
        locator.manche[key] = line.number
        value = line.get(1)
        if value is None:
            continue
        if key == "number":
            sheet[key] = number_of(value)
        elif key == "date":
            sheet[key] = date_of(value)
        elif key == "stage":
            sheet[key] = choice_of(value, STAGES_READ)
        elif key == "report.filed":
            report["filed"] = date_of(value)
        elif key.startswith("report."):
            report[key.partition(".")[2]] = text_of(value)
        else:
            sheet[key] = text_of(value)
    if report:
        sheet["report"] = report
        locator.manche.setdefault("report", locator.manche.get("report.author"))


def _read_players(lines, locator, errors):
    header, rows = _header(lines)
    columns = _columns(header, PLAYER_COLUMNS, JOUEURS, locator, errors)
    players, totals = [], {}
    for line in rows:
        if line.blank:
            continue
        entry = {}
        name = text_of(line.get(columns.get("name")))
        if name is not None:
            entry["name"] = name.strip()
        colour = line.get(columns.get("colour"))
        if colour is not None:
            entry["colour"] = choice_of(colour, COLOURS_READ)
        players.append(entry)
        locator.players.append(line.number)
        if name is not None:
            locator.player_lines.setdefault(name.strip(), line.number)
            totals[name.strip()] = number_of(line.get(columns.get("total")))
    return players, totals


def _read_deals(lines, locator, errors):
    header, rows = _header(lines)
    columns = _columns(header, DEAL_COLUMNS, DONNES, locator, errors)
    deals = []
    for line in rows:
        values = {key: line.get(index) for key, index in columns.items() if key != "#"}
        if all(value is None for value in values.values()):
            continue  # a blank line (its number may be written)
        deal = {}
        for key, value in values.items():
            if value is None:
                continue
            if key in ("dealer", "taker"):
                deal[key] = text_of(value).strip()
            elif key == "partner":
                text = text_of(value).strip()
                deal[key] = None if normalize(text) == ALONE else text
            elif key == "kind":
                deal[key] = choice_of(value, KINDS_READ)
            elif key == "contract":
                deal[key] = choice_of(value, CONTRACTS_READ)
            elif key == "called":
                deal["called"], rank = called_of(value)
                if rank:
                    deal["called_rank"] = rank
            elif key in ("bouts", "points"):
                deal[key] = number_of(value)
            elif key == "poignees":
                deal[key] = poignees_of(value)
            elif key == "miseres":
                deal[key] = _items(value)
            elif key == "petit_au_bout":
                deal[key] = choice_of(value, SIDES_READ)
            elif key == "chelem":
                deal[key] = chelem_of(value)
        deals.append(deal)
        locator.deals.append(line.number)
    return deals


def _read_adjustments(lines, locator, errors):
    header, rows = _header(lines)
    columns = _columns(header, ADJUSTMENT_COLUMNS, BONUS, locator, errors)
    adjustments = []
    for line in rows:
        if line.blank:
            continue
        entry = {}
        for key, index in columns.items():
            value = line.get(index)
            if value is not None:
                entry[key] = number_of(value) if key == "points" else text_of(value)
        adjustments.append(entry)
        locator.adjustments.append(line.number)
    return adjustments


def prepare_source(file, data):
    """What ``read_sheet`` takes, and the ``Locator`` of a spreadsheet (``None`` for JSON): JSON
    bytes or text as they are; an XLSX, ODS or CSV file read into the sheet's structure."""
    from championship.sheets.cells import JSON, detect_format
    from championship.sheets.parse import MAX_SHEET_BYTES

    if not isinstance(data, bytes | str):
        return data, None
    fmt = detect_format(file, data.encode() if isinstance(data, str) else data)
    if fmt == JSON:
        return data, None
    if len(data) > MAX_SHEET_BYTES:
        raise SheetImportError([SheetError(file, "fichier trop gros pour une feuille de manche")])
    return read_workbook(file, read_grids(file, data, fmt, sheets=ROUND_SHEETS))


def located(errors, locator):
    return [locator.locate(error) for error in errors] if locator is not None else list(errors)
