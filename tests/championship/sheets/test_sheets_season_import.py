"""Past seasons from a totals table (docs/feuille.md §9): `import_season`, dry run by default."""

import datetime
import io
import random

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import Workbook

from championship.models import Round
from championship.standings.season import season_standings
from federation.models import Player, Season

PLAYERS = ["Alice", "Bruno", "Chloé", "David", "Émile", "Fanny", "Gaston", "Hélène"]


def model_counts():
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def season_rows(count=30, seed=7):
    """A line per round: its date, place and the totals of the 4 or 5 players present."""
    draw = random.Random(seed)
    rows = []
    for number in range(1, count + 1):
        present = draw.sample(PLAYERS, draw.choice([4, 5]))
        totals = [draw.randrange(-40, 41) * 10 for _ in present[1:]]
        totals.insert(0, -sum(totals))
        date = datetime.date(2005, 9, 2) + datetime.timedelta(weeks=number)
        rows.append((date, f"Chez {present[0]}", dict(zip(present, totals, strict=True))))
    return rows


def xlsx_table(rows):
    book = Workbook()
    sheet = book.active
    sheet.title = "Saison 2005"
    sheet.append(["Date", "Lieu", *PLAYERS])
    for date, place, totals in rows:
        sheet.append([date, place, *(totals.get(name) for name in PLAYERS)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def csv_table(rows):
    lines = ["Manche;Date;Lieu;" + ";".join(PLAYERS)]
    for number, (date, place, totals) in enumerate(rows, 1):
        cells = ["" if totals.get(name) is None else str(totals[name]) for name in PLAYERS]
        lines.append(f"{number};{date:%d/%m/%Y};{place};" + ";".join(cells))
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.fixture
def root(db):
    from django.contrib.auth import get_user_model

    for name in PLAYERS:
        Player.objects.create(name=name)
    return get_user_model().objects.create_superuser(
        username="root", email="r@example.org", password="x-pass-1"
    )


def assert_stored_as_homologated(rows, official, name="2005-2006"):
    """The season `name` holds one homologated totals-only round per line of `rows`, each with
    its date, place and totals, homologated by `official`, author of its history; the Season."""
    season = Season.objects.get(name=name)
    rounds = list(season.rounds.order_by("number"))
    assert len(rounds) == len(rows)
    assert all(round_.totals_only and round_.status == Round.HOMOLOGATED for round_ in rounds)
    assert {round_.homologated_by for round_ in rounds} == {official}
    assert {round_.history.earliest().history_user for round_ in rounds} == {official}
    for round_, (date, place, totals) in zip(rounds, rows, strict=True):
        assert round_.date == date and round_.place == place
        assert {seat.player.name: seat.total for seat in round_.seats.all()} == totals
    return season


def run(*args):
    out = io.StringIO()
    call_command("import_season", *args, stdout=out)
    return out.getvalue()


def test_it_reports_a_season_of_thirty_rounds_before_storing_anything(root, tmp_path):
    path = tmp_path / "saison.xlsx"
    path.write_bytes(xlsx_table(season_rows()))
    counts = model_counts()
    out = run("2005-2006", str(path))
    assert model_counts() == counts
    lines = out.splitlines()
    assert lines[0] == (
        "Saison 2005-2006 à créer (règlement par défaut, sans malus de compte-rendu en retard : "
        "ceux d'une saison passée ne sont pas connus)"
    )
    assert sum("serait importée (brouillon)" in line for line in lines) == 30
    assert lines[-1] == "Aperçu : 30 manches, rien n'a été enregistré (--apply pour les importer)."


@pytest.mark.parametrize("table", [xlsx_table, csv_table])
def test_it_imports_a_season_of_thirty_homologated_totals_only_rounds(root, tmp_path, table):
    rows = season_rows()
    path = tmp_path / ("saison.xlsx" if table is xlsx_table else "saison.csv")
    path.write_bytes(table(rows))
    out = run("2005-2006", str(path), "--apply", "--homologate", "--by", "root")
    assert "30 manches importées dans la saison 2005-2006." in out
    season = assert_stored_as_homologated(rows, root)
    standings = season_standings(season)
    assert len(standings.podium()) >= 3
    # no report is known for a past season: no winner gets the malus of a missing one
    assert standings.late == []
    assert season.rulebook.reports.late_malus_per_week == 0
    assert "comptes-rendus inconnus" in season.history.latest().history_change_reason


def test_it_names_the_faulty_cells_and_stores_nothing(root, tmp_path):
    rows = season_rows(5)
    date, place, totals = rows[2]
    first = next(iter(totals))
    totals[first] += 10  # line 4: the totals no longer cancel out
    rows[3] = (datetime.date(2006, 7, 14), *rows[3][1:])  # line 5: after the season
    path = tmp_path / "saison.xlsx"
    path.write_bytes(xlsx_table(rows))
    counts = model_counts()
    with pytest.raises(CommandError) as info:
        run("2005-2006", str(path), "--apply")
    assert model_counts() == counts
    message = str(info.value)
    assert message.startswith("Import refusé, rien n'a été enregistré :")
    assert (
        "saison.xlsx, feuille Saison 2005, ligne 4 : les totaux doivent s'annuler (leur somme fait 10)"
        in message
    )
    assert (
        "saison.xlsx, feuille Saison 2005, ligne 5, colonne Date : le 14/07/2006 n'est pas dans la saison "
        "2005-2006 (du 01/09/2005 au 30/06/2006)" in message
    )


def test_it_refuses_a_formula_in_a_totals_table(root, tmp_path):
    book = Workbook()
    book.active.append(["Date", "Alice", "Bruno", "Chloé", "David"])
    book.active.append(["2005-09-16", 10, "=-10", 0, 0])
    path = tmp_path / "saison.xlsx"
    book.save(path)
    with pytest.raises(CommandError) as info:
        run("2005-2006", str(path))
    assert "saison.xlsx, feuille Sheet, ligne 2, colonne Bruno : formule refusée (« =-10 »)" in str(
        info.value
    )


def test_it_homologates_only_for_the_board(root, tmp_path, season, secretary):
    path = tmp_path / "saison.csv"
    path.write_bytes(csv_table(season_rows(3)).replace(b"/2005", b"/2010").replace(b"/2006", b"/2011"))
    with pytest.raises(CommandError) as info:
        run("2010-2011", str(path), "--apply", "--homologate", "--by", secretary.user.username)
    assert "seule la Direction de la saison 2010-2011 peut homologuer une manche" in str(info.value)
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("foo", "SAISON : Le nom d'une saison s'écrit « 2010-2011 »."),
        ("2005-2007", "SAISON : Une saison va d'une année à la suivante, par exemple « 2010-2011 »."),
    ],
)
def test_it_refuses_a_season_name_that_is_not_one_in_french(root, tmp_path, name, message):
    path = tmp_path / "saison.csv"
    path.write_bytes(csv_table(season_rows(2)))
    counts = model_counts()
    with pytest.raises(CommandError) as error:
        run(name, str(path))
    assert str(error.value) == message
    assert model_counts() == counts
