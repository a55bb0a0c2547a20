"""Workbooks written for the spreadsheet (XLSX and ODS, docs/feuille.md §8): the blank template of
a round, a round, a whole season; one sheet per concern.

The data goes through tablib (one ``Dataset`` per sheet, a ``Databook``); numbers are written as
numbers and each text cell is escaped as in the CSV exports (OWASP: a text a spreadsheet would run
as a formula gets a leading « ' », ``federation.validators.spreadsheet_cell``), so that no cell is
ever written as a formula. The drop-down lists of the template and of a round (data validation)
are then added to the file: with openpyxl in an XLSX, as ``table:content-validation`` elements
with odfpy in an ODS.
"""

import io
from dataclasses import dataclass, field

import tablib
from django.db.models import Prefetch

from championship.models import ChampionshipLine, Deal, Round, Seat
from championship.sheets.export import export_deal, export_sheet
from championship.sheets.spreadsheet import (
    ADJUSTMENT_COLUMNS,
    ALONE,
    BONUS,
    CHAMPIONNAT,
    CHELEM_LABELS,
    COLOUR_SHOWN,
    CONTRACT_SHOWN,
    DEAL_COLUMNS,
    DONNES,
    JOUEURS,
    KIND_SHOWN,
    MANCHE,
    MANCHE_HEADERS,
    MANCHE_ROWS,
    PARTS,
    PLAYER_COLUMNS,
    QUEEN_PREFIX,
    SIDE_SHOWN,
    STAGE_SHOWN,
    SUIT_SHOWN,
    TOTAUX,
)
from championship.standings.tables import StandingsTable
from federation.validators import spreadsheet_cell
from scoring.vocabulary import PLAYOFF_TABLES, POIGNEE_SIZES

XLSX, ODS = "xlsx", "ods"
FORMATS = (XLSX, ODS)
CONTENT_TYPES = {
    XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ODS: "application/vnd.oasis.opendocument.spreadsheet",
}
TEMPLATE_DEALS = 40  # blank deal lines of the template
CHELEM_SHOWN = {value: label for label, value in CHELEM_LABELS.items()}
BOUTS_CHOICES = ("0", "1", "2", "3")


@dataclass
class Table:
    """One sheet: its title, headers, rows, and drop-down lists {header: values or a range}."""

    title: str
    headers: list
    rows: list
    lists: dict = field(default_factory=dict)
    widths: dict = field(default_factory=dict)  # header -> width in characters


@dataclass(frozen=True)
class PlayersRange:
    """A drop-down list drawn from the players of the « Joueurs » sheet."""

    first: int = 2
    last: int = 6


def _text(value):
    return spreadsheet_cell(value)


# --- a round ------------------------------------------------------------------------------------------


def _called(deal):
    if not deal.get("called"):
        return None
    suit = SUIT_SHOWN.get(deal["called"], deal["called"])
    return QUEEN_PREFIX + suit if deal.get("called_rank") == "dame" else suit


def _deal_row(number, deal, table_size):
    if "taker" not in deal:
        return [number, _text(deal["dealer"]), KIND_SHOWN.get(deal.get("kind"), deal.get("kind"))] + [
            None
        ] * 10
    chelem = deal.get("chelem") or {}
    chelem_key = (bool(chelem.get("announced")), chelem.get("made_by"))
    partner = deal.get("partner")
    return [
        number,
        _text(deal["dealer"]),
        KIND_SHOWN["played"],
        _text(deal["taker"]),
        CONTRACT_SHOWN.get(deal["contract"], deal["contract"]),
        _called(deal),
        _text(partner) if partner else (ALONE if table_size == 5 else None),
        deal["bouts"],
        deal["points"],
        _text("; ".join(f"{item['player']} {item['size']}" for item in deal.get("poignees", []))) or None,
        SIDE_SHOWN.get(deal.get("petit_au_bout")),
        CHELEM_SHOWN.get(chelem_key) if chelem_key != (False, None) else None,
        _text("; ".join(deal.get("miseres", []))) or None,
    ]


