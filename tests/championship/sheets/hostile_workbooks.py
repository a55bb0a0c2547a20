"""Tiny workbooks that ask a reader for a lot (issue 21), written by hand as a hostile sender
would: a few kilobytes of XML whose repeated rows and columns, or sheets listed many times, would
expand to millions of cells. Shared by the tests and ``tests.benchmarks.hostile_workbooks``.
"""

import io
import zipfile

ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
WORKSHEET = RELS + "/worksheet"


def _zip(parts, first=None):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        if first is not None:
            archive.writestr(zipfile.ZipInfo(first[0]), first[1], compress_type=zipfile.ZIP_STORED)
        for name, content in parts.items():
            archive.writestr(name, content)
    return out.getvalue()


def ods(tables_xml, *, prolog=""):
    """An ODS whose spreadsheet holds ``tables_xml`` (the ``<table:table>`` elements)."""
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}'
        f'<office:document-content xmlns:office="{OFFICE}" xmlns:table="{TABLE}" xmlns:text="{TEXT}" '
        'office:version="1.2"><office:body><office:spreadsheet>'
        f"{tables_xml}</office:spreadsheet></office:body></office:document-content>"
    )
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
        'manifest:version="1.2">'
        f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{ODS_MIME}"/>'
        '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
        "</manifest:manifest>"
    )
    return _zip({"content.xml": content, "META-INF/manifest.xml": manifest}, first=("mimetype", ODS_MIME))


def ods_table(name, rows_repeated=1, columns_repeated=1, text="x"):
    """A table of one row repeated ``rows_repeated`` times, of one filled cell repeated
    ``columns_repeated`` times."""
    return (
        f'<table:table table:name="{name}">'
        f'<table:table-row table:number-rows-repeated="{rows_repeated}">'
        f'<table:table-cell table:number-columns-repeated="{columns_repeated}" office:value-type="string">'
        f"<text:p>{text}</text:p></table:table-cell></table:table-row></table:table>"
    )


def ods_bomb(tables=300, rows=1_000_000, columns=16_384):
    """Fault 1 of issue 21: ``tables`` tables, each one row repeated ``rows`` times of one cell
    repeated ``columns`` times (300 tables: 1.7 KB)."""
    return ods("".join(ods_table(f"T{index}", rows, columns) for index in range(1, tables + 1)))


def xlsx(sheets, parts, *, workbook_extra=""):
    """An XLSX of ``sheets`` [(name, target)] (targets relative to ``xl/``) and its ``parts``
    {path: xml}."""
    entries = "".join(
        f'<sheet name="{name}" sheetId="{index}" r:id="rId{index}"/>'
        for index, (name, _target) in enumerate(sheets, start=1)
    )
    relationships = "".join(
        f'<Relationship Id="rId{index}" Type="{WORKSHEET}" Target="{target}"/>'
        for index, (_name, target) in enumerate(sheets, start=1)
    )
    overrides = "".join(
        f'<Override PartName="/{path}" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for path in parts
        if path.startswith("xl/worksheets/")
    )
    files = {
        "[Content_Types].xml": (
            '<?xml version="1.0" encoding="UTF-8"?>'
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" '
            'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            f"{overrides}</Types>"
        ),
        "_rels/.rels": (
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PACKAGE_RELS}">'
            f'<Relationship Id="rId1" Type="{RELS}/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>"
        ),
        "xl/workbook.xml": (
            f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="{RELS}">'
            f"{workbook_extra}<sheets>{entries}</sheets></workbook>"
        ),
        "xl/_rels/workbook.xml.rels": (
            f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PACKAGE_RELS}">'
            f"{relationships}</Relationships>"
        ),
        **parts,
    }
    return _zip(files)


def xlsx_sheet(rows_xml, *, prolog=""):
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<worksheet xmlns="{MAIN}">'
        f"<sheetData>{rows_xml}</sheetData></worksheet>"
    )


