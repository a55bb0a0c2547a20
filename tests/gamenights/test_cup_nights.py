"""The cup's nights: once the seeding is known the board schedules a night per play-off table
(its seeds convoked, the round's entry filled with them), then the final's once the finalists
are known; refused before, and once only; each with its history."""

import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from championship.cup.state import cup_state
from championship.models import Round
from gamenights import services
from gamenights.models import GameNight
from gamenights.services import NightError
from tests.championship.cup.cup_helpers import names, play_table, play_totals, ranked_season

pytestmark = pytest.mark.django_db

WHEN = {"date": "2011-05-20", "time": "20:30", "place": "Au Bar"}


def form_data(key, **changes):
    return {"soiree": key} | {f"{key}-{name}": value for name, value in (WHEN | changes).items()}


def test_nothing_to_schedule_while_the_seeding_is_not_known(client, season, president):
    ranked_season(season, 10)
    play_totals(season, names(1, 2, 3, 4, 5), status=Round.SUBMITTED)  # awaiting homologation
    client.force_login(president.user)
    page = client.get(reverse("gamenights:cup_nights", args=[season.name])).content.decode()
    assert "Les têtes de série ne sont pas encore connues" in page
    assert 'name="soiree"' not in page
    with pytest.raises(NightError) as refused:
        services.schedule_cup_night(
            season, "playoff", "A", date=datetime.date(2011, 5, 20), time=datetime.time(20, 30)
        )
    assert refused.value.code == "seeding" and not GameNight.objects.exists()


def test_the_board_schedules_each_play_off_table_with_its_seeds(client, season, president):
    ranked_season(season, 10)
    client.force_login(president.user)
    url = reverse("gamenights:cup_nights", args=[season.name])
    page = client.get(url).content.decode()
    assert page.count('name="soiree"') == 2  # tables A and B; the final waits for its finalists
    assert "Les finalistes seront connus" in page
    response = client.post(url, form_data("A"))
    night = GameNight.objects.get()
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    seeds_a = [player.name for player in cup_state(season).tables[0].players]
    assert seeds_a == names(1, 4, 5, 8, 9)
    assert (night.stage, night.table, night.date, night.place) == (
        "playoff",
        "A",
        datetime.date(2011, 5, 20),
        "Au Bar",
    )
    assert night.notes == f"Joueurs convoqués : {', '.join(seeds_a)}."
    record = night.history.get()
    assert (record.history_user, record.history_change_reason) == (
        president.user,
        "soirée de la Coupe programmée",
    )
    assert client.get(url).content.decode().count('name="soiree"') == 1  # A is scheduled
    with pytest.raises(NightError) as refused:
        services.schedule_cup_night(season, "playoff", "A", date=night.date, time=night.time)
    assert refused.value.code == "duplicate"

    detail = client.get(night.get_absolute_url())
    assert [player.name for player in detail.context["cup_players"]] == seeds_a
    query = parse_qs(urlsplit(detail.context["entry_url"]).query)
    prefilled = [int(query[f"player_{row}"][0]) for row in range(1, 6)]
    assert prefilled == [player.pk for player in cup_state(season).tables[0].players]
    assert query["stage"] == ["playoff:A"]


def test_the_form_names_its_field_and_writes_nothing(client, season, president):
    ranked_season(season, 10)
    client.force_login(president.user)
    url = reverse("gamenights:cup_nights", args=[season.name])
    response = client.post(url, form_data("B", date="2012-01-10"))
    assert response.status_code == 400
    assert "pas dans la saison" in response.content.decode()
    assert not GameNight.objects.exists()


def test_the_final_once_the_finalists_are_known(client, season, president):
    ranked_season(season, 10)
    play_table(season, "A", {"S01": 300, "S04": 50, "S05": 50, "S08": -100, "S09": -300})
    play_table(season, "B", {"S02": 300, "S03": 100, "S06": 50, "S07": -150, "S10": -300})
    client.force_login(president.user)
    url = reverse("gamenights:cup_nights", args=[season.name])
    assert client.post(url, form_data("final", date="2011-06-24")).status_code == 302
    final = GameNight.objects.get(stage="final")
    assert final.notes == f"Joueurs convoqués : {', '.join(names(1, 2, 3, 4, 5))}."
    detail = client.get(final.get_absolute_url()).content.decode()
    assert "Finalistes convoqués" in detail


