import datetime

import pytest
from django.db import IntegrityError, transaction

from championship.models import Deal, Round, Seat
from tests.factories import make_round, player


def refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_it_refuses_the_same_player_twice_at_a_table(season):
    round_ = make_round(season, names=["Alice", "Bruno", "Chloé", "David"], deals=[])
    alice = player("Alice")
    refused(lambda: Seat.objects.create(round=round_, player=alice, position=4, colour=""))


def test_it_refuses_two_players_on_the_same_seat(season):
    round_ = make_round(season, names=["Alice", "Bruno", "Chloé", "David"], deals=[])
    refused(lambda: Seat.objects.create(round=round_, player=player("Émile"), position=0, colour=""))


def test_it_refuses_the_same_chip_colour_twice_at_a_table(season):
    round_ = make_round(season, names=["Alice", "Bruno", "Chloé", "David"], deals=[])
    refused(lambda: Seat.objects.create(round=round_, player=player("Émile"), position=4, colour="blanc"))


def test_it_allows_several_seats_without_a_colour(season):
    round_ = make_round(season, names=["Alice", "Bruno", "Chloé", "David"], deals=[])
    Seat.objects.filter(round=round_).update(colour="")
    Seat.objects.create(round=round_, player=player("Émile"), position=4, colour="")
    assert round_.seats.filter(colour="").count() == 5


def test_it_refuses_two_rounds_with_the_same_number_in_a_season_stage_and_table(season):
    make_round(season, number=3)
    refused(
        lambda: Round.objects.create(
            season=season, number=3, date=datetime.date(2010, 12, 1), stage="regular"
        )
    )


def test_it_allows_the_same_number_at_the_other_play_off_table(season):
    make_round(season, number=1, stage=Round.PLAYOFF, table="A", deals=[])
    other = make_round(season, number=1, stage=Round.PLAYOFF, table="B", deals=[])
    assert other.number == 1
    refused(
        lambda: Round.objects.create(
            season=season, number=1, stage=Round.PLAYOFF, table="B", date=datetime.date(2011, 6, 1)
        )
    )


def test_it_refuses_two_deals_with_the_same_number_in_a_round(season):
    round_ = make_round(season)
    refused(lambda: Deal.objects.create(round=round_, number=2, dealer=player("Alice"), kind="passed"))
