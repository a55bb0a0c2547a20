"""The signed one-click unsubscribe link of a reminder (RFC 8058): it names one member and one
kind of reminder, cannot be forged without SECRET_KEY, and is the only proof the POST needs (no
login, no CSRF token: a mail client sends it without either)."""

from django.core import signing
from django.urls import reverse

from notifications.models import KINDS

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def unsubscribe_token(player, kind):
    return signing.dumps([player.pk, kind], salt=UNSUBSCRIBE_SALT)


def unsubscribe_path(player, kind):
    return reverse("notifications:unsubscribe", args=[unsubscribe_token(player, kind)])


def of_unsubscribe_token(token):
    """``(player pk, kind)`` of a valid link, else None."""
    try:
        player_pk, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(player_pk, int) or kind not in dict(KINDS):
        return None
    return player_pk, kind
