"""A webhook of the federation's group chat, and its outbox: one row per announcement and
webhook, written in the act's transaction, posted by one process at a time until delivered,
with the same idempotency key at every attempt (`webhooks.delivery`).

A webhook's URL holds its secret (Discord's and Slack's token is in the path): it is shown whole
only in its own edit form; everywhere else (lists, history, logs, errors) by its host
(`Webhook.host`)."""

from urllib.parse import urlsplit

from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.history import HistoricalRecords
from federation.row_outbox import OutboxRow

DISCORD, SLACK, MATRIX, JSON = "discord", "slack", "matrix", "json"
FORMATS = [
    (DISCORD, "Discord"),
    (SLACK, "Slack"),
    (MATRIX, _("Matrix (hookshot)")),
    (JSON, _("JSON simple")),
]


def host_of(url):
    """The host of `url` (what may be shown of a webhook), or « ? » if it has none."""
    return urlsplit(url or "").hostname or "?"


class Webhook(models.Model):
    name = models.CharField(_("nom"), max_length=80, help_text=_("Par exemple « Discord du club »."))
    url = models.URLField(
        _("adresse du webhook"),
        max_length=500,
        help_text=_("Secrète : elle n'est montrée qu'ici, jamais dans les listes ni le journal."),
    )
    format = models.CharField(_("format"), max_length=10, choices=FORMATS, default=DISCORD)
    active = models.BooleanField(_("active"), default=True)
    # The URL is left out of the history: its records would show the secret to whoever reads it.
    history = HistoricalRecords(excluded_fields=["url"])

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self):
        return f"{self.name} ({self.host})"

    @property
    def host(self):
        return host_of(self.url)


class Delivery(OutboxRow):
    """One announcement to post to one webhook; `key` names the news, so that it is written once
    per webhook whoever announces it twice (a table confirmed again, a signal sent twice). Its
    state (pending, being sent, delivered, given up; attempts, next attempt, claim) is an outbox
    row's (`federation.row_outbox`)."""

    webhook = models.ForeignKey(
        Webhook, verbose_name=_("webhook"), on_delete=models.CASCADE, related_name="deliveries"
    )
    key = models.CharField(_("clé de l'annonce"), max_length=80)
    event = models.CharField(_("évènement"), max_length=30)
    body = models.JSONField(_("contenu envoyé"))

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("annonce")
        verbose_name_plural = _("annonces")
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="delivery_once_per_webhook")]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="delivery_due")]

    def __str__(self):
        return f"{self.event} → {self.webhook.host}"
