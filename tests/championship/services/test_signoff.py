"""The table signs the sheet (championship.services.signoff): a seated player confirms or
disputes the round at the version he saw, with its history; the board homologates, with a motif
when the sheet is disputed."""

import pytest
from django.contrib.auth import get_user_model

from championship import services
from championship.models import Round, Signoff
from championship.services import RoundError
from federation.models import Player
from tests.factories import fifth_deal


def seated_user(name):
    """The account of `name`, a player of the example round (created without one)."""
    player = Player.objects.get(name=name)
    player.user = get_user_model().objects.create_user(username=name.lower(), password="secret-pass-1")
    player.save()
    return player.user


def test_a_seated_player_confirms_the_sheet_at_its_version(example):
    alice = seated_user("Alice")
    signoff = services.sign_sheet(example, alice, Signoff.CONFIRMED, version=example.version)
    assert (signoff.player.name, signoff.verdict, signoff.version) == ("Alice", "confirmed", example.version)
    record = signoff.history.get()
    assert (record.history_user, record.history_change_reason) == (alice, "feuille confirmée par le joueur")


def test_signing_does_not_change_the_rounds_version(example):
    version = example.version
    services.sign_sheet(example, seated_user("Alice"), Signoff.CONFIRMED, version=version)
    example.refresh_from_db()
    assert example.version == version


def test_a_dispute_needs_a_comment(example):
    bruno = seated_user("Bruno")
    with pytest.raises(RoundError) as refused:
        services.sign_sheet(example, bruno, Signoff.DISPUTED, version=example.version, comment="  ")
    assert refused.value.code == "comment"
    assert "Commentaire" in refused.value.message
    assert not Signoff.objects.exists()


def test_a_dispute_keeps_its_comment_and_a_later_confirmation_replaces_it_with_history(example):
    bruno = seated_user("Bruno")
    services.sign_sheet(
        example, bruno, Signoff.DISPUTED, version=example.version, comment="Donne 3 : 51 points"
    )
    services.sign_sheet(example, bruno, Signoff.CONFIRMED, version=example.version, comment="ignored")
    signoff = Signoff.objects.get()
    assert (signoff.verdict, signoff.comment) == ("confirmed", "")
    assert [(r.verdict, r.comment) for r in signoff.history.order_by("history_date")] == [
        ("disputed", "Donne 3 : 51 points"),
        ("confirmed", ""),
    ]


def test_a_player_not_seated_at_the_round_is_refused(example, member):
    with pytest.raises(RoundError) as refused:
        services.sign_sheet(example, member.user, Signoff.CONFIRMED, version=example.version)
    assert refused.value.code == "player"


def test_an_account_without_a_player_is_refused(example, db):
    staff = get_user_model().objects.create_user(username="equipe", password="secret-pass-1")
    with pytest.raises(RoundError) as refused:
        services.sign_sheet(example, staff, Signoff.CONFIRMED, version=example.version)
    assert refused.value.code == "player"


def test_a_page_read_before_a_deal_was_saved_is_refused_as_stale(example, secretary):
    alice = seated_user("Alice")
    seen = example.version
    services.add_deal(Round.objects.get(pk=example.pk), fifth_deal(), number=5, user=secretary.user)
    with pytest.raises(RoundError) as refused:
        services.sign_sheet(example, alice, Signoff.CONFIRMED, version=seen)
    assert refused.value.code == "stale"
    assert not Signoff.objects.exists()


def test_a_confirmation_stays_of_the_version_it_was_given_at(example, secretary):
    alice = seated_user("Alice")
    services.sign_sheet(example, alice, Signoff.CONFIRMED, version=example.version)
    seen = example.version
    services.add_deal(Round.objects.get(pk=example.pk), fifth_deal(), number=5, user=secretary.user)
    example.refresh_from_db()
    assert Signoff.objects.get().version == seen < example.version
    services.sign_sheet(example, alice, Signoff.CONFIRMED, version=example.version)  # confirms again
    assert Signoff.objects.get().version == example.version


def test_a_homologated_round_is_no_longer_signed(example):
    alice = seated_user("Alice")
    services.homologate_round(example)
    with pytest.raises(RoundError) as refused:
        services.sign_sheet(example, alice, Signoff.CONFIRMED, version=example.version)
    assert refused.value.code == "status"


def test_an_open_dispute_asks_the_board_for_a_motif_to_homologate(example, president):
    services.sign_sheet(
        example,
        seated_user("Bruno"),
        Signoff.DISPUTED,
        version=example.version,
        comment="Il manque une donne",
    )
    with pytest.raises(RoundError) as refused:
        services.homologate_round(example, president.user)
    assert refused.value.code == "reason"
    example.refresh_from_db()
    assert example.status == Round.DRAFT
    services.homologate_round(example, president.user, reason="Donne vérifiée avec la table")
    example.refresh_from_db()
    assert example.status == Round.HOMOLOGATED
    assert example.history.first().history_change_reason == "Donne vérifiée avec la table"


def test_a_dispute_withdrawn_by_a_confirmation_no_longer_asks_for_a_motif(example, president):
    bruno = seated_user("Bruno")
    services.sign_sheet(
        example, bruno, Signoff.DISPUTED, version=example.version, comment="Il manque une donne"
    )
    services.sign_sheet(example, bruno, Signoff.CONFIRMED, version=example.version)
    services.homologate_round(example, president.user)
    example.refresh_from_db()
    assert example.status == Round.HOMOLOGATED
    assert example.history.first().history_change_reason == "homologation"


def test_a_sign_off_without_its_version_is_refused(example):
    """A sign-off says which version of the sheet the player saw: without it, it would be recorded
    as confirming the round as it is now, a version he may never have seen."""
    with pytest.raises(RoundError) as refused:
        services.sign_sheet(example, seated_user("Alice"), Signoff.CONFIRMED, version=None)
    assert refused.value.code == "version"
    assert refused.value.message.startswith("Version : ")
    assert not Signoff.objects.exists()
