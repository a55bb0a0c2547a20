"""The sheet as one pydantic model: strict types, French errors, and its published JSON Schema
(`manage.py sheet_schema`, committed as docs/sheet.schema.json) that other tools can rely on."""

import io
import json
from pathlib import Path

import jsonschema
import pytest
from django.core.management import call_command
from pydantic import ValidationError

from championship.management.commands.sheet_schema import schema_text
from championship.models import Round
from championship.sheets import SheetImportError, dumps_sheet, export_sheet, import_sheets, parse_sheet
from championship.sheets.schema import Sheet
from federation.models import Player
from tests.factories import EXAMPLE_PLAYERS

ROOT = Path(__file__).resolve().parents[3]
SCHEMA_FILE = ROOT / "docs" / "sheet.schema.json"
FIXTURES = ROOT / "tests" / "fixtures" / "sheets"
SHEETS = [
    FIXTURES / "example.json",
    FIXTURES / "playoff_four.json",
    *sorted((ROOT / "championship" / "demo" / "sheets").glob("manche-*.json")),
]
ENGLISH = ("Input should", "Field required", "Extra inputs", "Value error", "valid integer", "valid string")


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name) for name in EXAMPLE_PLAYERS}


def example():
    return json.loads((FIXTURES / "example.json").read_text("utf-8"))


def errors_of(sheet, **options):
    with pytest.raises(SheetImportError) as info:
        import_sheets([("demo.json", json.dumps(sheet, ensure_ascii=False))], **options)
    assert not Round.objects.exists()
    return info.value.messages


def validator():
    schema = json.loads(SCHEMA_FILE.read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


# --- the published schema ----------------------------------------------------------------------


def test_the_committed_schema_is_the_models():
    assert SCHEMA_FILE.read_text("utf-8") == schema_text(), (
        "docs/sheet.schema.json is not the schema of championship.sheets.schema.Sheet any more; "
        "regenerate it: python manage.py sheet_schema > docs/sheet.schema.json"
    )


def test_the_command_prints_the_schema_with_french_descriptions():
    out = io.StringIO()
    call_command("sheet_schema", stdout=out)
    schema = json.loads(out.getvalue())
    assert out.getvalue() == schema_text()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "Feuille de manche" and schema["additionalProperties"] is False
    assert schema["required"] == ["season", "number", "date", "players"]
    assert schema["properties"]["number"]["description"].startswith("numéro de la manche")
    deal = schema["$defs"]["DealEntry"]["properties"]
    assert deal["points"]["anyOf"][0] == {
        "type": "number",
        "minimum": 0,
        "maximum": 91,
        "multipleOf": 0.5,
        "description": "points de cartes de l'attaque, de 0 à 91, demis permis (44.5)",
    }
    assert deal["contract"]["anyOf"][0]["enum"] == ["prise", "garde", "garde_sans", "garde_contre", "petite"]


@pytest.mark.parametrize("path", SHEETS, ids=lambda path: path.name)
def test_the_example_and_demo_sheets_are_valid_against_the_published_schema(path):
    sheet = json.loads(path.read_text("utf-8"))
    assert [error.message for error in validator().iter_errors(sheet)] == []


def test_an_exported_sheet_is_valid_against_the_published_schema(season, players):
    [imported] = import_sheets([("a.json", (FIXTURES / "example.json").read_bytes())])
    exported = json.loads(dumps_sheet(export_sheet(imported.round)))
    assert [error.message for error in validator().iter_errors(exported)] == []


SCHEMA_REFUSES = [
    ("bool-points", ["deals", 0, "points"], True),
    ("text-number", ["number"], "12"),
    ("bool-number", ["number"], True),
    ("half-bouts", ["deals", 0, "bouts"], 1.5),
    ("points-quarter", ["deals", 3, "points"], 44.25),
    ("points-high", ["deals", 3, "points"], 92),
    ("unknown-key", ["deals", 0, "note"], "oups"),
    ("poignee-size", ["deals", 0, "poignees", 0, "size"], "quadruple"),
    ("colour", ["players", 0, "colour"], "violet"),
    ("stage", ["stage"], "demi"),
    ("date", ["date"], "19/11/2010"),
    ("season", ["season"], "2010"),
    ("null-stage", ["stage"], None),
    ("long-name", ["players", 0, "name"], "A" * 81),
]


@pytest.mark.parametrize(
    ("path", "value"), [case[1:] for case in SCHEMA_REFUSES], ids=[case[0] for case in SCHEMA_REFUSES]
)
def test_the_schema_and_the_import_refuse_the_same_structure_errors(season, players, path, value):
    sheet = example()
    target = sheet
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert list(validator().iter_errors(sheet))
    assert errors_of(sheet)


# --- strict types, French errors ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["number"], True, "champ « number » : un nombre entier est attendu, pas un booléen"),
        (["number"], "12", "champ « number » : un nombre entier est attendu, pas un texte"),
        (
            ["deals", 0, "points"],
            True,
            "donne 1, champ « points » : un nombre est attendu (demis permis), pas un booléen",
        ),
        (
            ["deals", 0, "bouts"],
            False,
            "donne 1, champ « bouts » : un nombre entier est attendu, pas un booléen",
        ),
        (["deals", 0, "bouts"], 2.5, "donne 1, champ « bouts » : un nombre entier est attendu, pas 2,5"),
        (
            ["deals", 0, "chelem", "announced"],
            0,
            "donne 1, champ « chelem.announced » : true ou false est attendu, pas un nombre",
        ),
        (["deals", 1, "poignees"], {}, "donne 2, champ « poignees » : une liste est attendue, pas un objet"),
        (
            ["deals", 0, "poignees", 0],
            "Bruno",
            "donne 1, champ « poignees[1] » : un objet {…} est attendu, pas un texte",
        ),
        (
            ["deals", 0, "poignees", 0, "size"],
            3,
            "donne 1, champ « poignees[1].size » : un texte est attendu, pas un nombre",
        ),
        (["deals", 0, "miseres"], [3], "donne 1, champ « miseres[1] » : un texte est attendu, pas un nombre"),
        (["players", 0], "Alice", "champ « players[1] » : un objet {…} est attendu, pas un texte"),
        (["season"], None, "champ « season » : un texte est attendu, pas null"),
        (
            ["expected_totals"],
            [],
            "champ « expected_totals » : un objet {joueur: total} est attendu, pas une liste",
        ),
    ],
)
def test_it_refuses_wrong_types_strictly_in_french(season, players, path, value, message):
    sheet = example()
    target = sheet
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert f"demo.json, {message}" in errors_of(sheet)


