"""The live view's reads (championship.rounds.live, championship.rounds.signoffs): the stamp a
poll compares, the figures and next dealer it shows, the table's sign-off by version."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from championship import services
from championship.models import Round, Signoff
from championship.rounds.data import next_dealer, read_round_data
from championship.rounds.live import LAST_DEALS, live_stamp, live_view
from championship.rounds.signoffs import has_open_dispute, table_signoffs
from federation.models import Player
from tests.factories import fifth_deal, player


def seated_user(name):
    found = Player.objects.get(name=name)
    found.user = get_user_model().objects.create_user(username=name.lower(), password="secret-pass-1")
    found.save()
    return found.user


def test_the_stamp_changes_with_every_write_of_the_round_and_only_then(example, secretary):
    first = live_stamp(example.pk)
    assert live_stamp(example.pk) == first
    services.add_deal(example, fifth_deal(), number=5, user=secretary.user)
    second = live_stamp(example.pk)
    assert second != first
    services.submit_round(example, secretary.user)
    assert live_stamp(example.pk) not in (first, second)


def test_the_stamp_changes_with_a_sign_off_though_the_version_does_not(example):
    before = live_stamp(example.pk)
    services.sign_sheet(example, seated_user("Alice"), Signoff.CONFIRMED, version=example.version)
    after = live_stamp(example.pk)
    assert after != before
    assert after.split("-")[0] == before.split("-")[0]  # the same version of the round


def test_the_stamp_is_one_query_and_none_for_a_missing_round(example, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert live_stamp(example.pk)
    assert live_stamp(example.pk + 1000) is None


def test_the_live_view_shows_the_stored_figures_the_last_deals_newest_first_and_the_next_dealer(example):
    live = live_view(example, live_stamp(example.pk))
    seats = list(example.seats.order_by("position"))
    assert [seat.total for seat in live.display.seats] == [seat.total for seat in seats]
    assert [deal.number for deal, _shares in live.last_deals] == [4, 3, 2][:LAST_DEALS]
    newest, shares = live.last_deals[0]
    stored = example.deals.get(number=4)
    assert [share for _seat, share in shares] == [stored.share_of(seat.player_id) for seat in seats]
    assert live.next_dealer == "David"  # Chloé dealt the 4th deal: her right-hand neighbour


def test_the_next_dealer_follows_a_misdeal_and_the_first_seat_begins(example, season):
    data = read_round_data(example)
    assert next_dealer(data.seats, []) == data.seats[0].player_id
    services.add_deal(example, {"kind": "misdeal", "dealer": player("David")}, number=5)
    data = read_round_data(example)
    assert next_dealer(data.seats, data.deals) == player("David").pk


def test_a_submitted_round_has_no_next_dealer(example, secretary):
    services.submit_round(example, secretary.user)
    assert live_view(example, live_stamp(example.pk)).next_dealer == ""


def test_the_table_signoffs_say_who_confirmed_which_version_and_who_disputes(example, secretary):
    services.sign_sheet(example, seated_user("Alice"), Signoff.CONFIRMED, version=example.version)
    services.sign_sheet(
        example, seated_user("Bruno"), Signoff.DISPUTED, version=example.version, comment="Donne 2 fausse"
    )
    signoffs = table_signoffs(example)
    assert [(row.name, row.verdict, row.current) for row in signoffs.rows] == [
        ("Alice", "confirmed", True),
        ("Bruno", "disputed", True),
        ("Chloé", "", False),
        ("David", "", False),
        ("Émile", "", False),
    ]
    assert signoffs.confirmed == 1
    assert [row.comment for row in signoffs.disputes] == ["Donne 2 fausse"]
    assert has_open_dispute(example)
    services.add_deal(Round.objects.get(pk=example.pk), fifth_deal(), number=5, user=secretary.user)
    example.refresh_from_db()
    after = table_signoffs(example)
    alice = after.of(Player.objects.get(name="Alice").pk)
    assert (alice.current, after.confirmed) == (False, 0)
    assert "version" in alice.label  # « confirmée à la version 4 (la manche a changé depuis) »
    assert [row.name for row in after.disputes] == ["Bruno"]  # a dispute stands whatever changed


@pytest.mark.parametrize("language", ["fr", "en"])
def test_an_unsigned_row_says_so_in_each_language(example, language):
    with translation.override(language):
        label = table_signoffs(example).rows[0].label
    assert label == {"fr": "pas encore signée", "en": "not signed yet"}[language]