def _sheet_tables(sheet, *, template=False):
    """The four sheets a round is read back from (docs/feuille.md §8), from its JSON sheet."""
    report = sheet.get("report") or {}
    values = {
        "season": sheet.get("season"),
        "number": sheet.get("number"),
        "date": sheet.get("date"),
        "place": sheet.get("place") or None,
        "stage": STAGE_SHOWN.get(sheet.get("stage")) if sheet.get("stage") else None,
        "table": sheet.get("table") or None,
        "report.author": report.get("author"),
        "report.filed": report.get("filed"),
        "report.text": report.get("text") or None,
    }
    manche = Table(
        MANCHE,
        list(MANCHE_HEADERS),
        [[heading, _text(values[key]), hint] for heading, key, hint in MANCHE_ROWS],
        lists={"Valeur": {"Phase": list(STAGE_SHOWN.values()), "Table": list(PLAYOFF_TABLES)}},
        widths={"Rubrique": 24, "Valeur": 24, "Aide": 44},
    )
    totals = sheet.get("expected_totals") or sheet.get("totals") or {}
    players = sheet.get("players") or [{}] * 5 if template else sheet.get("players", [])
    joueurs = Table(
        JOUEURS,
        [header for header, _key in PLAYER_COLUMNS],
        [
            [
                _text(player.get("name")),
                COLOUR_SHOWN.get(player.get("colour")),
                totals.get(player.get("name")),
            ]
            for player in players
        ],
        lists={"Couleur": list(COLOUR_SHOWN.values())},
        widths={"Joueur": 20, "Couleur": 12, "Total papier": 14},
    )
    table_size = len(sheet.get("players", []))
    deals = [_deal_row(number, deal, table_size) for number, deal in enumerate(sheet.get("deals") or [], 1)]
    if template:
        deals = [[number] + [None] * (len(DEAL_COLUMNS) - 1) for number in range(1, TEMPLATE_DEALS + 1)]
    donnes = Table(
        DONNES,
        [header for header, _key in DEAL_COLUMNS],
        deals,
        lists={
            "Donneur": PlayersRange(),
            "Type": list(KIND_SHOWN.values()),
            "Preneur": PlayersRange(),
            "Contrat": list(CONTRACT_SHOWN.values()),
            "Roi appelé": list(SUIT_SHOWN.values()),
            "Partenaire": PlayersRange(),
            "Bouts": list(BOUTS_CHOICES),
            "Petit au bout": list(SIDE_SHOWN.values()),
            "Chelem": list(CHELEM_LABELS),
        },
        widths={"N°": 5, "Poignées": 22, "Misères": 16, "Chelem": 18, "Roi appelé": 12},
    )
    bonus = Table(
        BONUS,
        [header for header, _key in ADJUSTMENT_COLUMNS],
        [
            [_text(item["player"]), _text(item["code"]), item.get("points"), _text(item.get("note"))]
            for item in sheet.get("adjustments") or []
        ],
        widths={"Joueur": 20, "Note": 40},
    )
    return [manche, joueurs, donnes, bonus]


def template_tables():
    """The blank score sheet of a round, with a line per deal and the sheets' drop-down lists."""
    tables = _sheet_tables({}, template=True)
    guide = Table(
        "Mode d'emploi",
        ["Colonne", "Valeurs"],
        [
            ["Joueurs", "4 ou 5, dans l'ordre de la table (l'ordre des donneurs)"],
            ["Total papier", "les totaux de la feuille papier, vérifiés par le calcul"],
            ["Sans donnes", "le Total papier donne les totaux de la manche (manche « totaux seuls »)"],
            ["Type", "jouée (vide si le preneur est indiqué), passe, petit sec, fausse donne"],
            ["Contrat", ", ".join(CONTRACT_SHOWN.values())],
            ["Roi appelé", "pique, cœur, carreau, trèfle ; « dame de cœur » quand une dame est appelée"],
            ["Partenaire", f"le joueur appelé, ou « {ALONE} » quand le preneur joue seul à 5"],
            ["Points", "points de l'attaque, de 0 à 91, demis permis (44,5)"],
            ["Poignées", f"« Bruno simple ; Chloé double » (tailles : {', '.join(POIGNEE_SIZES)})"],
            ["Petit au bout", "attaque ou défense"],
            ["Chelem", ", ".join(CHELEM_LABELS)],
            ["Misères", "les joueurs, séparés par « ; »"],
            ["Formules", "refusées à l'import : saisir les valeurs elles-mêmes"],
        ],
        widths={"Colonne": 16, "Valeurs": 90},
    )
    return [*tables, guide]