def test_it_accepts_an_integer_written_with_a_zero_fraction(season, players):
    """JSON Schema counts 12.0 as an integer; so does the import, as before."""
    sheet = example()
    sheet["number"] = 12.0
    sheet["deals"][0]["bouts"] = 2.0
    [imported] = import_sheets([("a.json", json.dumps(sheet))])
    assert imported.round.number == 12 and imported.round.deals.get(number=1).bouts == 2


def test_it_reports_errors_of_the_players_and_of_the_deals_together(season, players):
    sheet = example()
    sheet["players"][0]["name"] = ""
    sheet["deals"][0]["bouts"] = "x"
    sheet["deals"][1]["poignees"] = [{"player": "Bruno", "size": "quadruple"}]
    assert errors_of(sheet) == [
        "demo.json, champ « players[1].name » : ne doit pas être vide",
        "demo.json, donne 1, champ « bouts » : un nombre entier est attendu, pas un texte",
        "demo.json, donne 2, champ « poignees[1].size » : taille de poignée inconnue « quadruple » "
        "(possibles : simple, double, triple)",
    ]


def test_it_reports_a_missing_kind_with_the_other_errors_of_the_deal(season, players):
    sheet = example()
    del sheet["deals"][1]["kind"]
    sheet["deals"][1]["bouts"] = "x"
    assert [message.split(" : ")[0] for message in errors_of(sheet)] == [
        "demo.json, donne 2, champ « kind »",
        "demo.json, donne 2, champ « bouts »",
    ]


def test_no_message_is_in_english(season, players):
    sheet = example()
    sheet.update(number=None, date=7, place={"a": 1}, stage=[], unknown=1)
    sheet["players"][1] = {"colour": 5}
    sheet["deals"] = [None, {"dealer": True, "kind": 1, "poignees": [[]], "chelem": "x"}]
    sheet["adjustments"] = [{"player": "Émile", "code": None, "points": "1", "note": 2}, 3]
    sheet["report"] = {"author": None, "filed": False, "text": []}
    messages = errors_of(sheet)
    assert len(messages) >= 15
    assert not [message for message in messages if any(word in message for word in ENGLISH)]
    assert all(message.startswith("demo.json") for message in messages)


def test_the_model_gives_the_engine_its_deals():
    """The same model serves the web upload, import_round and any later API: parsed alone, it
    gives the deals as the scoring engine takes them."""
    parsed = parse_sheet("example.json", (FIXTURES / "example.json").read_bytes())
    assert parsed.errors == []
    first, passed, _misdeal, last = (deal.to_input() for deal in parsed.sheet.deals)
    assert (first.kind, first.taker, first.partner, str(first.points)) == ("played", "Bruno", "David", "49")
    assert first.poignees[0].size == "simple" and first.miseres == ("Chloé",)
    assert passed.kind == "passed" and passed.taker is None
    assert str(last.points) == "44.5" and last.partner is None


@pytest.mark.parametrize("as_json", [False, True], ids=["python", "json"])
def test_the_model_alone_requires_the_partner_at_five_players(as_json):
    """A later API may validate with the model directly: the table-size rule still holds."""
    sheet = example()
    del sheet["deals"][3]["partner"]
    with pytest.raises(ValidationError) as info:
        Sheet.model_validate_json(json.dumps(sheet)) if as_json else Sheet.model_validate(sheet)
    assert [error["loc"] for error in info.value.errors()] == [("deals", 3, "partner")]
