"""A webhook of the federation's group chat, and its outbox: one row per announcement and
webhook, written in the act's transaction, posted by one process at a time until delivered,
with the same idempotency key at every attempt (`webhooks.delivery`).

A webhook's URL holds its secret (Discord's and Slack's token is in the path): it is shown whole
only in its own edit form; everywhere else (lists, history, logs, errors) by its host
(`Webhook.host`)."""

from urllib.parse import urlsplit

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

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


class Delivery(models.Model):
    """One announcement to post to one webhook; `key` names the news, so that it is written once
    per webhook whoever announces it twice (a table confirmed again, a signal sent twice)."""

    PENDING, SENDING, DELIVERED, FAILED = "pending", "sending", "delivered", "failed"
    STATUSES = [
        (PENDING, _("à envoyer")),
        (SENDING, _("en cours d'envoi")),
        (DELIVERED, _("livrée")),
        (FAILED, _("abandonnée")),
    ]

    webhook = models.ForeignKey(
        Webhook, verbose_name=_("webhook"), on_delete=models.CASCADE, related_name="deliveries"
    )
    key = models.CharField(_("clé de l'annonce"), max_length=80)
    event = models.CharField(_("évènement"), max_length=30)
    body = models.JSONField(_("contenu envoyé"))
    status = models.CharField(_("état"), max_length=10, choices=STATUSES, default=PENDING)
    attempts = models.PositiveSmallIntegerField(_("essais"), default=0)
    next_attempt_at = models.DateTimeField(_("prochain essai"), default=timezone.now)
    # When the row was last claimed to be sent: a row still « en cours d'envoi » long after it
    # is stuck (webhooks.delivery.stuck_after), and claimed again.
    claimed_at = models.DateTimeField(_("réservée le"), null=True, blank=True)
    last_error = models.CharField(_("dernière erreur"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("écrite le"), default=timezone.now)
    sent_at = models.DateTimeField(_("envoyée le"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("annonce")
        verbose_name_plural = _("annonces")
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="delivery_once_per_webhook")]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="delivery_due")]

    def __str__(self):
        return f"{self.event} → {self.webhook.host}"