def round_tables(round_):
    """A round: its sheet (readable back by the import), then the gains of each deal, the totals
    and the championship lines."""
    sheet = export_sheet(round_)
    tables = _sheet_tables(sheet)
    names = [player["name"] for player in sheet["players"]]
    results = sheet["results"]
    tables.append(
        Table(
            PARTS,
            ["N°", *map(_text, names)],
            [
                [number, *(deal["shares"][name] for name in names)]
                for number, deal in enumerate(results["deals"], 1)
            ],
        )
    )
    tables.append(
        Table(TOTAUX, ["Joueur", "Total"], [[_text(name), results["totals"][name]] for name in names])
    )
    lines = (
        ChampionshipLine.objects.filter(round=round_)
        .select_related("player")
        .order_by("player__name", "order", "pk")
    )
    tables.append(
        Table(
            CHAMPIONNAT,
            ["Joueur", "Code", "Points", "Libellé"],
            [[_text(line.player.name), _text(line.code), line.points, _text(line.label)] for line in lines],
            widths={"Libellé": 60},
        )
    )
    return tables


# --- a season -----------------------------------------------------------------------------------------


def _round_key(round_):
    return [STAGE_SHOWN.get(round_.stage, round_.stage), round_.table or None, round_.number]


def season_tables(season, standings, *, drafts=False):
    """A season: standings, a line per round with each player's total (the table the season
    import reads), the championship lines, every deal; rounds not homologated only with
    ``drafts`` (for those who enter the season's rounds)."""
    ranking = StandingsTable(standings.ranked, season).as_values()
    header, *rows = list(ranking)
    tables = [Table("Classement", list(header), [list(row) for row in rows], widths={"Joueur": 20})]
    shown = season.rounds.all() if drafts else season.rounds.filter(status=Round.HOMOLOGATED)
    rounds = list(
        shown.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
            Prefetch("deals", queryset=Deal.objects.order_by("number")),
        )
        .order_by("stage", "table", "number")
        .select_related("season")
    )
    players = sorted({seat.player.name for round_ in rounds for seat in round_.seats.all()})
    manches = []
    for round_ in rounds:
        totals = {seat.player.name: seat.total for seat in round_.seats.all()}
        manches.append(
            [
                *_round_key(round_),
                round_.date.isoformat(),
                _text(round_.place) or None,
                str(round_.get_status_display()),
                *(totals.get(name) for name in players),
            ]
        )
    tables.append(
        Table(
            "Manches",
            ["Phase", "Table", "Manche", "Date", "Lieu", "Statut", *map(_text, players)],
            manches,
            widths={"Phase": 16, "Lieu": 20},
        )
    )
    lines = (
        ChampionshipLine.objects.filter(season=season)
        .select_related("player", "round")
        .order_by("round__stage", "round__table", "round__number", "player__name", "order", "pk")
    )
    tables.append(
        Table(
            CHAMPIONNAT,
            ["Phase", "Table", "Manche", "Joueur", "Code", "Points", "Libellé"],
            [
                [
                    *_round_key(line.round),
                    _text(line.player.name),
                    _text(line.code),
                    line.points,
                    _text(line.label),
                ]
                for line in lines
            ],
            widths={"Libellé": 60},
        )
    )
    deals = []  # every round's deals read at once (export_sheet would read each round apart)
    for round_ in rounds:
        if round_.totals_only:
            continue
        seats = round_.seats.all()
        names = {seat.player_id: seat.player.name for seat in seats}
        deals += [
            [*_round_key(round_), *_deal_row(deal.number, export_deal(deal, names, len(seats)), len(seats))]
            for deal in round_.deals.all()
        ]
    tables.append(Table(DONNES, ["Phase", "Table", "Manche", *(h for h, _key in DEAL_COLUMNS)], deals))
    return tables


# --- writing --------------------------------------------------------------------------------------------


def render(tables, fmt):
    """The workbook's bytes: the sheets through tablib, then widths and drop-down lists."""
    book = tablib.Databook()
    for table in tables:
        dataset = tablib.Dataset(
            *[tuple(row) for row in table.rows], headers=table.headers, title=table.title
        )
        book.add_sheet(dataset)
    data = book.export(fmt)
    return _decorate_xlsx(data, tables) if fmt == XLSX else _decorate_ods(data, tables)


