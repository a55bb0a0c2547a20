"""The writes of a member's reminder choices, each with its history record (who, why), and of his
own e-mail address: a request (``EmailChange``), then its confirmation by the link mailed to the
new address, which alone changes the account's address (docs/comptes.md)."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from federation.history import audited
from notifications import links
from notifications.models import KINDS, EmailChange, ReminderPreference

FIELDS = (*dict(KINDS), "language")


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
