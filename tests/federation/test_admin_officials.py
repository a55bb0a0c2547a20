"""Officials and players in the admin: a history with its author, and only a season's board (or a
superuser) names, changes or removes that season's officials."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from federation.models import Official, Player, Season
from tests.conftest import make_player

WHO = ["board of the season", "board of another season", "plain staff", "superuser"]
MAY_NAME = {
    "board of the season": True,
    "board of another season": False,
    "plain staff": False,
    "superuser": True,
}


@pytest.fixture
def other_season(db):
    return Season.objects.create(
        name="2011-2012", start_date=datetime.date(2011, 9, 1), end_date=datetime.date(2012, 6, 30)
    )


def staff(name):
    """A staff player holding every admin right on the federation (the demo's « Direction » group)."""
    player = make_player(name)
    player.user.is_staff = True
    player.user.save()
    player.user.user_permissions.set(Permission.objects.filter(content_type__app_label="federation"))
    return player


@pytest.fixture
def accounts(season, other_season):
    board = staff("Vice")
    Official.objects.create(season=season, player=board, role=Official.VICE_PRESIDENT)
    other = staff("Autre")
    Official.objects.create(season=other_season, player=other, role=Official.PRESIDENT)
    plain = staff("Simple")
    superuser = get_user_model().objects.create_superuser("root", "root@example.org", "x")
    return {
        "board of the season": board.user,
        "board of another season": other.user,
        "plain staff": plain.user,
        "superuser": superuser,
    }


def login(client, accounts, who):
    client.force_login(accounts[who])
    return client


def season_form(season, officials=(), **changes):
    """The season's admin form with its officials inline: (id or "", player id, role) each."""
    data = {
        "name": season.name,
        "start_date": season.start_date.isoformat(),
        "end_date": season.end_date.isoformat(),
        "remaining_rounds": season.remaining_rounds,
        "is_open": "on",
        "officials-TOTAL_FORMS": str(len(officials)),
        "officials-INITIAL_FORMS": str(sum(1 for pk, *_rest in officials if pk)),
        "officials-MIN_NUM_FORMS": "0",
        "officials-MAX_NUM_FORMS": "1000",
    }
    for index, (pk, player, role, *delete) in enumerate(officials):
        data.update(
            {
                f"officials-{index}-id": pk,
                f"officials-{index}-season": season.pk,
                f"officials-{index}-player": player,
                f"officials-{index}-role": role,
            }
        )
        if delete:
            data[f"officials-{index}-DELETE"] = "on"
    data.update(changes)
    return data


def board_of(season):
    return set(season.officials.values_list("player__name", "role"))


@pytest.mark.parametrize("who", WHO)
def test_it_lets_only_the_season_board_name_its_president_in_the_official_admin(
    client, season, accounts, who
):
    client = login(client, accounts, who)
    me = accounts[who]
    candidate = me.player.pk if hasattr(me, "player") else make_player("Candidat").pk
    response = client.post(
        reverse("admin:federation_official_add"),
        {"season": season.pk, "player": candidate, "role": Official.PRESIDENT},
    )
    named = season.officials.filter(role=Official.PRESIDENT, player_id=candidate).exists()
    assert named is MAY_NAME[who], response.status_code
    if who == "plain staff":
        assert response.status_code == 403
    if named:
        record = Official.history.get(season=season, role=Official.PRESIDENT, history_type="+")
        assert record.history_user == me


@pytest.mark.parametrize("who", WHO)
def test_it_lets_only_the_season_board_change_or_remove_an_official(client, season, accounts, who):
    client = login(client, accounts, who)
    secretary = Official.objects.create(
        season=season, player=make_player("Greffier"), role=Official.SECRETARY
    )
    change = reverse("admin:federation_official_change", args=[secretary.pk])
    assert client.get(change).status_code == 200  # every staff account reads the officials
    client.post(
        change, {"season": season.pk, "player": accounts["plain staff"].player.pk, "role": "president"}
    )
    secretary.refresh_from_db()
    changed = (secretary.player.name, secretary.role) == ("Simple", Official.PRESIDENT)
    assert changed is MAY_NAME[who]
    client.post(reverse("admin:federation_official_delete", args=[secretary.pk]), {"post": "yes"})
    assert Official.objects.filter(pk=secretary.pk).exists() is not MAY_NAME[who]
    if MAY_NAME[who]:
        users = set(
            Official.history.filter(id=secretary.pk)
            .exclude(history_type="+")
            .values_list("history_user", flat=True)
        )
        assert users == {accounts[who].pk}


@pytest.mark.parametrize("who", WHO)
def test_it_lets_only_the_season_board_name_officials_on_the_season_form(client, season, accounts, who):
    client = login(client, accounts, who)
    me = accounts["plain staff"].player
    before = board_of(season)
    url = reverse("admin:federation_season_change", args=[season.pk])
    assert client.get(url).status_code == 200
    existing = season.officials.get()
    officials = [(existing.pk, existing.player_id, existing.role, "delete"), ("", me.pk, Official.PRESIDENT)]
    client.post(url, season_form(season, officials))
    if MAY_NAME[who]:
        assert board_of(season) == {("Simple", Official.PRESIDENT)}
        assert Official.history.filter(history_user=accounts[who]).count() == 2  # one named, one removed
    else:
        assert board_of(season) == before


def test_it_refuses_a_new_season_s_officials_to_anyone_but_a_superuser(client, accounts):
    client = login(client, accounts, "board of the season")
    data = season_form(
        Season(name="2012-2013", start_date=datetime.date(2012, 9, 1), end_date=datetime.date(2013, 6, 30))
    )
    data.update(
        {
            "officials-TOTAL_FORMS": "1",
            "officials-0-player": accounts["board of the season"].player.pk,
            "officials-0-role": Official.PRESIDENT,
        }
    )
    assert client.post(reverse("admin:federation_season_add"), data).status_code == 302
    assert Season.objects.filter(name="2012-2013").exists()  # the season, yes; its officials, no
    assert not Official.objects.filter(season__name="2012-2013").exists()


def test_it_keeps_the_history_of_players_and_officials_with_their_author(client, season, accounts):
    client = login(client, accounts, "superuser")
    player = make_player("Nouveau")
    url = reverse("admin:federation_player_change", args=[player.pk])
    response = client.post(
        url, {"name": "Nouveau", "nickname": "Le Bleu", "active": "on", "user": player.user_id}
    )
    assert response.status_code == 302
    record = player.history.order_by("-history_id").first()
    assert (record.nickname, record.history_user) == ("Le Bleu", accounts["superuser"])
    html = client.get(reverse("admin:federation_player_history", args=[player.pk])).content.decode()
    assert "root" in html and "Le Bleu" in html
    official = Official.objects.get(season=season)
    html = client.get(reverse("admin:federation_official_history", args=[official.pk])).content.decode()
    assert response.status_code == 302 and "Vice" in html


def test_it_refuses_to_revert_a_player_or_an_official_from_its_history(client, season, accounts):
    client = login(client, accounts, "superuser")
    official = Official.objects.get(season=season)
    first = official.history.get()
    official.role = Official.SECRETARY
    official.save()
    url = reverse("admin:federation_official_simple_history", args=[official.pk, first.pk])
    response = client.post(
        url, {"season": season.pk, "player": official.player_id, "role": Official.PRESIDENT}
    )
    assert response.status_code == 403
    official.refresh_from_db()
    assert official.role == Official.SECRETARY
    player = Player.objects.get(name="Simple")
    url = reverse("admin:federation_player_simple_history", args=[player.pk, player.history.get().pk])
    assert client.post(url, {"name": "Renommé", "active": "on"}).status_code == 403
    assert Player.objects.filter(name="Simple").exists()