def _lists(table):
    """[(column index, first line, last line, values or PlayersRange)] of a sheet."""
    found = []
    for header, choices in table.lists.items():
        if header not in table.headers:
            continue
        column = table.headers.index(header)
        if isinstance(choices, dict):  # the « Manche » sheet: by heading, in its line
            for heading, values in choices.items():
                line = next(n for n, row in enumerate(table.rows, start=2) if row[0] == heading)
                found.append((column, line, line, values))
        else:
            lines = max(len(table.rows), TEMPLATE_DEALS) if table.title == DONNES else len(table.rows)
            found.append((column, 2, lines + 1, choices))
    return found


def _decorate_xlsx(data, tables):
    from openpyxl import load_workbook
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.datavalidation import DataValidation
    from openpyxl.writer.excel import save_workbook

    book = load_workbook(io.BytesIO(data))
    for table in tables:
        sheet = book[table.title[:31]]
        for index, header in enumerate(table.headers):
            width = table.widths.get(header, max(10, len(str(header)) + 2))
            sheet.column_dimensions[get_column_letter(index + 1)].width = width
        for column, first, last, choices in _lists(table):
            letter = get_column_letter(column + 1)
            if isinstance(choices, PlayersRange):
                formula = f"'{JOUEURS}'!$A${choices.first}:$A${choices.last}"
                # another value may be typed (« seul »): the list only helps
                validation = DataValidation(
                    type="list", formula1=formula, allow_blank=True, showErrorMessage=False
                )
            else:
                formula = '"' + ",".join(choices) + '"'
                validation = DataValidation(
                    type="list", formula1=formula, allow_blank=True, showErrorMessage=True
                )
                validation.error = "Choisir une valeur de la liste"
                validation.errorTitle = "Valeur inconnue"
            validation.add(f"{letter}{first}:{letter}{last}")
            sheet.add_data_validation(validation)
    out = io.BytesIO()
    save_workbook(book, out)  # a file, not a model: openpyxl's writer
    return out.getvalue()


def _decorate_ods(data, tables):
    """Drop-down lists in an ODS: a ``table:content-validation`` per list, named by the cells that
    use it (``table:content-validation-name``); blank cells are added down to the last line."""
    from odf import opendocument
    from odf.table import ContentValidation, ContentValidations, ErrorMessage, Table, TableCell, TableRow

    document = opendocument.load(io.BytesIO(data))
    validations = ContentValidations()
    sheets = {sheet.getAttribute("name"): sheet for sheet in document.spreadsheet.getElementsByType(Table)}
    count = 0
    for table in tables:
        sheet = sheets[table.title]
        rows = sheet.getElementsByType(TableRow)
        for column, first, last, choices in _lists(table):
            count += 1
            name = f"liste{count}"
            if isinstance(choices, PlayersRange):
                source = f"[$'{JOUEURS}'.$A${choices.first}:.$A${choices.last}]"
                condition = f"of:cell-content-is-in-list({source})"
            else:
                condition = "of:cell-content-is-in-list(" + ";".join(f'"{value}"' for value in choices) + ")"
            validation = ContentValidation(
                name=name, condition=condition, allowemptycell="true", displaylist="unsorted"
            )
            validation.addElement(
                ErrorMessage(display="false" if isinstance(choices, PlayersRange) else "true")
            )
            validations.addElement(validation)
            while len(rows) < last:
                row = TableRow()
                sheet.addElement(row)
                rows.append(row)
            for row in rows[first - 1 : last]:
                cells = [cell for cell in row.childNodes if cell.qname[1] == "table-cell"]
                while len(cells) <= column:
                    cell = TableCell()
                    row.addElement(cell)
                    cells.append(cell)
                cells[column].setAttribute("contentvalidationname", name)
    if count:
        document.spreadsheet.insertBefore(validations, document.spreadsheet.firstChild)
    out = io.BytesIO()
    document.write(out)  # a file, not a model: odfpy's writer
    return out.getvalue()


def workbook_filename(round_, fmt):
    """``manche-2010-2011-12.xlsx`` (as the JSON sheet's name)."""
    stage = {Round.PLAYOFF: f"-playoff-{round_.table}", Round.FINAL: "-finale"}.get(round_.stage, "")
    return f"manche-{round_.season.name}{stage}-{round_.number}.{fmt}"
