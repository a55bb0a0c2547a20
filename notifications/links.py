"""Signed links of the reminders' mails.

- The one-click unsubscribe link of a reminder (RFC 8058): it names one member and one kind of
  reminder, cannot be forged without SECRET_KEY, and is the only proof the POST needs (no login,
  no CSRF token: a mail client sends it without either).
- The link confirming a member's new e-mail address, mailed to that address: it names the
  request (``EmailChange``), the account and the new address, with a digest of the account's
  address when he asked; it works EMAIL_CONFIRMATION_MAX_AGE seconds, once, for the account's
  latest request only, and dies as soon as the account's address changes (its threat model:
  docs/exploitation.md, « Comptes et sécurité »).
"""

import datetime

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from notifications.models import KINDS, EmailChange

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


# --- the confirmation of a new address ------------------------------------------------------------


def address_digest(user):
    """A keyed digest of ``user``'s current address (case aside): it tells whether the address
    changed since a link was made, without writing the old address into the link."""
    value = f"{user.pk}:{user.email.strip().casefold()}"
    digest = salted_hmac(f"{settings.EMAIL_CONFIRMATION_SALT}.current", value, algorithm="sha256")
    return digest.hexdigest()[:32]


def email_confirmation_token(change):
    return signing.dumps(
        [change.pk, change.user_id, change.address, address_digest(change.user)],
        salt=settings.EMAIL_CONFIRMATION_SALT,
        compress=True,
    )


def email_confirmation_path(change):
    return reverse("notifications:email_confirm", args=[email_confirmation_token(change)])


def latest_request(user):
    """``user``'s last request for a new address, or None."""
    return EmailChange.objects.filter(user=user).order_by("-requested_at", "-pk").first()


def pending_change(user):
    """The request whose link may still confirm ``user``'s new address, or None: the latest, not
    confirmed, not expired, asked while the account had the address it has now."""
    change = latest_request(user)
    if change is None or change.confirmed_at is not None or change.previous != user.email:
        return None
    if timezone.now() - change.requested_at > datetime.timedelta(seconds=settings.EMAIL_CONFIRMATION_MAX_AGE):
        return None
    return change


def email_change_of_token(token):
    """The ``EmailChange`` a valid link confirms, else None: signed by the site under its salt,
    younger than EMAIL_CONFIRMATION_MAX_AGE, naming a request of the account it names, for the
    address asked, still the account's pending one (latest, unconfirmed), the account's address
    unchanged since."""
    try:
        change_pk, user_pk, address, digest = signing.loads(
            token, salt=settings.EMAIL_CONFIRMATION_SALT, max_age=settings.EMAIL_CONFIRMATION_MAX_AGE
        )
    except (signing.BadSignature, ValueError, TypeError):  # SignatureExpired is a BadSignature
        return None
    if not (isinstance(change_pk, int) and isinstance(user_pk, int) and isinstance(digest, str)):
        return None
    change = EmailChange.objects.select_related("user").filter(pk=change_pk, user_id=user_pk).first()
    if change is None or change.address != address or not change.user.is_active:
        return None
    if pending_change(change.user) != change:
        return None
    if not constant_time_compare(digest, address_digest(change.user)):
        return None
    return change
