"""Hostile workbooks (issue 21, docs/feuille.md §8.5): a few kilobytes that would expand to
millions of cells, sheets listed a thousand times, rows numbered far down, ZIP bombs, entities.
Every path that reads a workbook (the round import and the past-season import, on the site and by
command) reads only the sheets it needs, within bounds over the whole workbook checked before
anything is expanded, and refuses with a French message that names the limit.

Each file is written by the test itself (``hostile_workbooks``). The reader's time and peak of
memory (allocated by Python, ``tracemalloc``) on the files of the issue and at the limits are
measured and reported (``benchmark``), never asserted.
"""

import io
import time
import tracemalloc
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from championship.sheets import SheetImportError, import_sheets
from championship.sheets import cells as cells_module
from championship.sheets.cells import read_grids
from championship.sheets.grid import Wanted
from championship.sheets.seasons import read_totals_table
from championship.sheets.spreadsheet import prepare_source
from championship.sheets.workbooks import render, round_tables
from tests.championship.sheets import hostile_workbooks as hostile
from tests.championship.sheets.test_sheets_spreadsheet import imported_example, players, scored  # noqa: F401

ROUND, SEASON = "manche", "saison"


def read(path, name, data):
    """The answer of one reading path: the messages of its refusal (or [] once read)."""
    try:
        if path == ROUND:
            prepare_source(name, data)
        else:
            read_totals_table(name, data, "2005-2006")
    except SheetImportError as error:
        return error.messages
    return []


def traced(function):
    """``function()``, its time (a run of its own: tracing slows it) and the peak of memory Python
    allocated during a traced run."""
    start = time.perf_counter()
    function()
    seconds = time.perf_counter() - start
    tracemalloc.start()
    try:
        result = function()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, seconds, peak


def measured(path, name, data):
    """``read``, with its time and peak of memory."""
    return traced(lambda: read(path, name, data))


def report(benchmark, what, path, data, seconds, peak):
    benchmark(
        f"lecteur de classeurs, {what} ({len(data) / 1024:.1f} Kio), import de {path} : "
        f"{seconds * 1000:.1f} ms, pic de mémoire {peak / 1024:.0f} Kio"
    )


# --- the faults of the issue -------------------------------------------------------------------------


@pytest.mark.parametrize("path", [ROUND, SEASON])
def test_an_ods_of_300_tables_repeated_a_million_times_is_refused_before_any_is_expanded(path, db, benchmark):
    """Fault 1: 1.7 KB, 300 tables each one row repeated 1,000,000 times of a cell repeated
    16,384 times (28.6 s and 2.77 GB before, then « il manque la feuille… »)."""
    data = hostile.ods_bomb(tables=300)
    assert len(data) < 2_000
    messages, seconds, peak = measured(path, "bombe.ods", data)
    report(benchmark, "ODS de 300 feuilles répétées", path, data, seconds, peak)
    assert messages == ["bombe.ods : classeur de plus de 100 feuilles (100 au plus)"]


@pytest.mark.parametrize("path", [ROUND, SEASON])
def test_an_ods_of_1000_tables_is_refused_without_a_memory_error(path, db):
    """1,000 tables (4 KB) ended in ``MemoryError``, shown as « fichier illisible »."""
    assert read(path, "bombe.ods", hostile.ods_bomb(tables=1000)) == [
        "bombe.ods : classeur de plus de 100 feuilles (100 au plus)"
    ]


@pytest.mark.parametrize("path", [ROUND, SEASON])
def test_an_xlsx_listing_one_sheet_1000_times_is_refused_from_its_list(path, db, benchmark):
    """Fault 2: 12 KB, 1,000 sheets pointing at one part whose single row is numbered 5,000
    (a gunicorn worker killed after 121 s before)."""
    data = hostile.xlsx_bomb(sheets=1000)
    assert len(data) < 13_000
    messages, seconds, peak = measured(path, "bombe.xlsx", data)
    report(benchmark, "XLSX d'une feuille listée 1 000 fois", path, data, seconds, peak)
    assert messages == ["bombe.xlsx : classeur de plus de 100 feuilles (100 au plus)"]
    assert read(path, "bombe.xlsx", hostile.xlsx_bomb(sheets=20_000)) == messages


