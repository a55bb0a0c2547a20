"""Round sheets as spreadsheets (docs/feuille.md §8): the template, the round workbook, importing
XLSX, ODS and CSV through the same model and checks as JSON, errors named by cell, formulas."""

import html
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from odf import opendocument
from odf.table import Table, TableCell
from openpyxl import Workbook, load_workbook

from championship.models import Round
from championship.services import delete_draft_round
from championship.sheets import SheetImportError, export_sheet, import_sheets
from championship.sheets.workbooks import render, round_tables, template_tables
from federation.models import Player
from tests.factories import EXAMPLE_PLAYERS, EXAMPLE_TOTALS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sheets"


def example():
    return json.loads((FIXTURES / "example.json").read_text("utf-8"))


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name) for name in EXAMPLE_PLAYERS}


def model_counts():
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def imported_example(**options):
    sheet = example()
    sheet["adjustments"][0]["points"] = -2  # a point off the catalogue: the export must carry it
    return import_sheets([("example.json", json.dumps(sheet, ensure_ascii=False))], **options)[0].round


def scored(round_):
    """What a round computes to: its totals, each deal's shares and its championship lines."""
    results = export_sheet(round_)["results"]
    return results


def workbook_of(round_, fmt):
    return render(round_tables(round_), fmt)


def xlsx_with(changes, round_=None, sheet_name="Donnes"):
    """The example round's XLSX with cells changed: {"J2": value}."""
    book = load_workbook(io.BytesIO(workbook_of(round_, "xlsx")))
    for cell, value in changes.items():
        book[sheet_name][cell] = value
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def drop(round_):
    delete_draft_round(round_, reason="réimporter sa feuille")


def reimport(data, name, round_):
    """Delete the round, then import the file into the emptied database."""
    drop(round_)
    return import_sheets([(name, data)], homologate=False)[0].round


# --- round-trip ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_it_gives_back_the_same_round_from_its_exported_workbook(players, fmt):
    round_ = imported_example()
    before = scored(round_)
    sheet_before = export_sheet(round_)
    data = workbook_of(round_, fmt)
    again = reimport(data, f"manche.{fmt}", round_)
    assert scored(again) == before
    sheet_after = export_sheet(again)
    for key in ("season", "number", "date", "place", "players", "deals", "adjustments", "report"):
        assert sheet_after[key] == sheet_before[key], key


