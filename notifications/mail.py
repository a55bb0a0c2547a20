"""The e-mail of a reminder, in its recipient's language (``ReminderPreference.language``):
plain text, as the house's other mail (the password reset), from the templates
``notifications/mail/<kind>.txt`` and ``<kind>_subject.txt``; with ``List-Unsubscribe`` and
``List-Unsubscribe-Post`` (RFC 8058) naming the signed link that turns that kind off.

And the two mails of a member's new address, written in the language of the page he used: the
link confirming it, to the new address; once confirmed, a notice to the old one."""

import re

from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from federation.addresses import absolute
from gamenights import links as night_links
from gamenights.models import Rsvp
from notifications import links
from notifications.models import NIGHT
from notifications.plan import preference

TEMPLATES = "notifications/mail/"

SPACES = re.compile(r"[^\S\u00a0\u202f]+")  # every space and line break but the no-break ones


def one_line(text):
    """A subject on one line; its no-break spaces (French typography) kept, which str.split() drops."""
    return SPACES.sub(" ", text).strip(" ")


def context(reminder):
    player = reminder.recipient
    found = {
        "player": player,
        "subject": reminder.subject,
        "site_url": absolute(""),
        "account_url": absolute(reverse("notifications:account")),
        "unsubscribe_url": absolute(links.unsubscribe_path(player, reminder.kind)),
        **reminder.facts,
    }
    if reminder.kind == NIGHT:
        night = reminder.subject
        answer = absolute(night_links.answer_url(night, player))
        found["night_url"] = absolute(night.get_absolute_url())
        found["answers"] = [(label, f"{answer}?reponse={code}") for code, label in Rsvp.ANSWERS]
    else:
        found["round_url"] = absolute(reminder.subject.get_absolute_url())
        found["report_url"] = absolute(reverse("championship:report_edit", args=[reminder.subject.pk]))
    return found


def message(reminder):
    """The ``EmailMessage`` of ``reminder`` (not sent)."""
    with translation.override(preference(reminder.recipient).language):
        values = context(reminder)
        subject = render_to_string(f"{TEMPLATES}{reminder.kind}_subject.txt", values)
        body = render_to_string(f"{TEMPLATES}{reminder.kind}.txt", values)
    return EmailMessage(
        subject=one_line(subject),
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[reminder.recipient.user.email],
        headers={
            "List-Unsubscribe": f"<{values['unsubscribe_url']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )


# --- a member's new address ----------------------------------------------------------------------


def plain(template, values, to):
    """A plain-text ``EmailMessage`` from ``<template>.txt`` and ``<template>_subject.txt``."""
    subject = render_to_string(f"{TEMPLATES}{template}_subject.txt", values)
    return EmailMessage(
        subject=one_line(subject),
        body=render_to_string(f"{TEMPLATES}{template}.txt", values),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=to,
        headers={"Auto-Submitted": "auto-generated"},
    )


def hint(address):
    """A hint of ``address`` for the old mailbox's notice: its first letter and its domain."""
    local, _at, domain = address.partition("@")
    return f"{local[:1]}…@{domain}"


def address_confirmation(change, url):
    """The mail that carries ``url``, the link confirming ``change.address``, to that address."""
    values = {"username": change.user.get_username(), "address": change.address, "url": url}
    values["days"] = settings.EMAIL_CONFIRMATION_MAX_AGE // (60 * 60 * 24)
    return plain("address_confirm", values, [change.address])


def address_replaced(change, account_url):
    """The notice to ``change.previous`` that the account's address is now another one."""
    values = {
        "username": change.user.get_username(),
        "hint": hint(change.address),
        "account_url": account_url,
    }
    return plain("address_replaced", values, [change.previous])


def deliver(message):
    """On the outbox's thread: send ``message`` (a failure is logged by the outbox)."""
    message.send()
