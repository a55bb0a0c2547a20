"""Round sheets: import (command and service), validation errors, export and round-trip."""

import copy
import datetime
import io
import json
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat
from championship.sheets import SheetImportError, dumps_sheet, import_sheets
from federation.models import Player, Season
from tests.conftest import make_player
from tests.factories import EXAMPLE_PLAYERS, EXAMPLE_TOTALS

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "sheets"
DEMO_SHEETS = Path(__file__).resolve().parents[3] / "championship" / "demo" / "sheets"
DEMO = sorted(DEMO_SHEETS.glob("manche-*.json"))


def example():
    return json.loads((FIXTURES / "example.json").read_text("utf-8"))


def totals_only_example():
    sheet = example()
    del sheet["deals"], sheet["expected_totals"]
    sheet["totals"] = {"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
    return sheet


@pytest.fixture
def players(db):
    return {name: Player.objects.create(name=name) for name in EXAMPLE_PLAYERS}


def errors_of(sheet, name="demo.json", **options):
    """The messages of a refused import of one sheet (a dict, or JSON text as is)."""
    text = sheet if isinstance(sheet, str | bytes) else json.dumps(sheet, ensure_ascii=False)
    with pytest.raises(SheetImportError) as info:
        import_sheets([(name, text)], **options)
    return info.value.messages


def model_counts():
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def export_text(*args):
    out = io.StringIO()
    call_command("export_round", *args, stdout=out)
    return out.getvalue()


def by_root():
    """`--by` for a command-line homologation: a superuser (the season may not exist yet)."""
    get_user_model().objects.get_or_create(username="root", defaults={"is_superuser": True})
    return ["--by", "root"]


def write(tmp_path, sheet, name="demo.json"):
    path = tmp_path / name
    path.write_text(sheet if isinstance(sheet, str) else json.dumps(sheet, ensure_ascii=False), "utf-8")
    return str(path)


def championship_of(round_):
    points = {}
    for line in ChampionshipLine.objects.filter(round=round_).select_related("player").order_by("order"):
        points.setdefault(line.player.name, []).append((line.code, line.points))
    return points


# --- the example of docs/feuille.md ----------------------------------------------------------------


def test_it_imports_the_example_sheet_with_its_expected_totals(season, players):
    [imported] = import_sheets([("example.json", (FIXTURES / "example.json").read_bytes())])
    round_ = imported.round
    assert (round_.season, round_.number, round_.stage, round_.table) == (season, 12, "regular", "")
    assert round_.date == datetime.date(2010, 11, 19) and round_.place == "Chez Steph"
    assert round_.status == Round.DRAFT and not round_.totals_only
    seats = list(round_.seats.select_related("player").order_by("position"))
    assert [(s.player.name, s.colour) for s in seats] == [
        ("Alice", "blanc"),
        ("Bruno", "jaune"),
        ("Chloé", "rouge"),
        ("David", "bleu"),
        ("Émile", "vert"),
    ]
    assert {s.player.name: s.total for s in seats} == EXAMPLE_TOTALS
    # the sheet's expected totals are the round's paper check, kept with it
    assert round_.paper_totals == {str(s.player_id): EXAMPLE_TOTALS[s.player.name] for s in seats}
    assert round_.pot_left == 80
    first, passed, misdeal, last = round_.deals.order_by("number")
    assert (first.taker, first.partner, first.contract, first.called) == (
        players["Bruno"],
        players["David"],
        "garde",
        "coeur",
    )
    assert first.poignees == [{"player": players["Bruno"].pk, "size": "simple"}]
    assert first.miseres == [players["Chloé"].pk]
    assert (first.petit_au_bout, first.unit, first.made) == ("attack", 110, True)
    assert (passed.kind, misdeal.kind) == ("passed", "misdeal")
    assert (last.partner, str(last.points), last.unit) == (None, "44.5", -130)
    [adjustment] = round_.adjustments.all()
    assert (adjustment.player, adjustment.code, adjustment.points, adjustment.note) == (
        players["Émile"],
        "retard",
        -1,
        "arrivé à 21h30",
    )
    report = Report.objects.get(round=round_)
    assert (report.author, report.filed_on, report.text) == (
        players["Bruno"],
        datetime.date(2010, 11, 24),
        "…",
    )
    assert not ChampionshipLine.objects.exists()


def test_it_stores_the_championship_points_of_the_example_once_homologated(season, players):
    [imported] = import_sheets([("example.json", (FIXTURES / "example.json").read_bytes())], homologate=True)
    round_ = imported.round
    assert round_.status == Round.HOMOLOGATED and round_.homologated_by is None
    assert round_.history.order_by("-history_date", "-history_id").first().history_change_reason == (
        "importée et homologuée"
    )
    assert championship_of(round_) == {
        "Alice": [("rank", 1)],
        "Bruno": [("rank", 10), ("wall", 1)],
        "Chloé": [("rank", 5), ("wall", 1)],
        "David": [("rank", 7), ("wall", 1)],
        "Émile": [("rank", 3), ("wall", 1), ("retard", -1)],
    }


def test_it_imports_a_totals_only_round(season, players):
    [imported] = import_sheets([("soiree.json", json.dumps(totals_only_example()))], homologate=True)
    round_ = imported.round
    assert round_.totals_only and not round_.deals.exists()
    assert {s.player.name: s.total for s in round_.seats.select_related("player")}["Alice"] == 300
    codes = set(ChampionshipLine.objects.filter(round=round_).values_list("code", flat=True))
    assert codes == {"rank", "big_win", "retard"}


def test_it_imports_a_four_player_playoff_round_with_a_defence_chelem(season, players):
    [imported] = import_sheets([("playoff.json", (FIXTURES / "playoff_four.json").read_bytes())])
    round_ = imported.round
    assert (round_.stage, round_.table, round_.seats.count()) == ("playoff", "A", 4)
    first, second, petit_sec, last = round_.deals.order_by("number")
    assert first.contract == "prise"  # « petite » is accepted and stored as a Prise
    assert (second.chelem_announced, second.chelem_made_by) == (True, "defence")
    assert petit_sec.kind == "petit_sec"
    assert last.taker == last.dealer == players["David"] and last.chelem_made_by == "attack"
    assert Report.objects.get(round=round_).filed_on is None


# --- the command -------------------------------------------------------------------------------------


def test_it_imports_through_the_command_and_says_what_it_did(season, players):
    out = io.StringIO()
    call_command("import_round", str(FIXTURES / "example.json"), stdout=out)
    assert "manche 12 importée (brouillon)" in out.getvalue()
    assert Round.objects.get(number=12).status == Round.DRAFT


def test_it_refuses_unknown_players_unless_asked_to_create_them(db):
    with pytest.raises(CommandError) as info:
        call_command("import_round", str(FIXTURES / "example.json"))
    message = str(info.value)
    assert "rien n'a été enregistré" in message
    assert "example.json, champ « players[3].name » : « Chloé » n'est pas un joueur inscrit" in message
    assert "--create-players" in message
    assert not Season.objects.exists() and not Player.objects.exists()

    call_command("import_round", str(FIXTURES / "example.json"), "--create-players", stdout=io.StringIO())
    assert set(Player.objects.values_list("name", flat=True)) == set(EXAMPLE_PLAYERS)
    assert all(player.user is None for player in Player.objects.all())


def test_it_creates_the_season_from_the_default_rulebook(db, players):
    call_command("import_round", str(FIXTURES / "example.json"), stdout=io.StringIO())
    season = Season.objects.get(name="2010-2011")
    assert (season.start_date, season.end_date) == (datetime.date(2010, 9, 1), datetime.date(2011, 6, 30))
    assert season.rulebook.deal.chip_unit == 10 and "[deal]" in season.rulebook_text


def test_it_homologates_through_the_command(season, players):
    call_command(
        "import_round", str(FIXTURES / "example.json"), "--homologate", *by_root(), stdout=io.StringIO()
    )
    round_ = Round.objects.get(number=12)
    assert round_.status == Round.HOMOLOGATED and round_.homologated_at is not None
    assert ChampionshipLine.objects.filter(round=round_).count() == 10


def test_it_exits_with_a_command_error_on_a_missing_file(db, tmp_path):
    with pytest.raises(CommandError, match="absent.json : fichier illisible"):
        call_command("import_round", str(tmp_path / "absent.json"))


def test_it_names_the_file_deal_and_field_in_the_command_error(season, players, tmp_path):
    sheet = example()
    sheet["deals"][3]["points"] = 92
    path = write(tmp_path, sheet)
    with pytest.raises(CommandError) as info:
        call_command("import_round", path)
    assert f"{path}, donne 4, champ « points » : 92 n'est pas entre 0 et 91" in str(info.value)


def test_it_warns_about_an_unexpected_dealer_but_imports(season, players, tmp_path):
    sheet = example()
    sheet["deals"][1]["dealer"] = "David"
    out = io.StringIO()
    call_command("import_round", write(tmp_path, sheet), stdout=out)
    assert "avertissement, donne 2 : donneur attendu Bruno, inscrit David" in out.getvalue()
    assert Round.objects.get().warnings


# --- validation: one test per error, each naming file, deal and field ---------------------------------


def change(path, value):
    """A mutation of the example sheet: set (or with value DELETE, remove) the key at ``path``."""

    def mutate(sheet):
        *parents, last = path
        target = sheet
        for key in parents:
            target = target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = copy.deepcopy(value)
        return sheet

    return mutate


DELETE = object()

INVALID_SHEETS = [
    # the round
    (
        "season-name",
        change(["season"], "2010-2012"),
        "champ « season » : « 2010-2012 » n'est pas un nom de saison",
    ),
    ("season-type", change(["season"], 2010), "champ « season » : un texte est attendu, pas un nombre"),
    ("season-missing", change(["season"], DELETE), "champ « season » : champ obligatoire manquant"),
    ("number-zero", change(["number"], 0), "champ « number » : 0 n'est pas entre 1 et 999"),
    (
        "number-text",
        change(["number"], "12"),
        "champ « number » : un nombre entier est attendu, pas un texte",
    ),
    ("date-invalid", change(["date"], "2010-13-01"), "champ « date » : « 2010-13-01 » n'est pas une date"),
    ("date-format", change(["date"], "19/11/2010"), "champ « date » : « 19/11/2010 » n'est pas une date"),
    (
        "date-outside",
        change(["date"], "2011-08-01"),
        "champ « date » : le 01/08/2011 n'est pas dans la saison",
    ),
    (
        "place-type",
        change(["place"], ["Chez Steph"]),
        "champ « place » : un texte est attendu, pas une liste",
    ),
    ("stage", change(["stage"], "demi"), "champ « stage » : phase inconnue « demi »"),
    ("playoff-table", change(["stage"], "playoff"), "champ « table » : la table des play-offs"),
    ("table-regular", change(["table"], "A"), "champ « table » : une table (A ou B) ne se donne que pour"),
    # the players
    (
        "players-count",
        lambda s: s["players"].pop() and s["players"].pop() and s,
        "champ « players » : une table compte 4 ou 5",
    ),
    ("players-type", change(["players"], "Alice"), "champ « players » : une liste de joueurs est attendue"),
    (
        "players-duplicate",
        change(["players", 4, "name"], "Alice"),
        "champ « players[5].name » : Alice est deux fois à la table",
    ),
    (
        "players-unknown",
        change(["players", 4, "name"], "Zoé"),
        "champ « players[5].name » : « Zoé » n'est pas",
    ),
    ("players-close", change(["players", 2, "name"], "Chloe"), "vouliez-vous dire « Chloé » ?"),
    ("players-name", change(["players", 0, "name"], ""), "champ « players[1].name » : ne doit pas être vide"),
    ("players-key", change(["players", 0, "surnom"], "Alice"), "champ « players[1].surnom » : clé inconnue"),
    ("colour", change(["players", 0, "colour"], "violet"), "champ « players[1].colour » : couleur inconnue"),
    (
        "colour-twice",
        change(["players", 1, "colour"], "blanc"),
        "champ « players[2].colour » : la couleur blanc",
    ),
    # each field of a deal
    (
        "dealer",
        change(["deals", 0, "dealer"], "Zoé"),
        "donne 1, champ « dealer » : Zoé n'est pas à cette table",
    ),
    (
        "dealer-missing",
        change(["deals", 1, "dealer"], DELETE),
        "donne 2, champ « dealer » : champ obligatoire",
    ),
    (
        "kind",
        change(["deals", 1, "kind"], "nulle"),
        "donne 2, champ « kind » : type de donne inconnu « nulle »",
    ),
    (
        "kind-missing",
        change(["deals", 1, "kind"], DELETE),
        "donne 2, champ « kind » : type de donne manquant",
    ),
    (
        "not-played",
        change(["deals", 1, "taker"], "Alice"),
        "donne 2, champ « taker » : sans objet pour une donne",
    ),
    ("taker", change(["deals", 0, "taker"], "Zoé"), "donne 1, champ « taker » : Zoé n'est pas à cette table"),
    ("taker-type", change(["deals", 0, "taker"], 2), "donne 1, champ « taker » : un texte est attendu"),
    ("contract", change(["deals", 0, "contract"], "grande"), "donne 1, champ « contract » : contrat inconnu"),
    (
        "contract-missing",
        change(["deals", 0, "contract"], DELETE),
        "donne 1, champ « contract » : le contrat",
    ),
    ("called", change(["deals", 0, "called"], "etoile"), "donne 1, champ « called » : couleur inconnue"),
    (
        "called-rank",
        change(["deals", 0, "called_rank"], "valet"),
        "donne 1, champ « called_rank » : carte appelée inconnue",
    ),
    (
        "partner-self",
        change(["deals", 0, "partner"], "Bruno"),
        "donne 1, champ « partner » : le preneur ne peut",
    ),
    ("partner-missing", change(["deals", 3, "partner"], DELETE), "donne 4, champ « partner » : à 5 joueurs"),
    ("bouts", change(["deals", 0, "bouts"], 4), "donne 1, champ « bouts » : 4 n'est pas entre 0 et 3"),
    (
        "bouts-type",
        change(["deals", 0, "bouts"], "2"),
        "donne 1, champ « bouts » : un nombre entier est attendu",
    ),
    ("points", change(["deals", 3, "points"], 92), "donne 4, champ « points » : 92 n'est pas entre 0 et 91"),
    (
        "points-half",
        change(["deals", 3, "points"], 44.3),
        "donne 4, champ « points » : 44,3 n'est pas un multiple",
    ),
    (
        "points-bouts",
        change(["deals", 0, "points"], 5),
        "donne 1, champ « points » : avec 2 bout(s), le preneur",
    ),
    (
        "points-type",
        change(["deals", 0, "points"], "49"),
        "donne 1, champ « points » : un nombre est attendu",
    ),
    (
        "poignee-size",
        change(["deals", 0, "poignees", 0, "size"], "quadruple"),
        "donne 1, champ « poignees[1].size » : taille de poignée inconnue « quadruple »",
    ),
    (
        "poignee-player",
        change(["deals", 0, "poignees", 0, "player"], "Zoé"),
        "donne 1, champ « poignees » : Zoé n'est pas à cette table",
    ),
    (
        "poignee-twice",
        lambda s: s["deals"][0]["poignees"].append({"player": "Bruno", "size": "double"}) or s,
        "donne 1, champ « poignees » : Bruno ne peut montrer qu'une poignée",
    ),
    (
        "poignee-key",
        change(["deals", 0, "poignees", 0, "atouts"], 8),
        "donne 1, champ « poignees[1].atouts » : clé inconnue",
    ),
    (
        "miseres",
        change(["deals", 0, "miseres"], ["Zoé"]),
        "donne 1, champ « miseres » : Zoé n'est pas à cette table",
    ),
    (
        "miseres-twice",
        change(["deals", 0, "miseres"], ["Chloé", "Chloé"]),
        "donne 1, champ « miseres » : Chloé",
    ),
    ("miseres-type", change(["deals", 0, "miseres"], "Chloé"), "donne 1, champ « miseres » : une liste"),
    (
        "petit-au-bout",
        change(["deals", 0, "petit_au_bout"], "both"),
        "donne 1, champ « petit_au_bout » : camp inconnu « both »",
    ),
    (
        "chelem-made-by",
        change(["deals", 0, "chelem", "made_by"], "attack"),
        "donne 1, champ « chelem.made_by » : un chelem de l'attaque demande au moins 86,5 points",
    ),
    (
        "chelem-side",
        change(["deals", 0, "chelem", "made_by"], "personne"),
        "donne 1, champ « chelem.made_by » : camp inconnu « personne »",
    ),
    (
        "chelem-announced",
        change(["deals", 0, "chelem", "announced"], "oui"),
        "donne 1, champ « chelem.announced » : true ou false est attendu, pas un texte",
    ),
    (
        "chelem-key",
        change(["deals", 0, "chelem", "by"], "attack"),
        "donne 1, champ « chelem.by » : clé inconnue",
    ),
    ("deal-key", change(["deals", 2, "note"], "oups"), "donne 3, champ « note » : clé inconnue"),
    ("deal-type", change(["deals", 2], "misdeal"), "donne 3, champ « deals » : une donne est un objet"),
    ("deals-empty", change(["deals"], []), "champ « deals » : au moins une donne est attendue"),
    ("deals-and-totals", change(["totals"], {"Alice": 0}), "champ « totals » : une feuille donne soit"),
    ("no-deals", change(["deals"], DELETE), "champ « deals » : champ obligatoire manquant"),
    # adjustments
    (
        "adjustment-code",
        change(["adjustments", 0, "code"], "retardataire"),
        "champ « adjustments[1].code » : « retardataire » n'est pas dans le catalogue de la saison",
    ),
    (
        "adjustment-points",
        change(["adjustments", 0, "points"], "-2"),
        "champ « adjustments[1].points » : un nombre entier est attendu, pas un texte",
    ),
    (
        "adjustment-player",
        change(["adjustments", 0, "player"], "Zoé"),
        "champ « adjustments[1].player » : « Zoé » n'est pas un joueur inscrit",
    ),
    (
        "adjustment-missing-code",
        change(["adjustments", 0, "code"], DELETE),
        "champ « adjustments[1].code » : champ obligatoire manquant",
    ),
    # report
    (
        "report-author",
        change(["report", "author"], "Zoé"),
        "champ « report.author » : Zoé n'est pas à cette table",
    ),
    (
        "report-filed",
        change(["report", "filed"], "2010-11-18"),
        "champ « report.filed » : rendu le 18/11/2010",
    ),
    (
        "report-date",
        change(["report", "filed"], "demain"),
        "champ « report.filed » : « demain » n'est pas une date",
    ),
    ("report-key", change(["report", "titre"], "Soirée"), "champ « report.titre » : clé inconnue"),
    ("report-type", change(["report"], "très bien"), "champ « report » : un objet {…} est attendu"),
    # expected totals and the sheet itself
    (
        "expected",
        change(["expected_totals", "Chloé"], 40),
        "champ « expected_totals » : Chloé : attendu 40, calculé 50",
    ),
    ("expected-missing", change(["expected_totals", "Émile"], DELETE), "il manque le total d'Émile"),
    ("unknown-key", change(["joueurs"], []), "champ « joueurs » : clé inconnue"),
]


@pytest.mark.parametrize(
    "mutate,expected", [case[1:] for case in INVALID_SHEETS], ids=[case[0] for case in INVALID_SHEETS]
)
def test_it_refuses_an_invalid_sheet_naming_file_deal_and_field(season, players, mutate, expected):
    before = model_counts()
    messages = errors_of(mutate(example()))
    assert any(message.startswith("demo.json, ") and expected in message for message in messages), messages
    assert model_counts() == before


def test_it_gives_the_exact_message_of_the_format(season, players):
    sheet = example()
    sheet["deals"][3]["points"] = 92
    assert errors_of(sheet) == ["demo.json, donne 4, champ « points » : 92 n'est pas entre 0 et 91"]


def test_it_names_each_player_whose_total_differs(season, players):
    sheet = example()
    sheet["expected_totals"].update({"Chloé": 40, "Alice": -640})
    assert errors_of(sheet) == [
        "demo.json, champ « expected_totals » : Alice : attendu -640, calculé -650",
        "demo.json, champ « expected_totals » : Chloé : attendu 40, calculé 50",
    ]


def test_it_reports_every_structure_error_of_a_file_at_once(season, players):
    sheet = example()
    sheet["deals"][0]["bouts"] = 4
    sheet["deals"][3]["points"] = 92
    sheet["adjustments"][0]["code"] = "inconnu"
    messages = errors_of(sheet)
    assert len(messages) == 3
    assert [m.split(" : ")[0] for m in messages] == [
        "demo.json, donne 1, champ « bouts »",
        "demo.json, donne 4, champ « points »",
        "demo.json, champ « adjustments[1].code »",
    ]


def test_it_refuses_totals_that_do_not_sum_to_zero(season, players):
    sheet = totals_only_example()
    sheet["totals"]["Alice"] = 310
    assert errors_of(sheet) == [
        "demo.json, champ « totals » : les totaux doivent s'annuler (leur somme fait 10)"
    ]


def test_it_refuses_totals_that_miss_a_player_or_are_not_integers(season, players):
    sheet = totals_only_example()
    del sheet["totals"]["Émile"]
    sheet["totals"]["Alice"] = 12.5
    messages = errors_of(sheet)
    assert "demo.json, champ « totals.Alice » : un nombre entier est attendu, pas 12,5" in messages
    assert "demo.json, champ « totals » : il manque le total d'Émile" in messages


def test_it_gives_line_and_column_of_malformed_json(season, players):
    text = json.dumps(example(), indent=2).replace('"number": 12,', '"number": 12', 1)
    [message] = errors_of(text)
    assert message.startswith("demo.json : JSON illisible à la ligne 4, colonne 3 (virgule attendue)")


def test_it_refuses_duplicate_keys_and_non_objects(season, players):
    assert errors_of('{"season": "2010-2011", "season": "2011-2012"}') == [
        "demo.json : JSON refusé : la clé « season » apparaît deux fois dans le même objet"
    ]
    assert errors_of("[1, 2]") == ["demo.json : la feuille doit être un objet JSON {…}, pas une liste"]
    assert errors_of(b"\xff\xfe") == ["demo.json : le fichier n'est pas un texte UTF-8"]


def test_it_refuses_a_round_that_already_exists(season, players):
    import_sheets([("a.json", json.dumps(example()))])
    before = model_counts()
    assert errors_of(example()) == [
        "demo.json, champ « number » : la manche 12 de la saison 2010-2011 existe déjà"
    ]
    assert model_counts() == before


def test_it_refuses_the_same_round_twice_in_one_import(season, players):
    text = json.dumps(example())
    with pytest.raises(SheetImportError) as info:
        import_sheets([("a.json", text), ("b.json", text)])
    assert info.value.messages == [
        "b.json, champ « number » : la manche 12 de la saison 2010-2011 existe déjà"
    ]
    assert not Round.objects.exists()


def test_it_refuses_board_acts_from_a_secretary(season, players, secretary):
    sheet = example()
    sheet["adjustments"] = [
        {"player": "Émile", "code": "retard", "points": -2},
        {"player": "Alice", "code": "ethique"},
    ]
    messages = errors_of(sheet, user=secretary.user, homologate=True)
    assert messages == [
        "demo.json, champ « season » : seule la Direction de la saison 2010-2011 peut homologuer une manche",
        "demo.json, champ « adjustments[1].points » : seule la Direction fixe des points hors catalogue",
        "demo.json, champ « adjustments[2].code » : « Manquement à l'éthique » est réservé à la Direction",
    ]


def test_it_lets_officials_set_adjustment_points(season, players, president):
    sheet = example()
    sheet["adjustments"][0]["points"] = -2
    [imported] = import_sheets([("a.json", json.dumps(sheet))], user=president.user, homologate=True)
    assert imported.round.adjustments.get().points == -2
    assert imported.round.homologated_by == president.user
    assert championship_of(imported.round)["Émile"][-1] == ("retard", -2)


def test_it_refuses_a_season_the_user_does_not_run(season, players, secretary, member):
    assert errors_of(example(), user=member.user) == [
        "demo.json, champ « season » : seuls le secrétaire et la Direction de la saison 2010-2011 "
        "importent ses manches"
    ]
    sheet = example()
    sheet.update(season="2011-2012", date="2011-11-19")
    sheet["report"]["filed"] = "2011-11-24"
    [message] = errors_of(sheet, user=secretary.user)
    assert message.startswith("demo.json, champ « season » : la saison 2011-2012 n'existe pas")


# --- all or nothing -----------------------------------------------------------------------------------


def test_it_imports_nothing_when_the_second_file_is_bad(db, tmp_path):
    good = str(DEMO[0])
    bad = json.loads(DEMO[1].read_text("utf-8"))
    bad["deals"][4]["points"] = 85  # the announced chelem of the demo, now impossible
    before = model_counts()
    with pytest.raises(CommandError) as info:
        call_command("import_round", good, write(tmp_path, bad, "manche-02.json"), "--create-players")
    assert "manche-02.json, donne 5, champ « chelem.made_by » : un chelem de l'attaque" in str(info.value)
    assert model_counts() == before
    assert not Season.objects.exists() and not Player.objects.exists()


def test_it_reports_the_errors_of_every_file(season, players, tmp_path):
    first, second = example(), example()
    first["deals"][0]["bouts"] = 5
    second["number"] = 13
    second["deals"][3]["contract"] = "garde_avec"
    with pytest.raises(SheetImportError) as info:
        import_sheets([("a.json", json.dumps(first)), ("b.json", json.dumps(second))])
    assert [m.split(" : ")[0] for m in info.value.messages] == [
        "a.json, donne 1, champ « bouts »",
        "b.json, donne 4, champ « contract »",
    ]
    assert not Round.objects.exists()


def test_it_rolls_back_the_first_file_when_a_later_one_fails_after_writing(season, players, tmp_path):
    second = example()
    second["number"] = 13
    second["expected_totals"]["Bruno"] = 0
    before = model_counts()
    with pytest.raises(SheetImportError):
        import_sheets([("a.json", json.dumps(example())), ("b.json", json.dumps(second))], homologate=True)
    assert model_counts() == before


# --- export and round-trip ------------------------------------------------------------------------------


def test_it_exports_the_sheet_with_its_results_in_the_format_order(season, players):
    call_command(
        "import_round", str(FIXTURES / "example.json"), "--homologate", *by_root(), stdout=io.StringIO()
    )
    sheet = json.loads(export_text("2010-2011", "12"))
    assert list(sheet) == [
        "season",
        "number",
        "date",
        "place",
        "stage",
        "players",
        "deals",
        "adjustments",
        "report",
        "expected_totals",
        "results",
    ]
    assert sheet["deals"][0] == {
        "dealer": "Alice",
        "taker": "Bruno",
        "contract": "garde",
        "called": "coeur",
        "partner": "David",
        "bouts": 2,
        "points": 49,
        "poignees": [{"player": "Bruno", "size": "simple"}],
        "miseres": ["Chloé"],
        "petit_au_bout": "attack",
    }
    assert sheet["deals"][1:3] == [
        {"dealer": "Bruno", "kind": "passed"},
        {"dealer": "Chloé", "kind": "misdeal"},
    ]
    assert sheet["deals"][3]["points"] == 44.5 and sheet["deals"][3]["partner"] is None
    assert isinstance(sheet["deals"][0]["points"], int)
    results = sheet["results"]
    assert list(results) == ["totals", "deals", "championship"]
    assert results["totals"] == EXAMPLE_TOTALS
    assert results["deals"][0]["shares"] == {
        "Alice": -120,
        "Bruno": 210,
        "Chloé": -70,
        "David": 100,
        "Émile": -120,
    }
    assert results["deals"][3]["shares"] == {
        "Alice": -520,
        "Bruno": 130,
        "Chloé": 130,
        "David": 130,
        "Émile": 130,
    }
    assert results["championship"]["Émile"] == [
        {"code": "rank", "points": 3},
        {"code": "wall", "points": 1},
        {"code": "retard", "points": -1},
    ]
    assert results["championship"]["Bruno"] == [{"code": "rank", "points": 10}, {"code": "wall", "points": 1}]


def test_it_exports_empty_championship_lists_before_homologation(season, players):
    import_sheets([("a.json", json.dumps(example()))])
    sheet = json.loads(export_text("2010-2011", "12"))
    assert sheet["results"]["championship"] == {name: [] for name in EXAMPLE_PLAYERS}


def test_it_exports_a_playoff_round_by_its_table(season, players):
    import_sheets([("p.json", (FIXTURES / "playoff_four.json").read_bytes())])
    sheet = json.loads(export_text("2010-2011", "1", "--stage", "playoff", "--table", "A"))
    assert (sheet["stage"], sheet["table"]) == ("playoff", "A")
    assert "called" not in sheet["deals"][0] and "partner" not in sheet["deals"][0]
    assert sheet["players"][0] == {"name": "Alice"}
    with pytest.raises(CommandError, match="--table A ou B"):
        export_text("2010-2011", "1", "--stage", "playoff")


def test_it_refuses_to_export_what_does_not_exist(season):
    with pytest.raises(CommandError, match="2010-2011 : la manche 3 n'existe pas"):
        export_text("2010-2011", "3")
    with pytest.raises(CommandError, match="cette saison n'existe pas"):
        export_text("1999-2000", "1")


def round_trip(tmp_path, path, homologate=True, clear=False):
    """Import a sheet into an empty database, export it, empty the database, import the export."""
    options = ["--create-players"] + (["--homologate", *by_root()] if homologate else [])
    if clear:
        Round.objects.all().delete()
        Season.objects.all().delete()
        Player.objects.all().delete()
    call_command("import_round", str(path), *options, stdout=io.StringIO())
    round_ = Round.objects.get()
    args = [round_.season.name, str(round_.number), "--stage", round_.stage]
    if round_.table:
        args += ["--table", round_.table]
    first = export_text(*args)
    Round.objects.all().delete()
    Season.objects.all().delete()
    Player.objects.all().delete()
    assert not ChampionshipLine.objects.exists() and not Seat.objects.exists()
    call_command("import_round", write(tmp_path, first, "export.json"), *options, stdout=io.StringIO())
    return first, export_text(*args)


@pytest.mark.parametrize(
    "path", [FIXTURES / "example.json", FIXTURES / "playoff_four.json", *DEMO], ids=lambda path: path.name
)
def test_it_round_trips_export_and_import(db, tmp_path, path):
    first, second = round_trip(tmp_path, path)
    assert first == second
    sheet = json.loads(second)
    original = json.loads(path.read_text("utf-8"))
    assert sheet["results"]["totals"] == sheet["expected_totals"]
    if "expected_totals" in original:
        assert sheet["results"]["totals"] == original["expected_totals"]
    assert len(sheet.get("deals", [])) == len(original.get("deals", []))


def test_it_round_trips_a_draft_round(db, tmp_path):
    first, second = round_trip(tmp_path, FIXTURES / "example.json", homologate=False)
    assert first == second
    assert Round.objects.get().status == Round.DRAFT


def test_it_writes_one_deal_per_line():
    sheet = {"season": "2010-2011", "deals": [{"dealer": "Alice", "kind": "passed"}] * 2, "totals": {"A": 1}}
    text = dumps_sheet(sheet)
    assert json.loads(text) == sheet
    assert text.count("\n") == 5  # one line per key
    long = {**sheet, "deals": [{"dealer": "Alice" * 20, "kind": "passed"}] * 2}
    assert '\n    {"dealer": "' in dumps_sheet(long)


# --- the demo sheets -----------------------------------------------------------------------------------


def test_it_imports_the_six_demo_sheets(db):
    out = io.StringIO()
    call_command("import_round", *map(str, DEMO), "--homologate", *by_root(), "--create-players", stdout=out)
    rounds = list(Round.objects.order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5, 6]
    assert all(r.status == Round.HOMOLOGATED and not r.warnings for r in rounds)
    assert "avertissement" not in out.getvalue()
    assert [r.date.strftime("%Y-%m") for r in rounds] == [
        "2010-09",
        "2010-10",
        "2010-11",
        "2010-12",
        "2011-01",
        "2011-02",
    ]
    assert [r.totals_only for r in rounds] == [False, False, False, True, False, False]
    assert all(r.seats.count() == 5 for r in rounds)
    assert all(8 <= r.deals.count() <= 14 for r in rounds if not r.totals_only)
    deals = Deal.objects.all()
    assert {d.kind for d in deals} == {"played", "passed", "misdeal", "petit_sec"}
    assert {d.contract for d in deals if d.contract} == {"prise", "garde", "garde_sans", "garde_contre"}
    assert deals.filter(chelem_made_by="attack", chelem_announced=True).exists()
    assert deals.exclude(petit_au_bout="").count() >= 4
    assert {p["size"] for d in deals for p in d.poignees} == {"simple", "double", "triple"}
    assert any(d.miseres for d in deals)
    assert {a.code for a in Adjustment.objects.all()} >= {"hote", "retard"}
    reports = {
        r.round.number: (r.filed_on - r.round.date).days for r in Report.objects.select_related("round")
    }
    assert sorted(reports) == [1, 2, 3, 4, 6]  # the report of round 5 is missing
    assert reports[3] == 17  # filed 10 days after the 7-day deadline
    assert all(days <= 7 for number, days in reports.items() if number != 3)
    for report in Report.objects.select_related("round"):
        winner = report.round.seats.get(rank=1)
        assert report.author == winner.player and report.text.startswith("# ")


def test_it_matches_the_hand_computed_first_demo_round(db):
    """Demo round 1, worked by hand (default rulebook, chip unit 10, ante 10).

    deal: U (attack's value) — pot after
      1 Garde Bruno+David 49/2b: (25+8)×2 = 66 → 70, Bruno wins the 50 of the antes — 0
      2 Prise Chloé+Alice 53/1b: 25+2 = 27 → 30, Chloé wins 50 — 0
      3 passed: everyone antes — 50
      4 Garde Émile+Bruno 38/2b: −(25+3)×2 = −56 → −60 — 60 (David antes)
      5 Prise David+Chloé 45.5→46/3b: 35 + petit 10 + poignée 20 = 65 → 70, David wins 70 — 0
      6 Garde sans Alice+Émile 52/2b: (25+11)×4 = 144 → 140, Alice wins 50 — 0
      7 Prise Bruno alone 49/1b: −27 → −30 (4U = −120 for Bruno) — 50
      8 Garde Chloé+David 56.5→57/1b: 31×2 + double poignée 30 = 92 → 90, Chloé wins 60 — 0
      9 Prise Émile+Alice 58/0b: 27 − petit 10 = 17 → 20, Émile wins 50 — 0
     10 Garde David+Bruno 40.5→40/2b: −26×2 = −52 → −50 — 50, paid back 10 each.
    Running totals after deal 10 (before the refund): Alice 220, Bruno −460, Chloé 250,
    David 90, Émile −150; with the refund: 230, −450, 260, 100, −140.
    """
    call_command("import_round", str(DEMO[0]), "--create-players", stdout=io.StringIO())
    round_ = Round.objects.get()
    assert list(round_.deals.order_by("number").values_list("unit", flat=True)) == [
        70,
        30,
        0,
        -60,
        70,
        140,
        -30,
        90,
        20,
        -50,
    ]
    assert list(round_.deals.order_by("number").values_list("pot_after", flat=True)) == [
        0,
        0,
        50,
        60,
        0,
        0,
        50,
        0,
        0,
        50,
    ]
    totals = {s.player.name: s.total for s in round_.seats.select_related("player")}
    assert totals == {"Alice": 230, "Bruno": -450, "Chloé": 260, "David": 100, "Émile": -140}
    assert round_.pot_left == 50


def test_it_imports_a_malus_for_a_player_who_was_not_at_the_table(season, players, tmp_path):
    make_player("Fanny")
    sheet = example()
    sheet["adjustments"].append({"player": "Fanny", "code": "absence", "note": "absente sans prévenir"})
    [imported] = import_sheets([("a.json", json.dumps(sheet))], homologate=True)
    assert championship_of(imported.round)["Fanny"] == [("absence", -2)]
    exported = json.loads(export_text("2010-2011", "12"))
    assert exported["adjustments"][1] == {
        "player": "Fanny",
        "code": "absence",
        "note": "absente sans prévenir",
    }
    assert list(exported["results"]["championship"])[-1] == "Fanny"
    first, second = round_trip(tmp_path, write(tmp_path, exported, "fanny.json"), clear=True)
    assert first == second and Player.objects.filter(name="Fanny").exists()


def test_it_accepts_the_exported_results_key_on_import(season, players):
    sheet = example()
    sheet["results"] = {"totals": EXAMPLE_TOTALS, "deals": [], "championship": {}}
    [imported] = import_sheets([("a.json", json.dumps(sheet))])
    assert imported.round.number == 12


def test_it_creates_only_missing_players(season, players):
    make_player("Fanny")
    sheet = example()
    sheet["players"][4]["name"] = "Fanny"
    sheet["adjustments"] = []
    del sheet["expected_totals"]
    sheet["players"][0]["name"] = "Zoé"
    for deal in sheet["deals"]:
        for key in ("dealer", "taker", "partner"):
            if deal.get(key) == "Alice":
                deal[key] = "Zoé"
    import_sheets([("a.json", json.dumps(sheet))], create_players=True)
    assert Player.objects.filter(name="Zoé").count() == 1
    assert Player.objects.count() == len(EXAMPLE_PLAYERS) + 2
