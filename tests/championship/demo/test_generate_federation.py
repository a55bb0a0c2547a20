"""`manage.py generate_federation`: a valid federation written through the services, the same for
the same seed."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from championship.demo.generator import Size, generate
from championship.models import Report, Round
from championship.services import RoundError, appoint_official
from federation.models import Official, Player, Season

SMALL = ["--players", "12", "--seasons", "2", "--rounds", "8", "--deals", "6"]


def outputs():
    """Every season's standings and cup, as the JSON commands print them."""
    result = {}
    for season in Season.objects.order_by("name"):
        for command in ("standings", "cup"):
            out = io.StringIO()
            call_command(command, season.name, format="json", stdout=out)
            result[f"{command} {season.name}"] = json.loads(out.getvalue())
    return result


def generated(seed):
    call_command("generate_federation", *SMALL, "--seed", str(seed), stdout=io.StringIO())
    return outputs()


@pytest.mark.django_db(transaction=True)
def test_it_gives_the_same_federation_for_the_same_seed():
    first = generated(7)
    call_command("flush", interactive=False, verbosity=0)
    second = generated(7)
    call_command("flush", interactive=False, verbosity=0)
    other = generated(8)
    assert first == second
    assert first != other
    assert list(first) == ["standings 2022-2023", "cup 2022-2023", "standings 2023-2024", "cup 2023-2024"]


def test_it_builds_a_whole_federation_through_the_services(db):
    out = io.StringIO()
    call_command("generate_federation", *SMALL, "--seed", "3", stdout=out)
    assert "Fédération générée : 12 joueurs, 2 saisons de 8 manches de 6 donnes" in out.getvalue()
    assert Player.objects.count() == 12
    for season in Season.objects.all():
        assert not season.is_open
        assert set(season.officials.values_list("role", flat=True)) == {
            Official.PRESIDENT,
            Official.VICE_PRESIDENT,
            Official.SECRETARY,
        }
        regular = season.rounds.filter(stage=Round.REGULAR)
        assert regular.count() == 8
        assert not regular.exclude(status=Round.HOMOLOGATED).exists()
        assert {size for size in (r.seats.count() for r in regular)} <= {4, 5}
        assert all(r.deals.count() == 6 for r in regular)
        # The cup was played to its champion.
        assert season.rounds.filter(stage=Round.FINAL, status=Round.HOMOLOGATED).count() == 1
        cup = io.StringIO()
        call_command("cup", season.name, format="json", stdout=cup)
        assert json.loads(cup.getvalue())["champion"] is not None
    # Every write has its history, by the generated President.
    president = Official.objects.filter(role=Official.PRESIDENT).first().player.user
    assert Round.history.filter(history_user=president).exists()
    assert Report.objects.exists()


def test_it_files_late_and_missing_reports_and_catalogue_adjustments(db):
    generate(Size(players=10, seasons=1, rounds=60, deals=2), seed=5)
    season = Season.objects.get()
    regular = season.rounds.filter(stage=Round.REGULAR)
    deadline = season.rulebook.reports.deadline_days
    reports = Report.objects.filter(round__in=regular).select_related("round")
    late = [r for r in reports if (r.filed_on - r.round.date).days > deadline]
    assert 0 < len(late) < len(reports)
    assert 0 < regular.count() - len(reports) < regular.count() // 2  # some missing
    codes = {a.code for r in regular for a in r.adjustments.all()}
    catalogue = {entry.code for entry in season.rulebook.championship.catalogue}
    assert codes and codes <= catalogue


def test_it_refuses_a_database_that_is_not_empty_or_a_table_too_small(db):
    call_command(
        "generate_federation", "--players", "5", "--rounds", "1", "--deals", "1", stdout=io.StringIO()
    )
    with pytest.raises(CommandError, match="partez d'une base vide"):
        call_command("generate_federation", stdout=io.StringIO())
    with pytest.raises(CommandError, match="au moins 4 joueurs"):
        call_command("generate_federation", "--players", "3", stdout=io.StringIO())


def test_the_services_refuse_an_official_the_season_has_already(db):
    generate(Size(players=5, seasons=1, rounds=1, deals=1), seed=1)
    season, player = Season.objects.get(), Player.objects.order_by("pk").last()
    with pytest.raises(RoundError, match="Officiel"):
        appoint_official(season, player, Official.PRESIDENT, reason="test")
