"""A sheet import refuses, with a French message naming the field, what the entry forms refuse:
numbers beyond their bounds, control and bidi characters, formula names, JSON nested too deep;
and `--create-players` copes with an adjustment naming a registered player off the table.
"""

import html
import io
import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from championship.models import Adjustment, Round
from championship.sheets import SheetImportError, import_sheets
from federation.models import Player
from tests.conftest import make_player
from tests.factories import EXAMPLE_PLAYERS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sheets"


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name) for name in EXAMPLE_PLAYERS}


def example():
    return json.loads((FIXTURES / "example.json").read_text("utf-8"))


def totals_only(totals):
    sheet = example()
    del sheet["deals"], sheet["expected_totals"]
    sheet["totals"] = dict(zip(EXAMPLE_PLAYERS, totals, strict=True))
    return sheet


def errors_of(sheet, name="demo.json", **options):
    text = sheet if isinstance(sheet, str | bytes) else json.dumps(sheet, ensure_ascii=False)
    with pytest.raises(SheetImportError) as info:
        import_sheets([(name, text)], **options)
    assert not Round.objects.exists()
    return info.value.messages


def text_of(response):
    """The page as a reader sees it: tags removed, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode())).replace("\xa0", " ")


def rename(sheet, old, new):
    """The example sheet with player ``old`` called ``new`` everywhere."""
    text = json.dumps(sheet, ensure_ascii=False)
    return json.loads(text.replace(json.dumps(old, ensure_ascii=False), json.dumps(new, ensure_ascii=False)))


# --- numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1_000_000, 1000, 0])
def test_it_refuses_a_round_number_out_of_the_shared_bounds(season, players, number):
    sheet = example()
    sheet["number"] = number
    assert errors_of(sheet) == [f"demo.json, champ « number » : {number} n'est pas entre 1 et 999"]


@pytest.mark.parametrize("total", [10**30, 3 * 10**9, 1_000_001])
def test_it_refuses_totals_out_of_bounds(season, players, total):
    messages = errors_of(totals_only([total, -total, 0, 0, 0]))
    assert messages == [
        f"demo.json, champ « totals.Alice » : {total} n'est pas entre -1000000 et 1000000",
        f"demo.json, champ « totals.Bruno » : {-total} n'est pas entre -1000000 et 1000000",
    ]


def test_it_refuses_expected_totals_out_of_bounds(season, players):
    sheet = example()
    sheet["expected_totals"]["Alice"] = 10**30
    assert "demo.json, champ « expected_totals.Alice » : " + str(10**30) + (
        " n'est pas entre -1000000 et 1000000"
    ) in errors_of(sheet)


@pytest.mark.parametrize("points", [10**20, 3 * 10**9, 101])
def test_it_refuses_adjustment_points_out_of_bounds(season, players, points):
    sheet = example()
    sheet["adjustments"][0]["points"] = points
    assert errors_of(sheet) == [
        f"demo.json, champ « adjustments[1].points » : {points} n'est pas entre -100 et 100"
    ]


def test_it_refuses_more_deals_than_a_round_holds(season, players):
    sheet = example()
    del sheet["expected_totals"]
    passed = [{"dealer": name, "kind": "passed"} for name in EXAMPLE_PLAYERS]
    sheet["deals"] = passed * 40 + [passed[0]]
    assert errors_of(sheet) == ["demo.json, champ « deals » : une manche compte au plus 200 donnes (ici 201)"]


def test_it_accepts_a_round_of_two_hundred_deals(season, players):
    sheet = example()
    del sheet["expected_totals"]
    sheet["deals"] = [{"dealer": name, "kind": "passed"} for name in EXAMPLE_PLAYERS] * 40
    [imported] = import_sheets([("a.json", json.dumps(sheet))])
    assert imported.round.deals.count() == 200


def test_it_refuses_a_number_too_long_for_python(season, players):
    text = json.dumps(example()).replace('"number": 12', '"number": ' + "9" * 5000)
    [message] = errors_of(text)
    assert message.startswith("demo.json : JSON refusé : nombre trop long")


# --- texts -----------------------------------------------------------------------------------------

BAD_TEXTS = [
    ("Chez\x00Steph", "caractère de contrôle U+0000 interdit"),
    ("Chez\x1fSteph", "caractère de contrôle U+001F interdit"),
    ("Chez\nSteph", "caractère de contrôle U+000A interdit"),
    ("Chez\x9bSteph", "caractère de contrôle U+009B interdit"),
    ("Chez \u202eStephanie", "caractère de direction du texte U+202E interdit"),
    ("Chez \u2069Steph", "caractère de direction du texte U+2069 interdit"),
    ("Chez \u200eSteph", "caractère de direction du texte U+200E interdit"),
]
FORMULAS = [
    ('=HYPERLINK("http://x";"y")', "="),
    ("=cmd|' /C calc'!A0", "="),
    ("+1+1", "+"),
    ("-2+3", "-"),
    ("@SUM(A1)", "@"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TEXTS)
def test_it_refuses_control_and_bidi_characters_in_the_place(season, players, text, message):
    sheet = example()
    sheet["place"] = text
    assert errors_of(sheet) == [f"demo.json, champ « place » : {message}"]


@pytest.mark.parametrize(("text", "sign"), FORMULAS)
def test_it_refuses_a_place_that_a_spreadsheet_would_read_as_a_formula(season, players, text, sign):
    sheet = example()
    sheet["place"] = text
    assert errors_of(sheet) == [
        f"demo.json, champ « place » : ne doit pas commencer par « {sign} » (formule de tableur)"
    ]


@pytest.mark.parametrize(("text", "message"), BAD_TEXTS)
def test_it_refuses_control_and_bidi_characters_in_a_note(season, players, text, message):
    sheet = example()
    sheet["adjustments"][0]["note"] = text
    assert errors_of(sheet) == [f"demo.json, champ « adjustments[1].note » : {message}"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Belle\x00soirée", "caractère de contrôle U+0000 interdit"),
        ("Belle\x0csoirée", "caractère de contrôle U+000C interdit"),
        ("Belle\x7fsoirée", "caractère de contrôle U+007F interdit"),
    ],
)
def test_it_refuses_control_characters_in_the_report_text(season, players, text, message):
    sheet = example()
    sheet["report"]["text"] = text
    assert errors_of(sheet) == [f"demo.json, champ « report.text » : {message}"]


def test_the_report_text_keeps_its_lines_and_tabs(season, players):
    sheet = example()
    sheet["report"]["text"] = "# Soirée\r\n\r\n- Bruno\tgagne\n- -3 pour Alice\n=fin"
    [imported] = import_sheets([("a.json", json.dumps(sheet))])
    assert imported.round.report.text == sheet["report"]["text"]


@pytest.mark.parametrize(("text", "message"), BAD_TEXTS)
def test_it_refuses_control_and_bidi_characters_in_a_new_player_name(season, players, text, message):
    sheet = rename(example(), "Alice", text.replace("Chez", "Zoé"))
    messages = errors_of(sheet, create_players=True)
    assert f"demo.json, champ « players[1].name » : {message}" in messages
    assert not Player.objects.exclude(name__in=EXAMPLE_PLAYERS).exists()


@pytest.mark.parametrize(("text", "sign"), FORMULAS)
def test_it_refuses_a_formula_as_a_new_player_name(season, players, text, sign):
    sheet = rename(example(), "Alice", text)
    messages = errors_of(sheet, create_players=True)
    assert messages[0] == (
        f"demo.json, champ « players[1].name » : ne doit pas commencer par « {sign} » (formule de tableur)"
    )
    assert not Player.objects.exclude(name__in=EXAMPLE_PLAYERS).exists()


def test_it_refuses_a_formula_in_an_adjustment_name_and_in_a_deal(season, players):
    sheet = example()
    sheet["adjustments"][0]["player"] = '=HYPERLINK("http://x")'
    sheet["deals"][0]["taker"] = "@Bruno"
    messages = errors_of(sheet, create_players=True)
    assert (
        "demo.json, champ « adjustments[1].player » : ne doit pas commencer par « = » (formule de tableur)"
        in messages
    )
    assert (
        "demo.json, donne 1, champ « taker » : ne doit pas commencer par « @ » (formule de tableur)"
        in messages
    )


def test_the_command_refuses_a_formula_name_even_with_create_players(season, players, tmp_path):
    path = tmp_path / "formule.json"
    path.write_text(json.dumps(rename(example(), "Alice", "=cmd|' /C calc'!A0"), ensure_ascii=False))
    with pytest.raises(CommandError) as info:
        call_command("import_round", str(path), "--create-players", stdout=io.StringIO())
    assert "champ « players[1].name » : ne doit pas commencer par « = » (formule de tableur)" in str(
        info.value
    )
    assert not Round.objects.exists()
    assert not Player.objects.filter(name__startswith="=").exists()


# --- JSON nested too deep ------------------------------------------------------------------------


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_it_refuses_json_nested_too_deep(season, players, opening):
    text = opening * 100_000
    assert errors_of(text) == ["demo.json : JSON refusé : imbrication trop profonde (20 niveaux au plus)"]


def test_it_refuses_json_nested_deeper_than_a_sheet_needs(season, players):
    sheet = example()
    sheet["place"] = [[[[[[[[[[[[[[[[[[[["Chez Steph"]]]]]]]]]]]]]]]]]]]]
    assert errors_of(sheet) == ["demo.json : JSON refusé : imbrication trop profonde (20 niveaux au plus)"]


def test_the_upload_page_refuses_deep_json_without_a_500(client, secretary, players):
    client.force_login(secretary.user)
    content = b"[" * 500_000
    upload = SimpleUploadedFile("profond.json", content, content_type="application/json")
    response = client.post(reverse("championship:round_import"), {"sheet": upload})
    assert response.status_code == 200
    assert "profond.json : JSON refusé : imbrication trop profonde (20 niveaux au plus)" in text_of(response)


def test_the_upload_page_refuses_huge_numbers_and_nul_without_a_500(client, president, players):
    client.force_login(president.user)
    sheet = totals_only([3 * 10**9, -(3 * 10**9), 0, 0, 0])
    sheet["place"] = "Chez\x00Steph"
    sheet["adjustments"][0]["points"] = 10**20
    content = json.dumps(sheet).encode()
    upload = SimpleUploadedFile("grand.json", content, content_type="application/json")
    response = client.post(reverse("championship:round_import"), {"sheet": upload})
    assert response.status_code == 200
    page = text_of(response)
    assert "grand.json, champ « totals.Alice » : 3000000000 n'est pas entre -1000000 et 1000000" in page
    assert "grand.json, champ « place » : caractère de contrôle U+0000 interdit" in page
    assert f"grand.json, champ « adjustments[1].points » : {10**20} n'est pas entre -100 et 100" in page
    assert not Round.objects.exists()


# --- --create-players and an adjustment for a registered player off the table ------------------------


def test_it_creates_players_and_keeps_a_registered_absent_player_named_by_an_adjustment(season, tmp_path):
    fanny = make_player("Fanny")
    sheet = example()
    sheet["adjustments"].append({"player": "Fanny", "code": "absence", "note": "absente sans prévenir"})
    path = tmp_path / "absente.json"
    path.write_text(json.dumps(sheet, ensure_ascii=False))
    call_command("import_round", str(path), "--create-players", stdout=io.StringIO())
    assert Player.objects.filter(name="Fanny").get() == fanny
    assert set(Player.objects.values_list("name", flat=True)) == {*EXAMPLE_PLAYERS, "Fanny"}
    assert Adjustment.objects.get(code="absence").player == fanny


def test_it_creates_an_unknown_absent_player_named_twice_once(season, players):
    sheet = example()
    sheet["adjustments"] += [
        {"player": "Fanny", "code": "absence"},
        {"player": "Fanny", "code": "retard"},
    ]
    import_sheets([("a.json", json.dumps(sheet))], create_players=True)
    assert Player.objects.filter(name="Fanny").count() == 1
    assert Adjustment.objects.filter(player__name="Fanny").count() == 2
