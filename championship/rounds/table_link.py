"""The table's link of a round and its players' signing codes: HMACs under SECRET_KEY, nothing
stored (their threat model: docs/exploitation.md, « Comptes et sécurité »).

The table's link, `/manches/<pk>/table/<token>/`, is the QR code of the entry page: its token is
the HMAC of the round's id, 96 bits written in 16 URL-safe characters; it opens the round's live
view, read-only, until the round is homologated (`championship.views.table`). A token of the
previous key (SECRET_KEY_FALLBACKS) still opens, so a renewed key does not break the evening.

A signing code is six digits a seated player without his account on his phone types to sign for
himself, shown to him on the secretary's screen: the HMAC of the round's and the player's ids,
never the same for two players of a round (a collision draws again, in the order of the players'
ids, so that every screen shows the same codes)."""

import base64

from django.conf import settings
from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

TOKEN_SALT = "championship.table-link"
CODE_SALT = "championship.table-code"
TOKEN_BYTES = 12  # 96 bits: 16 characters in the QR code
CODE_DIGITS = 6


def _token(round_pk, secret):
    digest = salted_hmac(TOKEN_SALT, str(round_pk), secret=secret, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode()


def table_token(round_):
    """The token of `round_`'s table link."""
    return _token(round_.pk, settings.SECRET_KEY)


def is_table_token(round_pk, token):
    """Whether `token` is the table token of round `round_pk` (under SECRET_KEY or a fallback)."""
    secrets = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return any(constant_time_compare(token, _token(round_pk, secret)) for secret in secrets)


def table_path(round_):
    """The address (path) of `round_`'s table link."""
    return reverse("championship:round_table", args=[round_.pk, table_token(round_)])


def _drawn(round_pk, player_pk, draw):
    """The `draw`-th code drawn for a player of a round: six digits of an HMAC."""
    message = f"{round_pk}:{player_pk}:{draw}"
    digest = salted_hmac(CODE_SALT, message, algorithm="sha256").digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**CODE_DIGITS:0{CODE_DIGITS}d}"


def signing_codes(round_pk, player_pks):
    """{player pk: code} for the players `player_pks` seated at round `round_pk`, all different."""
    codes, taken = {}, set()
    for player_pk in sorted(player_pks):
        draw = 0
        code = _drawn(round_pk, player_pk, draw)
        while code in taken:
            draw += 1
            code = _drawn(round_pk, player_pk, draw)
        codes[player_pk] = code
        taken.add(code)
    return codes


def typed_code(text):
    """The digits of a code as typed (« 123 456 », « 123-456 »)."""
    return "".join(character for character in text or "" if character in "0123456789")


def code_matches(round_, player_pk, code):
    """Whether `code` is the signing code of player `player_pk` at `round_` (seated there)."""
    seated = list(round_.seats.values_list("player_id", flat=True))
    expected = signing_codes(round_.pk, seated).get(player_pk)
    return expected is not None and constant_time_compare(typed_code(code), expected)