@pytest.mark.parametrize("path", [ROUND, SEASON])
def test_the_same_tables_within_the_sheet_count_are_refused_at_their_first_cell(path, db, benchmark):
    """The tables an import reads, filled as in fault 1: refused at the first cell, before the
    row or the cell is repeated, naming the sheet, the line and the limit."""
    title = "Manche" if path == ROUND else "Manches"
    data = hostile.ods_wide_bomb(tables=100)
    messages, seconds, peak = measured(path, "bombe.ods", data)
    report(benchmark, "ODS de 100 feuilles, cellule répétée 16 384 fois", path, data, seconds, peak)
    assert messages == [
        f"bombe.ods, feuille {title}, ligne 1 : cellule remplie répétée 16384 fois au-delà de la "
        "colonne 200 (200 colonnes au plus)"
    ]
    assert read(path, "bombe.ods", hostile.ods_tall_bomb(tables=100)) == [
        f"bombe.ods, feuille {title}, ligne 1 : ligne remplie répétée 1000000 fois au-delà de la "
        "ligne 5000 (5000 lignes au plus par feuille)"
    ]


def test_a_row_repeated_within_the_lines_counts_as_the_cells_it_expands_to(db):
    """200 cells × 501 lines = 100,200 cells: beyond the 100,000 over the workbook."""
    table = hostile.ods_table("Manches", rows_repeated=501, columns_repeated=200)
    assert read(SEASON, "t.ods", hostile.ods(table)) == [
        "t.ods, feuille Manches, ligne 1 : plus de 100000 cellules à lire dans le classeur (100000 au "
        "plus, une cellule ou une ligne répétée comptant autant de fois qu'elle est répétée)"
    ]
    within = hostile.ods(hostile.ods_table("Manches", rows_repeated=500, columns_repeated=200))
    grids = read_grids("t.ods", within, "ods", sheets=Wanted(("Manches",)))
    assert [line.number for line in grids["Manches"]] == list(range(1, 501))
    assert grids["Manches"][499].cells == ["x"] * 200


@pytest.mark.parametrize("fmt", ["ods", "xlsx"])
def test_the_most_the_reader_accepts_is_read(fmt, db, benchmark):
    """100,000 cells in « Manches » (ODS: a row repeated; XLSX: each cell written out)."""
    data = hostile.ods_at_the_cell_limit() if fmt == "ods" else hostile.xlsx_at_the_cell_limit()
    sheets = Wanted(("Manches",), else_first=True)
    grids, seconds, peak = traced(lambda: read_grids(f"limite.{fmt}", data, fmt, sheets=sheets))
    report(benchmark, f"{fmt.upper()} de 100 000 cellules (la limite)", SEASON, data, seconds, peak)
    lines = grids["Manches"]
    assert sum(len(line.cells) for line in lines) == (99_981 if fmt == "ods" else 100_000)
    assert lines[-1].number == 5000


def test_the_cells_are_counted_over_every_sheet_read(db):
    """Four sheets of 30,000 cells: each within the bound, the fourth takes them beyond it."""
    tables = "".join(
        hostile.ods_table(name, 150, 200) for name in ("Manche", "Joueurs", "Donnes", "Bonus et malus")
    )
    messages = read(ROUND, "t.ods", hostile.ods(tables))
    assert messages == [
        "t.ods, feuille Bonus et malus, ligne 1 : plus de 100000 cellules à lire dans le classeur (100000 au "
        "plus, une cellule ou une ligne répétée comptant autant de fois qu'elle est répétée)"
    ]


