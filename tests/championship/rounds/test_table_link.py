"""The table's link of a round and the players' signing codes (championship.rounds.table_link):
HMACs under SECRET_KEY, one token per round, one code per round and player, never the same code
for two players of a round."""

import re

import pytest

from championship.rounds import table_link
from championship.rounds.table_link import is_table_token, signing_codes, table_token


class Row:
    def __init__(self, pk):
        self.pk = pk


def test_a_rounds_token_is_short_urlsafe_stable_and_its_own(settings):
    token = table_token(Row(7))
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", token)
    assert table_token(Row(7)) == token
    assert table_token(Row(8)) != token
    assert is_table_token(7, token)
    assert not is_table_token(8, token)  # another round's token
    assert not is_table_token(7, token[:-1] + ("A" if token[-1] != "A" else "B"))
    assert not is_table_token(7, "")
    settings.SECRET_KEY = "another key, another site"
    assert table_token(Row(7)) != token
    assert not is_table_token(7, token)


def test_a_token_of_the_previous_secret_key_still_opens(settings):
    old = table_token(Row(7))
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "the renewed key"
    assert is_table_token(7, old)
    assert is_table_token(7, table_token(Row(7)))


def test_each_player_of_a_round_has_his_own_six_digit_code():
    codes = signing_codes(3, [11, 12, 13, 14, 15])
    assert sorted(codes) == [11, 12, 13, 14, 15]
    assert all(re.fullmatch(r"\d{6}", code) for code in codes.values())
    assert len(set(codes.values())) == 5
    assert signing_codes(3, [15, 14, 13, 12, 11]) == codes  # whatever the order of the seats
    assert signing_codes(4, [11, 12, 13, 14, 15]) != codes  # another round, other codes


def test_two_players_never_get_the_same_code(monkeypatch):
    """A collision of the HMACs (one chance in 200 000 for five players) draws again."""
    monkeypatch.setattr(table_link, "_drawn", lambda round_pk, player_pk, draw: f"{draw:06d}")
    codes = signing_codes(3, [11, 12, 13])
    assert codes == {11: "000000", 12: "000001", 13: "000002"}


@pytest.mark.parametrize("typed", ["123456", " 123 456 ", "123-456"])
def test_a_typed_code_keeps_its_digits(typed):
    assert table_link.typed_code(typed) == "123456"
