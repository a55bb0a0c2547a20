"""The calendar: game nights of a season and the members' answers (each with its history).

A night's rounds are the rounds of its season played on its date at its stage (the round page
needs no link to the calendar): a night "has its round" as soon as one is entered.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from championship.models import Round
from federation.history import HistoricalRecords
from federation.models import Player, Season
from scoring import vocabulary

QUORUM = min(vocabulary.TABLE_SIZES)  # a table is on with 4 players who come

STAGES = [
    (vocabulary.REGULAR, _("manche régulière")),
    (vocabulary.PLAYOFF, _("table de play-off")),
    (vocabulary.FINAL, _("finale")),
]


class GameNight(models.Model):
    REGULAR, PLAYOFF, FINAL = vocabulary.REGULAR, vocabulary.PLAYOFF, vocabulary.FINAL

    season = models.ForeignKey(
        Season, verbose_name=_("saison"), on_delete=models.PROTECT, related_name="nights"
    )
    date = models.DateField(_("date"))
    time = models.TimeField(_("heure"), default=datetime.time(20, 30))
    place = models.CharField(_("lieu"), max_length=120, blank=True)
    host = models.ForeignKey(
        Player,
        verbose_name=_("hôte"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hosted_nights",
    )
    stage = models.CharField(_("phase"), max_length=10, choices=STAGES, default=REGULAR)
    table = models.CharField(_("table de play-off"), max_length=1, blank=True, default="")
    notes = models.TextField(_("notes"), blank=True, max_length=2000)
    tentative = models.BooleanField(
        _("date à confirmer"),
        default=False,
        help_text=_("Soirée prévue dont la date n'est pas encore fixée."),
    )
    cancelled = models.BooleanField(_("annulée"), default=False)
    answers_until = models.DateTimeField(
        _("réponses jusqu'au"),
        null=True,
        blank=True,
        help_text=_("Vide : jusqu'au début de la soirée."),
    )
    # Raised at every change a calendar shows (date, time, place, cancellation): the SEQUENCE of
    # the night's iCal event, so that subscribed calendars take the update.
    sequence = models.PositiveIntegerField(_("révision"), default=0)
    updated_at = models.DateTimeField(auto_now=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["date", "time", "pk"]
        verbose_name = _("soirée")
        verbose_name_plural = _("soirées")
        constraints = [
            models.CheckConstraint(
                condition=Q(stage="playoff", table__in=list(vocabulary.PLAYOFF_TABLES))
                | (~Q(stage="playoff") & Q(table="")),
                name="night_table_only_for_playoffs",
            ),
        ]

    def __str__(self):
        return f"{self.season} — {self.date:%d/%m/%Y}"

    def get_absolute_url(self):
        return reverse("gamenights:night", args=[self.pk])

    @property
    def starts_at(self):
        return timezone.make_aware(datetime.datetime.combine(self.date, self.time))

    @property
    def deadline(self):
        return self.answers_until or self.starts_at

    def answers_open(self, now=None):
        return not self.cancelled and (now or timezone.now()) < self.deadline

    def rounds(self):
        return Round.objects.filter(season=self.season, date=self.date, stage=self.stage, table=self.table)


class Rsvp(models.Model):
    YES, NO, MAYBE = "yes", "no", "maybe"
    ANSWERS = [(YES, _("je viens")), (NO, _("je ne viens pas")), (MAYBE, _("peut-être"))]

    night = models.ForeignKey(
        GameNight, verbose_name=_("soirée"), on_delete=models.CASCADE, related_name="rsvps"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("joueur"), on_delete=models.CASCADE, related_name="rsvps"
    )
    answer = models.CharField(_("réponse"), max_length=5, choices=ANSWERS)
    reason = models.CharField(_("motif"), max_length=200, blank=True)
    answered_at = models.DateTimeField(_("répondu le"), default=timezone.now)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("répondu par"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["night", "answered_at", "pk"]
        verbose_name = _("réponse")
        verbose_name_plural = _("réponses")
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="rsvp_once_per_night")]

    def __str__(self):
        return f"{self.player} : {self.get_answer_display()}"


class FeedKey(models.Model):
    """The secret of a member's own calendar feed (docs/calendrier.md, « L'adresse de son
    calendrier »): a random key, made with his account, whose HMAC under SECRET_KEY is the feed's
    address (`gamenights.links`). The key alone, as a copy of the database holds it, opens
    nothing; renewing it closes the address handed out before. `renewed_at`: empty until the
    member first renews, the addresses signed the old way (SECRET_KEY and the player's id alone)
    open until then."""

    player = models.OneToOneField(
        Player, verbose_name=_("joueur"), on_delete=models.CASCADE, related_name="feed_key"
    )
    key = models.CharField(_("clé"), max_length=64)
    created_at = models.DateTimeField(_("créée le"), default=timezone.now)
    renewed_at = models.DateTimeField(_("renouvelée le"), null=True, blank=True)
    # The history says who renewed and when, never the key (not even a revoked one).
    history = HistoricalRecords(excluded_fields=["key"])

    class Meta:
        verbose_name = _("clé du calendrier personnel")
        verbose_name_plural = _("clés des calendriers personnels")

    def __str__(self):
        return str(self.player)