@pytest.mark.parametrize("path", [ROUND, SEASON])
def test_an_xlsx_whose_row_is_numbered_5000_costs_one_line(path, db, benchmark):
    """The sheets of fault 2 within the sheet count: only the sheets the import needs are read,
    each once, and a row numbered 5,000 is one line (no 5,000 × 200 blank cells visited)."""
    data = hostile.xlsx_sparse_bomb(sheets=100)
    messages, seconds, peak = measured(path, "bombe.xlsx", data)
    report(benchmark, "XLSX de 100 feuilles à la ligne 5 000", path, data, seconds, peak)
    if path == ROUND:  # read, then refused as a round sheet: the heading « x » is no heading
        assert messages[0].startswith("bombe.xlsx, feuille Manche, ligne 5000 : rubrique inconnue « x »")
    else:
        assert messages == ["bombe.xlsx : il manque la colonne « Date »"]
    grids = read_grids("bombe.xlsx", data, "xlsx", sheets=Wanted(("Manche", "Joueurs")))
    assert list(grids) == ["Manche", "Joueurs"]
    assert [(line.number, line.cells) for line in grids["Joueurs"]] == [(5000, ["x"])]


def test_a_filled_line_beyond_5000_or_cell_beyond_column_200_is_refused_in_an_xlsx(db):
    part = hostile.xlsx_sheet('<row r="5001"><c r="A5001"><v>1</v></c></row>')
    data = hostile.xlsx([("Manches", "worksheets/sheet1.xml")], {"xl/worksheets/sheet1.xml": part})
    assert read(SEASON, "t.xlsx", data) == [
        "t.xlsx, feuille Manches, ligne 5001 : ligne remplie au-delà de la ligne 5000 (5000 lignes au plus "
        "par feuille)"
    ]
    part = hostile.xlsx_sheet('<row r="2"><c r="GS2"><v>1</v></c></row>')  # GS: column 201
    data = hostile.xlsx([("Manches", "worksheets/sheet1.xml")], {"xl/worksheets/sheet1.xml": part})
    assert read(SEASON, "t.xlsx", data) == [
        "t.xlsx, feuille Manches, ligne 2 : cellule remplie au-delà de la colonne 200 (200 colonnes au plus)"
    ]
    # blank rows and cells far away cost nothing and are no refusal
    part = hostile.xlsx_sheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Date</t></is></c><c r="XFD1"/></row><row r="1048576"/>'
    )
    data = hostile.xlsx([("Manches", "worksheets/sheet1.xml")], {"xl/worksheets/sheet1.xml": part})
    assert read_grids("t.xlsx", data, "xlsx")["Manches"][0].cells == ["Date"]


def test_a_repeated_space_is_counted_before_it_is_made(db):
    """« <text:s text:c="…"/> » writes that many spaces: a cell of 100 million is refused before
    the text is built."""
    table = (
        '<table:table table:name="Manches"><table:table-row><table:table-cell office:value-type="string">'
        '<text:p>a<text:s text:c="100000000"/>b</text:p></table:table-cell></table:table-row></table:table>'
    )
    assert read(SEASON, "t.ods", hostile.ods(table)) == [
        "t.ods, feuille Manches, ligne 1 : cellule de plus de 32767 caractères (32767 au plus)"
    ]


def test_the_xml_elements_of_the_sheets_read_are_bounded(db, monkeypatch):
    """Blank cells written out one by one cost a parse each: the sheets read hold at most
    ``MAX_ELEMENTS`` elements (lowered here to keep the file small)."""
    monkeypatch.setattr(cells_module, "MAX_ELEMENTS", 1000)
    rows = "<table:table-row>" + "<table:table-cell/>" * 999 + "</table:table-row>"
    table = f'<table:table table:name="Manches">{rows * 2}</table:table>'
    assert read(SEASON, "t.ods", hostile.ods(table)) == [
        "t.ods, feuille Manches, ligne 2 : plus de 1000 éléments XML dans les feuilles lues (1000 au plus)"
    ]
    # a sheet not read is passed over whatever it holds
    data = hostile.ods(table.replace("Manches", "Notes") + hostile.ods_table("Manches"))
    assert read_grids("t.ods", data, "ods", sheets=Wanted(("Manches",)))["Manches"][0].cells == ["x"]


# --- only the sheets an import needs ----------------------------------------------------------------


