"""The board's homologation: the queue on the home page and in the navigation, « Homologuer » on
the round page, and a confirmation page showing the round's totals before anything is published."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship.models import Round
from championship.rounds.queue import homologation_queue
from championship.services.paper import set_paper_totals
from federation.models import Official
from tests.conftest import make_player
from tests.factories import make_round


@pytest.fixture
def submitted(example):
    Round.objects.filter(pk=example.pk).update(status=Round.SUBMITTED)
    example.refresh_from_db()
    return example


def homologate_url(round_):
    return reverse("championship:round_homologate", args=[round_.pk])


@pytest.mark.parametrize("who", ["anonymous", "member", "secretary"])
def test_it_shows_the_queue_to_the_board_only(as_user, submitted, member, who):
    html = as_user(who).get("/").content.decode()
    assert "Manches à homologuer" not in html
    assert homologate_url(submitted) not in html


def test_the_queue_costs_a_member_on_no_board_one_query(season, submitted, member, president):
    """Every page of a member reads the queue for its navigation: one query to learn he sits on
    no board, none for the rounds; the board's queue still lists them."""
    with CaptureQueriesContext(connection) as queries:
        queue = homologation_queue(member.user)
    assert (list(queue), queue.on_board, len(queries)) == ([], False, 1)
    queue = homologation_queue(president.user)
    assert (list(queue), queue.on_board) == ([submitted], True)


def test_it_lists_the_rounds_to_homologate_on_the_home_page_and_counts_them_in_the_navigation(
    as_user, season, submitted
):
    make_round(season, date=datetime.date(2010, 12, 3))  # a draft: not the board's to homologate yet
    html = as_user("president").get("/").content.decode()
    nav = html[html.index('<nav class="site-nav"') : html.index("</nav>")]
    assert 'href="/#a-homologuer"' in nav
    assert '<span class="count pending">1</span>' in nav
    queue = html[html.index('id="a-homologuer"') :]
    queue = queue[: queue.index("</section>")]
    assert homologate_url(submitted) in queue
    assert queue.count("/homologuer/") == 1  # the draft is not in it


def test_the_board_sees_a_submitted_round_once_on_the_home_page(as_user, season, submitted):
    draft = make_round(season, date=datetime.date(2010, 12, 3))
    edit = reverse("championship:round_edit", args=[submitted.pk])
    board = as_user("president").get("/").content.decode()
    assert "En attente d'homologation" not in board  # the submitted round is under « Manches à homologuer »
    drafts = board[board.index("Manches en brouillon") :]
    drafts = drafts[: drafts.index("</section>")]
    assert reverse("championship:round_edit", args=[draft.pk]) in drafts
    assert edit not in drafts
    secretary = as_user("secretary").get("/").content.decode()
    assert "a-homologuer" not in secretary and edit in secretary  # not the secretary's to homologate


def test_it_says_when_nothing_waits(as_user, example):
    html = as_user("president").get("/").content.decode()
    assert '<span class="count">0</span>' in html
    assert "Aucune manche n'attend l'homologation." in html


def test_the_queue_covers_every_season_whose_board_the_member_sits_on(as_user, submitted, db):
    from federation.models import Season  # noqa: PLC0415

    other = Season.objects.create(
        name="2011-2012", start_date=datetime.date(2011, 9, 1), end_date=datetime.date(2012, 6, 30)
    )
    stranger = make_player("Viviane")
    Official.objects.create(season=other, player=stranger, role=Official.VICE_PRESIDENT)
    client = as_user("anonymous")
    client.force_login(stranger.user)
    html = client.get("/").content.decode()
    assert '<span class="count">0</span>' in html  # on a board, but not this round's
    assert homologate_url(submitted) not in html


def test_the_round_page_offers_homologuer_to_the_board_only(as_user, submitted):
    url = reverse("championship:round", args=[submitted.pk])
    assert homologate_url(submitted) in as_user("president").get(url).content.decode()
    assert homologate_url(submitted) not in as_user("secretary").get(url).content.decode()


def test_the_confirmation_shows_the_round_totals_and_publishes_nothing_yet(as_user, submitted):
    response = as_user("president").get(homologate_url(submitted))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Homologuer cette manche ?" in html
    for name, total in submitted.seats.values_list("player__name", "total"):
        assert name in html
        assert (f"−{-total}" if total < 0 else str(total)) in html
    assert "La somme des totaux fait 0." in html
    assert f'name="version" value="{submitted.version}"' in html
    submitted.refresh_from_db()
    assert submitted.status == Round.SUBMITTED


def test_the_confirmation_shows_the_paper_check_with_the_deals_to_review(as_user, submitted, president):
    html = as_user("president").get(homologate_url(submitted)).content.decode()
    assert "n'ont pas été saisis" in html  # no paper totals yet: said so
    totals = dict(submitted.seats.values_list("player_id", "total"))
    deal = next(deal for deal in submitted.deals.order_by("number") if any(deal.shares.values()))
    for player_id, share in deal.shares.items():  # the paper counted that deal twice
        totals[int(player_id)] += share
    set_paper_totals(Round.objects.get(pk=submitted.pk), totals, user=president.user)
    html = as_user("president").get(homologate_url(submitted)).content.decode()
    gaps = sum(1 for share in deal.shares.values() if share)
    assert f"{gaps} joueurs n'ont pas le même total sur la feuille et sur le site." in html
    round_url = reverse("championship:round", args=[submitted.pk])
    assert f'href="{round_url}#donne-{deal.number}"' in html


def test_confirming_homologates_through_the_service(as_user, submitted, president):
    response = as_user("president").post(homologate_url(submitted), {"version": submitted.version})
    assert response.status_code == 302
    assert response["Location"] == reverse("championship:round", args=[submitted.pk])
    submitted.refresh_from_db()
    assert submitted.is_homologated
    assert submitted.homologated_by == president.user


def test_a_confirmation_read_before_another_change_is_refused(as_user, submitted):
    stale = submitted.version
    Round.objects.filter(pk=submitted.pk).update(version=stale + 1)
    response = as_user("president").post(homologate_url(submitted), {"version": stale}, follow=True)
    submitted.refresh_from_db()
    assert submitted.status == Round.SUBMITTED
    assert "Homologuer cette manche ?" in response.content.decode()


def test_a_homologated_round_sends_back_to_its_page(as_user, submitted):
    Round.objects.filter(pk=submitted.pk).update(status=Round.HOMOLOGATED)
    response = as_user("president").get(homologate_url(submitted))
    assert response.status_code == 302
    assert response["Location"] == reverse("championship:round", args=[submitted.pk])
