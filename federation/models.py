"""The federation itself: players, seasons with their rulebook, and the board (each with its history)."""

import re
from functools import cached_property

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation.history import HistoricalRecords
from federation.validators import validate_player_name, validate_player_nickname
from scoring.rulebook import RulebookError, default_rulebook_text, load_rulebook

SEASON_NAME = re.compile(r"^\d{4}-\d{4}$")


class Player(models.Model):
    name = models.CharField(_("nom"), max_length=80, unique=True, validators=[validate_player_name])
    nickname = models.CharField(_("surnom"), max_length=80, blank=True, validators=[validate_player_nickname])
    active = models.BooleanField(_("actif"), default=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("compte utilisateur"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("joueur")
        verbose_name_plural = _("joueurs")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("championship:player", args=[self.pk])


def validate_season_name(value):
    if not SEASON_NAME.match(value):
        raise ValidationError(_("Le nom d'une saison s'écrit « 2010-2011 »."))
    first, second = (int(part) for part in value.split("-"))
    if second != first + 1:
        raise ValidationError(_("Une saison va d'une année à la suivante, par exemple « 2010-2011 »."))


def validate_rulebook_text(value):
    try:
        load_rulebook(value)
    except RulebookError as error:
        raise ValidationError(_("Règlement invalide — %(error)s"), params={"error": error}) from error


class SeasonQuerySet(models.QuerySet):
    def current(self):
        """The open season that started last, else the latest season."""
        return self.order_by("-is_open", "-start_date", "-name").first()


class Season(models.Model):
    name = models.CharField(
        _("nom"),
        max_length=9,
        unique=True,
        validators=[validate_season_name],
        help_text=_("Par exemple 2010-2011."),
    )
    start_date = models.DateField(_("début"))
    end_date = models.DateField(_("fin"))
    is_open = models.BooleanField(_("ouverte"), default=True)
    # Read only for a season without any night on its calendar (gamenights.schedule, docs/calendrier.md).
    remaining_rounds = models.PositiveSmallIntegerField(
        _("manches régulières restantes (saison sans calendrier)"),
        default=0,
        help_text=_(
            "Ne sert qu'à une saison qui n'a aucune soirée au calendrier (une saison importée, une "
            "fédération qui n'utilise pas le calendrier) : les manches régulières qu'il reste à "
            "jouer, pour les statuts des play-offs. Dès la première soirée programmée, seul le "
            "calendrier compte et ce nombre est ignoré."
        ),
    )
    rulebook_text = models.TextField(
        _("règlement de la saison"),
        blank=True,
        validators=[validate_rulebook_text],
        help_text=_("Copie du règlement par défaut (TOML commenté), modifiable par la Direction."),
    )
    history = HistoricalRecords()

    objects = SeasonQuerySet.as_manager()

    class Meta:
        ordering = ["-start_date"]
        verbose_name = _("saison")
        verbose_name_plural = _("saisons")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__gte=models.F("start_date")), name="season_ends_after_start"
            )
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        if not self.rulebook_text.strip():
            self.rulebook_text = default_rulebook_text()
        validate_rulebook_text(self.rulebook_text)
        self.__dict__.pop("rulebook", None)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("championship:season", args=[self.name])

    @cached_property
    def rulebook(self):
        return load_rulebook(self.rulebook_text or default_rulebook_text())


class Official(models.Model):
    PRESIDENT = "president"
    VICE_PRESIDENT = "vice_president"
    SECRETARY = "secretary"
    ROLES = [
        (PRESIDENT, _("Président")),
        (VICE_PRESIDENT, _("Vice-Président")),
        (SECRETARY, _("Secrétaire")),
    ]
    BOARD_ROLES = (PRESIDENT, VICE_PRESIDENT)

    season = models.ForeignKey(
        Season, verbose_name=_("saison"), on_delete=models.CASCADE, related_name="officials"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("joueur"), on_delete=models.PROTECT, related_name="offices"
    )
    role = models.CharField(_("fonction"), max_length=20, choices=ROLES)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "role"]
        verbose_name = _("officiel")
        verbose_name_plural = _("officiels")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "role"],
                condition=Q(role__in=["president", "vice_president"]),
                name="one_president_and_one_vice_president_per_season",
            ),
            models.UniqueConstraint(
                fields=["season", "player", "role"], name="official_role_once_per_player"
            ),
        ]

    def __str__(self):
        return f"{self.get_role_display()} {self.season} : {self.player}"


class MemberKey(models.Model):
    """A member's private link (docs/exploitation.md, « Comptes et sécurité »): the SHA-256 of its
    secret, never the secret itself, which is shown once, when the link is issued
    (`federation.private_links`). Issuing it again renews it: the old link and every phone session
    it opened end."""

    player = models.OneToOneField(
        Player, verbose_name=_("joueur"), on_delete=models.CASCADE, related_name="member_key"
    )
    digest = models.CharField(_("empreinte"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("donné le"), default=timezone.now)
    renewed_at = models.DateTimeField(_("renouvelé le"), null=True, blank=True)
    renewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("renouvelé par"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # The history says who issued or renewed the link and when, never its digest.
    history = HistoricalRecords(excluded_fields=["digest"])

    class Meta:
        verbose_name = _("lien privé")
        verbose_name_plural = _("liens privés")

    def __str__(self):
        return str(self.player)

    @property
    def issued_at(self):
        return self.renewed_at or self.created_at


class PhoneSession(models.Model):
    """A session a member's private link opened on a phone (`federation.private_links`): listed
    on « Mon compte », ended from there or by a renewal of the link."""

    session_key = models.CharField(_("session"), max_length=40, unique=True)
    player = models.ForeignKey(
        Player, verbose_name=_("joueur"), on_delete=models.CASCADE, related_name="phone_sessions"
    )
    # Short names read from the User-Agent (« Chrome », « Android »), empty when unknown.
    browser = models.CharField(_("navigateur"), max_length=30, blank=True)
    system = models.CharField(_("système"), max_length=30, blank=True)
    created_at = models.DateTimeField(_("ouverte le"), default=timezone.now)
    last_seen_at = models.DateTimeField(_("vue le"), default=timezone.now)

    class Meta:
        ordering = ["-last_seen_at", "-pk"]
        verbose_name = _("session d'un téléphone")
        verbose_name_plural = _("sessions des téléphones")

    def __str__(self):
        return f"{self.player} : {self.label}"

    @property
    def label(self):
        """« Chrome sur Android », « Safari sur iPhone »."""
        return gettext("%(browser)s sur %(system)s") % {
            "browser": self.browser or gettext("Navigateur inconnu"),
            "system": self.system or gettext("appareil inconnu"),
        }