def test_a_round_workbook_is_read_without_its_other_sheets(players):  # noqa: F811
    """The round import reads « Manche », « Joueurs », « Donnes » and « Bonus et malus » only: a
    sheet it does not need is never parsed, even broken."""
    round_ = imported_example()
    before = scored(round_)
    data = render(round_tables(round_), "xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item)
            if item.filename == "xl/worksheets/sheet5.xml":  # « Parts »
                content = b"<worksheet><sheetData><row><c><v>1</c></row>"  # not even XML
            target.writestr(item, content)
    with zipfile.ZipFile(out) as check:
        assert b"Parts" in check.read("xl/workbook.xml")
    round_.delete()
    again = import_sheets([("manche.xlsx", out.getvalue())])[0].round
    assert scored(again) == before


def test_a_totals_table_is_read_from_manches_or_else_its_first_sheet(db):
    """The season import reads one sheet: « Manches » wherever it is, else the first; a first
    sheet beyond the bounds does not stop a later « Manches » from being read."""
    first = hostile.ods_table("Classement", rows_repeated=1_000_000, columns_repeated=16_384)
    manches = hostile.ods_table("Manches", text="Date")
    grids = read_grids(
        "s.ods", hostile.ods(first + manches), "ods", sheets=Wanted(("Manches",), else_first=True)
    )
    assert list(grids) == ["Manches"]
    grids = read_grids(
        "s.ods",
        hostile.ods(manches.replace("Manches", "Saison 2005")),
        "ods",
        sheets=Wanted(("Manches",), else_first=True),
    )
    assert list(grids) == ["Saison 2005"]
    assert read(SEASON, "s.ods", hostile.ods(first)) == [
        "s.ods, feuille Classement, ligne 1 : cellule remplie répétée 16384 fois au-delà de la colonne 200 "
        "(200 colonnes au plus)"
    ]


# --- every path: the pages and the commands ----------------------------------------------------------


def test_the_round_import_page_tells_the_secretary_the_limit(client, secretary):
    client.force_login(secretary.user)
    upload = SimpleUploadedFile("bombe.ods", hostile.ods_bomb(tables=300))
    response = client.post(reverse("championship:round_import"), {"sheet": upload, "action": "preview"})
    assert response.status_code == 200
    assert "classeur de plus de 100 feuilles (100 au plus)" in response.content.decode()


def test_the_season_import_page_tells_the_board_the_limit(client, db):
    from django.contrib.auth import get_user_model

    client.force_login(get_user_model().objects.create_superuser("racine", password="x"))
    upload = SimpleUploadedFile("bombe.xlsx", hostile.xlsx_bomb(sheets=1000))
    response = client.post(
        "/saisons/importer/", {"action": "preview", "season": "2005-2006", "table": upload}
    )
    assert response.status_code == 200
    assert "classeur de plus de 100 feuilles (100 au plus)" in response.content.decode()


@pytest.mark.parametrize("command", ["import_round", "import_season"])
def test_the_commands_refuse_the_same_files(command, db, tmp_path):
    path = tmp_path / "bombe.ods"
    path.write_bytes(hostile.ods_bomb(tables=300))
    arguments = [str(path)] if command == "import_round" else ["2005-2006", str(path)]
    with pytest.raises(CommandError, match=r"classeur de plus de 100 feuilles \(100 au plus\)"):
        call_command(command, *arguments, stdout=io.StringIO())


def test_the_season_command_refuses_a_file_beyond_a_megabyte(db, tmp_path):
    """``/saisons/importer/`` refused it on the form; ``import_season`` read it whole."""
    path = tmp_path / "saison.csv"
    path.write_bytes(b"Date;Alice\n" + b"01/10/2005;0\n" * 80_000)
    with pytest.raises(
        CommandError, match=r"fichier trop gros pour un tableau de totaux \(1040011 octets, 1000000 au plus\)"
    ):
        call_command("import_season", "2005-2006", str(path), stdout=io.StringIO())


# --- what held, kept held ----------------------------------------------------------------------------


def test_a_zip_bomb_is_refused_before_it_is_inflated(db):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", hostile.ODS_MIME)
        archive.writestr("content.xml", b" " * 31_000_000)
    assert len(out.getvalue()) < 100_000
    assert read(ROUND, "bombe.ods", out.getvalue()) == [
        "bombe.ods : classeur trop gros une fois décompressé (31000046 octets, 30000000 au plus)"
    ]


ENTITIES = (
    '<!DOCTYPE lol [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
)
EXTERNAL = '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>'
REFUSED_DTD = (
    "classeur refusé : son XML déclare une DTD ou des entités (« <!DOCTYPE », « <!ENTITY »), ce qu'aucun "
    "tableur n'écrit"
)


@pytest.mark.parametrize("prolog", [ENTITIES, EXTERNAL], ids=["expansion", "xxe"])
def test_entities_and_external_entities_are_refused(prolog, db):
    table = (
        '<table:table table:name="Manches"><table:table-row><table:table-cell office:value-type="string">'
        "<text:p>&lol3;&xxe;</text:p></table:table-cell></table:table-row></table:table>"
    )
    data = hostile.ods(table, prolog=prolog)
    assert read(SEASON, "t.ods", data) == [f"t.ods : {REFUSED_DTD}"]
    part = hostile.xlsx_sheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>&xxe;</t></is></c></row>', prolog=prolog
    )
    data = hostile.xlsx([("Manches", "worksheets/sheet1.xml")], {"xl/worksheets/sheet1.xml": part})
    assert read(SEASON, "t.xlsx", data) == [f"t.xlsx : {REFUSED_DTD}"]