def xlsx_bomb(sheets=1_000, row=5_000):
    """Fault 2 of issue 21: ``sheets`` sheets all pointing at one part whose single row is
    numbered ``row`` (1,000 sheets: 12 KB)."""
    part = xlsx_sheet(f'<row r="{row}"><c r="A{row}" t="inlineStr"><is><t>x</t></is></c></row>')
    names = [(f"S{index}", "worksheets/sheet1.xml") for index in range(1, sheets + 1)]
    return xlsx(names, {"xl/worksheets/sheet1.xml": part})


# Within the sheet count: the tables the imports read (a round's, a season's « Manches »), first.
WANTED = ["Manches", "Manche", "Joueurs", "Donnes", "Bonus et malus"]


def _titles(count):
    return (WANTED + [f"T{index}" for index in range(len(WANTED) + 1, count + 1)])[:count]


def ods_wide_bomb(tables=100, rows=1_000_000, columns=16_384):
    """``tables`` tables (the limit), those the imports read first, each one row repeated
    ``rows`` times of one filled cell repeated ``columns`` times."""
    return ods("".join(ods_table(name, rows, columns) for name in _titles(tables)))


def ods_tall_bomb(tables=100, rows=1_000_000, columns=200):
    """The same within the columns: a row of ``columns`` filled cells repeated ``rows`` times."""
    return ods("".join(ods_table(name, rows, columns) for name in _titles(tables)))


def ods_at_the_cell_limit(rows=4_999, columns=20):
    """What the reader accepts at most, repeated: one table « Manches » of a filled row (a header
    line, then ``rows`` lines of ``columns`` cells: 100,000 cells)."""
    header = (
        '<table:table-row><table:table-cell office:value-type="string"><text:p>Date</text:p>'
        "</table:table-cell></table:table-row>"
    )
    row = (
        f'<table:table-row table:number-rows-repeated="{rows}">'
        f'<table:table-cell table:number-columns-repeated="{columns}" office:value-type="float" '
        'office:value="1"><text:p>1</text:p></table:table-cell></table:table-row>'
    )
    return ods(f'<table:table table:name="Manches">{header}{row}</table:table>')


def ods_blank_cells(megabytes=29):
    """A table of blank cells, each written out (not repeated), ``megabytes`` of XML once
    unzipped, before the tables the imports read: what the reader must parse to pass it by."""
    cell = "<table:table-cell/>"
    count = megabytes * 1_000_000 // len(cell)
    rows = "".join(f"<table:table-row>{cell * 1000}</table:table-row>" for _ in range(count // 1000))
    tables = f'<table:table table:name="Vide">{rows}</table:table>'
    tables += "".join(ods_table(name) for name in WANTED)
    return ods(tables)


def xlsx_sparse_bomb(sheets=100, row=5_000):
    """``sheets`` sheets (the limit), those the imports read first, all pointing at one part whose
    single row is numbered ``row``."""
    part = xlsx_sheet(f'<row r="{row}"><c r="A{row}" t="inlineStr"><is><t>x</t></is></c></row>')
    return xlsx(
        [(name, "worksheets/sheet1.xml") for name in _titles(sheets)], {"xl/worksheets/sheet1.xml": part}
    )


def xlsx_at_the_cell_limit(rows=5_000, columns=20):
    """What the reader accepts at most, each cell written out: a sheet « Manches » of ``rows``
    lines of ``columns`` numbers (100,000 cells)."""
    from openpyxl.utils import get_column_letter

    letters = [get_column_letter(index) for index in range(1, columns + 1)]
    rows_xml = "".join(
        f'<row r="{number}">'
        + "".join(f'<c r="{letter}{number}"><v>{number}</v></c>' for letter in letters)
        + "</row>"
        for number in range(1, rows + 1)
    )
    return xlsx([("Manches", "worksheets/sheet1.xml")], {"xl/worksheets/sheet1.xml": xlsx_sheet(rows_xml)})
