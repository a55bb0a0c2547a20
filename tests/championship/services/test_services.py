from championship.models import ChampionshipLine, Deal, Round
from championship.services import homologate_round, rescore_round, submit_round
from federation.models import Player
from tests.factories import EXAMPLE_TOTALS, make_round, round_totals


def test_it_scores_the_example_sheet_and_stores_its_totals(season):
    round_ = make_round(season)
    assert round_totals(round_) == EXAMPLE_TOTALS
    round_.refresh_from_db()
    assert round_.pot_left == 80
    first = round_.deals.get(number=1)
    assert first.unit == 110 and first.made is True
    assert sum(first.shares.values()) == 0


def test_it_stores_championship_lines_only_once_homologated(season, president):
    round_ = make_round(season, adjustments=[("Émile", "retard", -1, "arrivé à 21h30")])
    assert not ChampionshipLine.objects.exists()
    submit_round(round_)
    assert not ChampionshipLine.objects.exists()
    homologate_round(round_, president.user)
    points = {}
    for line in ChampionshipLine.objects.filter(round=round_).select_related("player"):
        points.setdefault(line.player.name, []).append((line.code, line.points))
    assert points == {
        "Alice": [("rank", 1)],
        "Bruno": [("rank", 10), ("wall", 1)],
        "Chloé": [("rank", 5), ("wall", 1)],
        "David": [("rank", 7), ("wall", 1)],
        "Émile": [("rank", 3), ("wall", 1), ("retard", -1)],
    }


def test_it_rescored_totals_only_rounds_without_deal_bonuses(season, president):
    round_ = make_round(
        season, totals={"Alice": 300, "Bruno": 50, "Chloé": -20, "David": -100, "Émile": -230}
    )
    homologate_round(round_, president.user)
    codes = set(ChampionshipLine.objects.filter(round=round_).values_list("code", flat=True))
    assert codes == {"rank", "big_win"}
    assert Round.objects.get(pk=round_.pk).status == Round.HOMOLOGATED


def test_it_updates_stored_figures_when_a_deal_is_corrected(season):
    round_ = make_round(season)
    deal = round_.deals.get(number=4)
    deal.points = 52
    deal.save()
    rescore_round(round_)
    assert round_totals(round_) != EXAMPLE_TOTALS
    assert sum(round_totals(round_).values()) == 0


def test_it_counts_a_malus_for_a_player_who_was_not_at_the_table(season, president):
    round_ = make_round(season, adjustments=[("Fanny", "absence", -2, "absente sans prévenir")])
    homologate_round(round_, president.user)
    line = ChampionshipLine.objects.get(round=round_, player__name="Fanny")
    assert (line.code, line.points) == ("absence", -2)
    assert "absente sans prévenir" in line.label


def test_it_records_changed_warnings_and_pot_in_the_round_history_with_the_reason(season):
    round_ = make_round(season)
    count = round_.history.count()
    rescore_round(round_, reason="rien ne change")
    assert round_.history.count() == count  # nothing changed, nothing recorded
    deal = round_.deals.get(number=2)
    deal.dealer = Player.objects.get(name="David")
    deal.save()
    misdeal = round_.deals.get(number=3)
    misdeal.kind = Deal.PASSED
    misdeal.save()
    rescore_round(round_, reason="donneur et fausse donne corrigés")
    stored = Round.objects.get(pk=round_.pk)
    assert stored.warnings and stored.pot_left != 80
    latest = round_.history.order_by("-history_id").first()
    assert round_.history.count() == count + 1
    assert (latest.warnings, latest.pot_left) == (stored.warnings, stored.pot_left)
    assert latest.history_change_reason == "donneur et fausse donne corrigés"


def test_it_records_the_homologating_official_as_the_author_outside_a_request(season, president):
    round_ = make_round(season)
    homologate_round(round_, president.user)
    latest = round_.history.order_by("-history_id").first()
    assert (latest.status, latest.history_user) == (Round.HOMOLOGATED, president.user)
    assert Round.objects.get(pk=round_.pk).homologated_by == president.user