def test_it_gives_back_a_totals_only_round_from_its_workbook(players):
    sheet = example()
    del sheet["deals"], sheet["expected_totals"]
    sheet["totals"] = {"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
    round_ = import_sheets([("t.json", json.dumps(sheet))])[0].round
    data = workbook_of(round_, "ods")
    again = reimport(data, "t.ods", round_)
    assert again.totals_only
    assert {seat.player.name: seat.total for seat in again.seats.all()} == sheet["totals"]


# --- the template ----------------------------------------------------------------------------------


def test_it_offers_a_template_with_french_headers_and_drop_down_lists_in_xlsx():
    book = load_workbook(io.BytesIO(render(template_tables(), "xlsx")))
    assert book.sheetnames[:4] == ["Manche", "Joueurs", "Donnes", "Bonus et malus"]
    headers = [cell.value for cell in book["Donnes"][1]]
    assert headers == [
        "N°", "Donneur", "Type", "Preneur", "Contrat", "Roi appelé", "Partenaire", "Bouts", "Points",
        "Poignées", "Petit au bout", "Chelem", "Misères",
    ]  # fmt: skip
    assert [cell.value for cell in book["Joueurs"][1]] == ["Joueur", "Couleur", "Total papier"]
    assert [book["Manche"].cell(row, 1).value for row in range(2, 6)] == ["Saison", "Numéro", "Date", "Lieu"]
    lists = {str(v.sqref): v.formula1 for v in book["Donnes"].data_validations.dataValidation}
    assert lists["E2:E41"] == '"prise,garde,garde sans,garde contre"'
    assert lists["B2:B41"] == "'Joueurs'!$A$2:$A$6"


def test_it_offers_a_template_with_drop_down_lists_in_ods():
    document = opendocument.load(io.BytesIO(render(template_tables(), "ods")))
    text = html.unescape(document.xml().decode())
    assert 'of:cell-content-is-in-list("prise";"garde";"garde sans";"garde contre")' in text
    assert "of:cell-content-is-in-list([$'Joueurs'.$A$2:.$A$6])" in text
    names = [table.getAttribute("name") for table in document.spreadsheet.getElementsByType(Table)]
    assert names[:4] == ["Manche", "Joueurs", "Donnes", "Bonus et malus"]


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_it_imports_a_filled_template(players, season, fmt):
    """A secretary fills the blank template in LibreOffice: labels, French numbers, a date."""
    import datetime

    from championship.sheets.cells import read_grids
    from championship.sheets.spreadsheet import read_workbook

    book = load_workbook(io.BytesIO(render(template_tables(), "xlsx")))
    manche = book["Manche"]
    manche["B2"], manche["B3"], manche["B4"], manche["B5"] = (
        "2010-2011",
        12,
        datetime.date(2010, 11, 19),
        "Chez Steph",
    )
    for row, (name, colour) in enumerate(
        zip(EXAMPLE_PLAYERS, ["blanc", "jaune", "rouge", "bleu", "vert"], strict=True), 2
    ):
        book["Joueurs"].cell(row, 1, name)
        book["Joueurs"].cell(row, 2, colour)
        book["Joueurs"].cell(row, 3, EXAMPLE_TOTALS[name])
    deals = book["Donnes"]
    rows = [
        ["Alice", None, "Bruno", "Garde", "Cœur", "David", 2, 49, "Bruno simple", "attaque", None, "Chloé"],
        ["Bruno", "passe"],
        ["Chloé", "fausse donne"],
        ["Chloé", None, "Alice", "garde sans", "pique", "seul", 1, "44,5"],
    ]
    for row, values in enumerate(rows, 2):
        for column, value in enumerate(values, 2):
            deals.cell(row, column, value)
    out = io.BytesIO()
    book.save(out)
    data = out.getvalue()
    if fmt == "ods":  # the same sheet through our ODS reader: written by tablib from the grid
        grids = read_grids("m.xlsx", data, "xlsx")
        sheet, _locator = read_workbook("m.xlsx", grids)
        data = None
        imported = import_sheets([("m.json", json.dumps(sheet, ensure_ascii=False))])
    else:
        imported = import_sheets([("manche.xlsx", data)])
    round_ = imported[0].round
    assert {seat.player.name: seat.total for seat in round_.seats.all()} == EXAMPLE_TOTALS


# --- errors named by cell, all or nothing ----------------------------------------------------------


def test_it_names_the_cell_of_an_error_and_stores_nothing(players):
    round_ = imported_example()
    data = xlsx_with({"I2": 92, "H5": 4}, round_)
    drop(round_)
    counts = model_counts()
    with pytest.raises(SheetImportError) as info:
        import_sheets([("manche.xlsx", data)])
    assert info.value.messages == [
        "manche.xlsx, feuille Donnes, ligne 2, colonne Points : 92 n'est pas entre 0 et 91",
        "manche.xlsx, feuille Donnes, ligne 5, colonne Bouts : 4 n'est pas entre 0 et 3",
    ]
    assert model_counts() == counts


def test_it_names_the_cells_of_the_players_sheet_and_of_the_round_sheet(players):
    round_ = imported_example()
    book = load_workbook(io.BytesIO(workbook_of(round_, "xlsx")))
    book["Joueurs"]["C4"] = 40  # Chloé's paper total
    book["Manche"]["B4"] = "2011-07-02"
    out = io.BytesIO()
    book.save(out)
    drop(round_)
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.xlsx", out.getvalue())])
    assert info.value.messages == [
        "m.xlsx, feuille Manche, ligne 4 (Date) : le 02/07/2011 n'est pas dans la saison 2010-2011 "
        "(du 01/09/2010 au 30/06/2011)",
        "m.xlsx, feuille Manche, ligne 9 (Compte-rendu : rendu le) : rendu le 24/11/2010, avant la manche du "
        "02/07/2011",
    ]
    book["Manche"]["B4"] = "2010-11-19"
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.xlsx", out.getvalue())])
    assert info.value.messages == [
        "m.xlsx, feuille Joueurs, ligne 4, colonne Total papier : Chloé : attendu 40, calculé 50"
    ]


def test_it_asks_for_seul_when_the_taker_plays_alone_at_five(players):
    round_ = imported_example()
    data = xlsx_with({"G5": None}, round_)
    drop(round_)
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.xlsx", data)])
    assert info.value.messages == [
        "m.xlsx, feuille Donnes, ligne 5, colonne Partenaire : à 5 joueurs, indiquer l'appelé, "
        "ou « seul » quand le preneur joue seul"
    ]


# --- formulas --------------------------------------------------------------------------------------


def test_it_refuses_a_formula_cell_without_computing_it(players):
    round_ = imported_example()
    data = xlsx_with({"I2": "=40+9", "B3": '=HYPERLINK("http://x","Bruno")'}, round_)
    drop(round_)
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.xlsx", data)])
    assert info.value.messages == [
        "m.xlsx, feuille Donnes, ligne 2, colonne I : formule refusée (« =40+9 ») : "
        "saisir la valeur elle-même",
        'm.xlsx, feuille Donnes, ligne 3, colonne B : formule refusée (« =HYPERLINK("http://x","Bruno") ») : '
        "saisir la valeur elle-même",
    ]
    assert not Round.objects.exists()


def test_it_refuses_a_formula_cell_of_an_ods_file(players):
    round_ = imported_example()
    document = opendocument.load(io.BytesIO(workbook_of(round_, "ods")))
    donnes = [t for t in document.spreadsheet.getElementsByType(Table) if t.getAttribute("name") == "Donnes"][
        0
    ]
    cell = donnes.getElementsByType(TableCell)[13 + 8]  # line 2, Points
    cell.setAttribute("formula", "of:=40+9")
    out = io.BytesIO()
    document.save(out)
    drop(round_)
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.ods", out.getvalue())])
    assert info.value.messages == [
        "m.ods, feuille Donnes, ligne 2, colonne I : formule refusée (« of:=40+9 ») : "
        "saisir la valeur elle-même"
    ]


def test_it_reads_a_formula_looking_text_of_a_csv_as_text(players, season):
    csv_text = (
        "[Manche]\nSaison,2010-2011\nNuméro,3\nDate,19/11/2010\n"
        "[Joueurs]\nJoueur,Total papier\n=1+1,10\nAlice,-10\nBruno,0\nChloé,0\n"
    )
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.csv", csv_text.encode())])
    assert info.value.messages == [
        "m.csv, feuille Joueurs, ligne 7, colonne Joueur : "
        "ne doit pas commencer par « = » (formule de tableur)"
    ]


def test_it_never_writes_a_formula_in_an_export(players):
    round_ = imported_example()
    # a name stored before the entry rules refused such names
    Player.objects.filter(name="Alice").update(name="=cmd|' /C calc'!A0")
    xlsx = load_workbook(io.BytesIO(workbook_of(round_, "xlsx")))
    cells = [cell for sheet in xlsx.worksheets for row in sheet.iter_rows() for cell in row]
    assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
    assert "'=cmd|' /C calc'!A0" in [cell.value for cell in cells]
    assert isinstance(xlsx["Totaux"]["B2"].value, int)
    ods = workbook_of(round_, "ods")
    with zipfile.ZipFile(io.BytesIO(ods)) as archive:
        content = archive.read("content.xml").decode()
    assert "table:formula" not in content
    assert "'=cmd|' /C calc'!A0" in content.replace("&apos;", "'")


# --- the command -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_it_exports_a_round_workbook_from_the_command_and_imports_it_back(players, tmp_path, fmt):
    round_ = imported_example()
    before = scored(round_)
    target = tmp_path / f"manche.{fmt}"
    call_command(
        "export_round", "2010-2011", "12", "--format", fmt, "--output", str(target), stdout=io.StringIO()
    )
    drop(round_)
    out = io.StringIO()
    call_command("import_round", str(target), stdout=out)
    assert "manche 12 importée" in out.getvalue()
    assert scored(Round.objects.get()) == before


def test_it_needs_a_file_for_a_workbook_export(players):
    imported_example()
    with pytest.raises(CommandError, match="--output"):
        call_command("export_round", "2010-2011", "12", "--format", "xlsx", stdout=io.StringIO())


def test_it_reports_an_unreadable_workbook(db):
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.xlsx", b"PK\x03\x04 not really")])
    assert info.value.messages == ["m.xlsx : fichier illisible : ce n'est pas un classeur valide"]
    with pytest.raises(SheetImportError) as info:
        import_sheets([("m.xlsx", _empty_xlsx())])
    assert info.value.messages == [
        "m.xlsx : il manque la feuille « Manche », « Joueurs » (voir le modèle à télécharger)"
    ]


def _empty_xlsx():
    out = io.BytesIO()
    Workbook().save(out)
    return out.getvalue()


# --- LibreOffice -------------------------------------------------------------------------------------


SOFFICE = shutil.which("soffice")


@pytest.mark.skipif(
    SOFFICE is None, reason="LibreOffice (soffice) introuvable : apt-get install libreoffice-calc-nogui"
)
def test_it_reads_back_a_workbook_that_libreoffice_saved_again(players, tmp_path):
    """The XLSX re-saved as ODS by LibreOffice, and the ODS as XLSX, give back the same round."""
    round_ = imported_example()
    before = scored(round_)
    converted = []
    for fmt, other in (("xlsx", "ods"), ("ods", "xlsx")):
        source = tmp_path / f"manche.{fmt}"
        source.write_bytes(workbook_of(round_, fmt))
        target = tmp_path / fmt
        profile = f"-env:UserInstallation=file://{tmp_path / 'profile'}"
        command = [
            SOFFICE,
            profile,
            "--headless",
            "--convert-to",
            other,
            "--outdir",
            str(target),
            str(source),
        ]
        subprocess.run(command, check=True, capture_output=True, timeout=300)
        converted.append(target / f"manche.{other}")
    for path in converted:
        drop(round_)
        round_ = import_sheets([(path.name, path.read_bytes())])[0].round
        assert scored(round_) == before, path.name


def test_it_imports_a_csv_sheet_in_sections(players, season):
    """A CSV saved by a French spreadsheet: « ; » between cells, the sheets one under the other."""
    text = "\n".join(
        [
            "[Manche]",
            "Saison;2010-2011",
            "Numéro;12",
            "Date;19/11/2010",
            "Lieu;Chez Steph",
            "[Joueurs]",
            "Joueur;Couleur;Total papier",
            *(f"{name};;{total}" for name, total in EXAMPLE_TOTALS.items()),
            "[Donnes]",
            "N°;Donneur;Type;Preneur;Contrat;Roi appelé;Partenaire;Bouts;Points;Poignées;Petit au bout;"
            "Chelem;Misères",
            "1;Alice;;Bruno;garde;cœur;David;2;49;Bruno simple;attaque;;Chloé",
            "2;Bruno;passe",
            "3;Chloé;fausse donne",
            "4;Chloé;;Alice;garde sans;pique;seul;1;44,5",
            "[Bonus et malus]",
            "Joueur;Code;Points;Note",
            "Émile;retard;;arrivé à 21h30",
        ]
    )
    round_ = import_sheets([("manche.csv", text.encode("utf-8"))])[0].round
    assert {seat.player.name: seat.total for seat in round_.seats.all()} == EXAMPLE_TOTALS
    assert round_.adjustments.get().code == "retard"
