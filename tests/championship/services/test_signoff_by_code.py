"""A seated player without an account on his phone signs the sheet with the code the secretary's
screen shows him (championship.services.signoff.sign_sheet_by_code): his own code only, at the
version he saw, once per version; the history says « par son code de table »."""

import pytest

from championship import services
from championship.models import Round, Signoff
from championship.rounds.table_link import signing_codes
from championship.services import RoundError
from federation.models import Player
from tests.factories import fifth_deal


def code_of(round_, name):
    codes = signing_codes(round_.pk, round_.seats.values_list("player_id", flat=True))
    return codes[Player.objects.get(name=name).pk]


def player(name):
    return Player.objects.get(name=name)


def test_a_player_signs_with_his_code_recorded_as_by_his_table_code(example):
    signoff = services.sign_sheet_by_code(
        example, player("Alice"), code_of(example, "Alice"), Signoff.CONFIRMED, version=example.version
    )
    assert (signoff.player.name, signoff.verdict, signoff.version) == ("Alice", "confirmed", example.version)
    record = signoff.history.get()
    assert record.history_user is None  # no account acted
    assert record.history_change_reason == "feuille confirmée par le joueur, par son code de table"


def test_a_dispute_by_code_keeps_its_comment(example):
    services.sign_sheet_by_code(
        example,
        player("Bruno"),
        code_of(example, "Bruno"),
        Signoff.DISPUTED,
        version=example.version,
        comment="La donne 3 était chutée",
    )
    signoff = Signoff.objects.get()
    assert (signoff.verdict, signoff.comment) == ("disputed", "La donne 3 était chutée")
    reason = signoff.history.get().history_change_reason
    assert reason == "feuille contestée par le joueur, par son code de table"


@pytest.mark.parametrize("code", ["000000", "", "12345"])
def test_a_wrong_code_is_refused_naming_the_field(example, code):
    if code == code_of(example, "Alice"):
        code = "999999"
    with pytest.raises(RoundError) as refused:
        services.sign_sheet_by_code(
            example, player("Alice"), code, Signoff.CONFIRMED, version=example.version
        )
    assert refused.value.code == "code"
    assert refused.value.message.startswith("Code : ")
    assert not Signoff.objects.exists()


def test_another_players_code_does_not_sign_for_him(example):
    with pytest.raises(RoundError) as refused:
        services.sign_sheet_by_code(
            example, player("Alice"), code_of(example, "Bruno"), Signoff.CONFIRMED, version=example.version
        )
    assert refused.value.code == "code"
    assert not Signoff.objects.exists()


def test_a_player_not_seated_is_refused(example, member):
    with pytest.raises(RoundError) as refused:
        services.sign_sheet_by_code(example, member, "123456", Signoff.CONFIRMED, version=example.version)
    assert refused.value.code == "player"


def test_a_player_who_signed_this_version_does_not_sign_again_by_code(example):
    alice, code = player("Alice"), code_of(example, "Alice")
    services.sign_sheet_by_code(example, alice, code, Signoff.CONFIRMED, version=example.version)
    with pytest.raises(RoundError) as refused:
        services.sign_sheet_by_code(
            example, alice, code, Signoff.DISPUTED, version=example.version, comment="finalement non"
        )
    assert refused.value.code == "signed"
    assert "Alice" in refused.value.message
    assert Signoff.objects.get().verdict == "confirmed"


def test_after_a_change_he_signs_the_new_version_by_code(example, secretary):
    alice, code = player("Alice"), code_of(example, "Alice")
    services.sign_sheet_by_code(example, alice, code, Signoff.CONFIRMED, version=example.version)
    seen = example.version
    services.add_deal(Round.objects.get(pk=example.pk), fifth_deal(), number=5, user=secretary.user)
    with pytest.raises(RoundError) as refused:
        services.sign_sheet_by_code(example, alice, code, Signoff.CONFIRMED, version=seen)
    assert refused.value.code == "stale"
    example.refresh_from_db()
    services.sign_sheet_by_code(example, alice, code, Signoff.CONFIRMED, version=example.version)
    assert Signoff.objects.get().version == example.version


def test_a_homologated_round_is_no_longer_signed_by_code(example):
    services.homologate_round(example)
    with pytest.raises(RoundError) as refused:
        services.sign_sheet_by_code(
            example, player("Alice"), code_of(example, "Alice"), Signoff.CONFIRMED, version=example.version
        )
    assert refused.value.code == "status"
