"""The writes of a member's reminder choices, each with its history record (who, why), and of his
own e-mail address: a request (``EmailChange``), then its confirmation by the link mailed to the
new address, which alone changes the account's address (docs/comptes.md)."""

import base64
import binascii
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from federation.history import audited
from notifications import links, push
from notifications.models import KINDS, EmailChange, PushSubscription, ReminderPreference, choice_fields

FIELDS = tuple(dict.fromkeys((*dict(KINDS), *dict(choice_fields()), "language")))


@transaction.atomic
def set_preferences(player, *, user=None, reason="choix du membre", **values):
    """Save ``values`` (among FIELDS) as ``player``'s choices; the row is made on first use."""
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise ValueError(f"Champs inconnus : {', '.join(sorted(unknown))}.")
    found, _created = ReminderPreference.objects.select_for_update().get_or_create(player=player)
    for name, value in values.items():
        setattr(found, name, value)
    with audited(user, reason) as audit:
        audit.save(found)
    return found


def unsubscribe(player, kind):
    """The one-click link: ``kind`` turned off for ``player`` (without login: no author)."""
    return set_preferences(player, reason="désinscription en un clic (lien du courriel)", **{kind: False})


# --- his own address ------------------------------------------------------------------------------


def address_taken(address, user):
    """Whether an account other than ``user``'s has ``address`` (case aside)."""
    return get_user_model()._default_manager.filter(email__iexact=address).exclude(pk=user.pk).exists()


def taken_error():
    return ValidationError(
        gettext("Adresse électronique : cette adresse est déjà celle d'un autre compte."), code="taken"
    )


def locked(user):
    """``user``'s row, locked until the transaction ends: two writes of his address wait in turn."""
    return get_user_model()._default_manager.select_for_update().get(pk=user.pk)


@transaction.atomic
def request_email_change(user, address):
    """Record that ``user`` asks for ``address`` (his address is unchanged; the caller mails the
    link, ``links.email_confirmation_path``). Refused (``ValidationError``) if another account has it."""
    user = locked(user)
    if address_taken(address, user):
        raise taken_error()
    return EmailChange.objects.create(user=user, previous=user.email, address=address)


@transaction.atomic
def confirm_email_change(change):
    """The link opened and its button pressed: ``change.address`` becomes the account's address.
    Checked again under the account's lock (the link still the pending one, the address still
    free); refused by a ``ValidationError`` otherwise. Returns the request, confirmed."""
    user = locked(change.user)
    change = EmailChange.objects.select_for_update().get(pk=change.pk)
    if links.pending_change(user) != change:
        raise ValidationError(gettext("Ce lien n'est pas (ou plus) valide."), code="stale")
    if address_taken(change.address, user):
        raise taken_error()
    user.email = change.address
    user.save(update_fields=["email"])
    change.confirmed_at = timezone.now()
    change.save(update_fields=["confirmed_at"])
    change.user = user
    return change


# --- his phones (push subscriptions) ---------------------------------------------------------------


MOST_PHONES = 10  # a member's phones kept: an eleventh replaces the oldest


@dataclass(frozen=True)
class Kept:
    subscription: PushSubscription
    created: bool


def decoded(value, length, what):
    """The bytes of a base64url key of `length` bytes; `ValueError` otherwise."""
    text = str(value).strip()
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError(what) from None
    if len(raw) != length:
        raise ValueError(what)
    return text.rstrip("=")


@transaction.atomic
def keep_subscription(user, endpoint, p256dh, auth, *, label=""):
    """Keep the browser's push subscription for `user`: its address checked (`push.check`,
    `Refused`), its keys a P-256 point (65 bytes) and a 16-byte secret (`ValueError`). The same
    address again is the same phone: it follows the account that subscribed it last."""
    endpoint = str(endpoint).strip()
    if len(endpoint) > 1000 or not endpoint.isascii():  # a browser serializes it in ASCII
        raise ValueError("endpoint")
    push.check(endpoint)
    p256dh = decoded(p256dh, 65, "p256dh")
    auth = decoded(auth, 16, "auth")
    found = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if found is None:
        values = {"endpoint": endpoint, "p256dh": p256dh, "auth": auth, "label": label}
        kept = Kept(PushSubscription.objects.create(user=user, **values), True)
        mine = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")
        PushSubscription.objects.filter(pk__in=list(mine.values_list("pk", flat=True)[MOST_PHONES:])).delete()
        return kept
    found.user, found.p256dh, found.auth = user, p256dh, auth
    found.label = label or found.label
    found.save(update_fields=["user", "p256dh", "auth", "label"])
    return Kept(found, False)


def remove_subscription(subscription):
    """The phone no longer receives news; its news not yet sent go with it."""
    subscription.delete()