def test_dde_is_a_formula_refused_in_xlsx_and_ods(db):
    part = hostile.xlsx_sheet(
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Date</t></is></c></row>'
        '<row r="2"><c r="A2" t="str"><f>cmd|\' /C calc\'!A0</f><v>0</v></c></row>'
    )
    data = hostile.xlsx([("Manches", "worksheets/sheet1.xml")], {"xl/worksheets/sheet1.xml": part})
    assert read(SEASON, "t.xlsx", data) == [
        "t.xlsx, feuille Manches, ligne 2, colonne Date : formule refusée (« =cmd|' /C calc'!A0 ») : "
        "saisir la valeur elle-même"
    ]
    table = (
        '<table:table table:name="Manches"><table:table-row><table:table-cell office:value-type="string">'
        "<text:p>Date</text:p></table:table-cell></table:table-row><table:table-row>"
        '<table:table-cell table:formula="of:=DDE(&quot;cmd&quot;;&quot;/C calc&quot;;&quot;A0&quot;)" '
        'office:value-type="float" office:value="0"><text:p>0</text:p></table:table-cell></table:table-row>'
        "</table:table>"
    )
    assert read(SEASON, "t.ods", hostile.ods(table)) == [
        "t.ods, feuille Manches, ligne 2, colonne Date : "
        'formule refusée (« of:=DDE("cmd";"/C calc";"A0") ») : saisir la valeur elle-même'
    ]


def test_a_macro_workbook_renamed_is_read_as_its_values_only(players):  # noqa: F811
    """An .xlsm renamed .xlsx: its macros (``vbaProject.bin``) are never looked at; its cells are
    read like any other's."""
    round_ = imported_example()
    before = scored(round_)
    data = render(round_tables(round_), "xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            target.writestr(item, source.read(item))
        target.writestr("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0 macros")
    round_.delete()
    assert scored(import_sheets([("manche.xlsx", out.getvalue())])[0].round) == before


def test_a_csv_is_held_to_the_same_lines_and_columns(db):
    data = b"Date;Alice\n" + b"01/10/2005;0\n" * 5_000
    assert read(SEASON, "s.csv", data) == [
        "s.csv, ligne 5001 : ligne remplie au-delà de la ligne 5000 (5000 lignes au plus par feuille)"
    ]
    data = b"Date" + b";" * 200 + b"x\n"
    assert read(SEASON, "s.csv", data) == [
        "s.csv, ligne 1 : cellule remplie au-delà de la colonne 200 (200 colonnes au plus)"
    ]
