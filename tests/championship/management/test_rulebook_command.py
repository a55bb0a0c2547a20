"""`manage.py rulebook SEASON`: print a season's rulebook; `--file` replaces it through the
service, recomputing the season all or nothing, and lists whose points changed."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from championship.demo.generator import Size, generate
from federation.models import Season
from scoring.rulebook import default_rulebook_text

SEASON = "2023-2024"


@pytest.fixture
def federation(db):
    generate(Size(players=8, seasons=1, rounds=10, deals=8), seed=11)
    return Season.objects.get(name=SEASON)


def run(*args):
    out = io.StringIO()
    call_command("rulebook", *args, stdout=out)
    return out.getvalue()


def points():
    out = io.StringIO()
    call_command("standings", SEASON, format="json", stdout=out)
    data = json.loads(out.getvalue())
    return {row["player"]: row["points"] for row in data["ranking"] + data["unranked"]}


def test_it_prints_the_seasons_rulebook(federation):
    assert run(SEASON) == federation.rulebook_text
    assert "[deal.multipliers]" in run(SEASON)
    with pytest.raises(CommandError, match="Saison « 1999-2000 » introuvable"):
        run("1999-2000")


def test_it_replaces_the_rulebook_and_lists_the_players_whose_points_changed(federation, tmp_path):
    before = points()
    text = default_rulebook_text().replace("\ngarde = 2\n", "\ngarde = 4\n")
    assert text != default_rulebook_text()
    (tmp_path / "r.toml").write_text(text, "utf-8")
    printed = run(SEASON, "--file", str(tmp_path / "r.toml"), "--reason", "garde à 4", "--by", "alice")
    after = points()
    changed = sorted(name for name in before if before[name] != after[name])
    assert changed, "a garde worth twice as much changes somebody's season"
    assert f"Règlement de la saison {SEASON} remplacé ; saison recalculée." in printed
    assert f"Points de championnat changés ({len(changed)} joueur" in printed
    for name in changed:
        assert f"  {name} : {before[name]} → {after[name]}".replace("-", "\N{MINUS SIGN}") in printed
    for name in set(before) - set(changed):
        assert f"  {name} :" not in printed
    federation.refresh_from_db()
    assert federation.rulebook_text == text
    record = federation.history.order_by("-history_date").first()
    assert (record.history_change_reason, record.history_user.username) == ("garde à 4", "alice")


def test_it_refuses_a_bad_file_naming_the_field_and_changes_nothing(federation, tmp_path):
    before, text = points(), federation.rulebook_text
    (tmp_path / "bad.toml").write_text(text.replace("\ngarde = 2\n", "\ngarde = -2\n"), "utf-8")
    refused = r"rien n'est enregistré — deal\.multipliers\.garde\u00a0: doit être"
    with pytest.raises(CommandError, match=refused):
        run(SEASON, "--file", str(tmp_path / "bad.toml"), "--reason", "essai")
    federation.refresh_from_db()
    assert federation.rulebook_text == text and points() == before


def test_it_refuses_a_change_without_a_reason_and_changes_nothing(federation, tmp_path):
    before, text = points(), federation.rulebook_text
    (tmp_path / "r.toml").write_text(text.replace("\ngarde = 2\n", "\ngarde = 4\n"), "utf-8")
    with pytest.raises(CommandError, match="Motif de la modification : obligatoire.*Rien n'est enregistré"):
        run(SEASON, "--file", str(tmp_path / "r.toml"))
    with pytest.raises(CommandError, match="Motif de la modification : obligatoire"):
        run(SEASON, "--file", str(tmp_path / "r.toml"), "--reason", "   ")
    federation.refresh_from_db()
    assert federation.rulebook_text == text and points() == before


def test_it_takes_the_change_only_from_the_board(federation, tmp_path):
    (tmp_path / "r.toml").write_text(federation.rulebook_text, "utf-8")
    with pytest.raises(CommandError, match="ni membre de la Direction"):
        run(SEASON, "--file", str(tmp_path / "r.toml"), "--reason", "essai", "--by", "chloe")
    with pytest.raises(CommandError, match="aucun compte « personne »"):
        run(SEASON, "--file", str(tmp_path / "r.toml"), "--reason", "essai", "--by", "personne")
    assert "Aucun joueur ne change de points." in run(
        SEASON, "--file", str(tmp_path / "r.toml"), "--reason", "relu", "--by", "bruno"
    )