def test_only_the_board_schedules_the_cup(client, season, member):
    client.force_login(member.user)
    assert client.get(reverse("gamenights:cup_nights", args=[season.name])).status_code == 403


def test_the_cup_nights_page_speaks_english_when_asked(client, season, president):
    ranked_season(season, 10)
    client.force_login(president.user)
    page = client.get(reverse("gamenights:cup_nights", args=[season.name]), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    for english in ("Cup nights 2010-2011", "Play-off table A", "Players called up:", "Schedule this night"):
        assert english in text
    assert "Programmer cette soirée" not in text and "Joueurs convoqués" not in text


# --- play-off and final nights only through the cup's scheduler (its seeding and duplicate checks) ---


@pytest.mark.parametrize("stage, table", [("final", ""), ("playoff", "A")])
def test_the_ordinary_service_schedules_no_cup_night(season, stage, table):
    with pytest.raises(NightError) as refused:
        services.schedule_night(season, date=datetime.date(2011, 5, 20), stage=stage, table=table)
    assert refused.value.code == "stage"
    assert "Soirées de la Coupe" in refused.value.message
    assert not GameNight.objects.exists()


def test_the_ordinary_form_makes_no_final_before_the_seeding_is_known(client, season, president):
    """Two finals were scheduled from the ordinary form while regular rounds still awaited
    homologation: the form has no phase now, every night it makes is regular."""
    ranked_season(season, 10)
    play_totals(season, names(1, 2, 3, 4, 5), status=Round.SUBMITTED)  # the seeding is not known
    client.force_login(president.user)
    url = reverse("gamenights:night_create", args=[season.name])
    page = client.get(url).content.decode()
    assert 'name="stage"' not in page and 'name="table"' not in page
    assert reverse("gamenights:cup_nights", args=[season.name]) in page  # where the cup's are made
    for table in ("", "A"):
        data = {"date": "2011-05-20", "time": "20:30", "stage": "final", "table": table}
        assert client.post(url, data).status_code == 302
    assert list(GameNight.objects.values_list("stage", "table")) == [("regular", ""), ("regular", "")]


def test_a_nights_phase_does_not_change_by_the_ordinary_forms(client, season, president):
    ranked_season(season, 10)
    night = services.schedule_cup_night(
        season, "playoff", "A", date=datetime.date(2011, 5, 20), time=datetime.time(20, 30)
    )
    for stage, table in (("final", ""), ("regular", ""), ("playoff", "B")):
        with pytest.raises(NightError) as refused:
            services.change_night(night, stage=stage, table=table)
        assert refused.value.code == "stage"
    client.force_login(president.user)
    edit = reverse("gamenights:night_edit", args=[night.pk])
    page = client.get(edit).content.decode()
    assert 'name="stage"' not in page and "Table de play-off A" in page
    data = {"date": "2011-05-21", "time": "21:00", "place": "Au Bar", "stage": "final", "reason": "salle"}
    assert client.post(edit, data).status_code == 302
    night.refresh_from_db()
    assert (night.stage, night.table, night.date) == ("playoff", "A", datetime.date(2011, 5, 21))


def test_no_scheduling_is_offered_for_a_table_already_played(client, season, president):
    """A play-off table played (issue 35): its section says so, with its round, and offers no
    « Programmer cette soirée »; the table still to play does; so does the final, once known."""
    ranked_season(season, 10)
    play_table(season, "A", {"S01": 300, "S04": 50, "S05": 50, "S08": -100, "S09": -300})
    client.force_login(president.user)
    html = client.get(reverse("gamenights:cup_nights", args=[season.name])).content.decode()

    def section(key):
        start = html.index(f'id="soiree-{key}"')
        return html[start : html.index("</section>", start)]

    played = Round.objects.get(stage=Round.PLAYOFF, table="A")
    assert "Programmer cette soirée" not in section("A")
    assert "Jouée" in section("A") and played.get_absolute_url() in section("A")
    assert "Programmer cette soirée" in section("B")
    play_table(season, "B", {"S02": 300, "S03": 100, "S06": 50, "S07": -150, "S10": -300})
    html = client.get(reverse("gamenights:cup_nights", args=[season.name])).content.decode()
    assert "Programmer cette soirée" not in section("A") + section("B")
    assert "Programmer cette soirée" in section("final")
