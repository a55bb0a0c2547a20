"""The competition: rounds, seats, deals, adjustments, reports and stored championship lines.

A round's figures (deal shares, seat totals, championship lines) are computed by `scoring` and
stored with the round in the same transaction (see `championship.services`); pages read them.
"""

from django.conf import settings
from django.core.validators import MaxLengthValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from championship import choices
from federation.history import HistoricalRecords
from federation.models import Player, Season
from federation.validators import validate_report_narrative
from scoring import vocabulary
from scoring.french import num, signed

COLOURS = choices.COLOURS


class Round(models.Model):
    REGULAR, PLAYOFF, FINAL = vocabulary.STAGES
    STAGES = choices.STAGES
    DRAFT, SUBMITTED, HOMOLOGATED = vocabulary.STATUSES
    STATUSES = choices.STATUSES
    TABLES = choices.PLAYOFF_TABLES

    season = models.ForeignKey(
        Season, verbose_name=_("saison"), on_delete=models.PROTECT, related_name="rounds"
    )
    stage = models.CharField(_("phase"), max_length=10, choices=STAGES, default=REGULAR)
    table = models.CharField(_("table de play-off"), max_length=1, choices=TABLES, blank=True, default="")
    number = models.PositiveSmallIntegerField(_("numéro"))
    date = models.DateField(_("date"))
    place = models.CharField(_("lieu"), max_length=120, blank=True)
    status = models.CharField(_("statut"), max_length=12, choices=STATUSES, default=DRAFT)
    totals_only = models.BooleanField(
        _("totaux seuls"), default=False, help_text=_("Soirée dont les donnes n'ont pas été gardées.")
    )
    pot_left = models.IntegerField(_("pot restant avant remboursement"), default=0)
    warnings = models.JSONField(_("avertissements"), default=list, blank=True)
    # The paper sheet's final totals as typed at the end of the night ({player id: total}; empty
    # until typed), checked against the computed totals on the entry and round pages.
    paper_totals = models.JSONField(_("totaux de la feuille papier"), default=dict, blank=True)
    homologated_at = models.DateTimeField(_("homologuée le"), null=True, blank=True)
    homologated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("homologuée par"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Raised by every write of `championship.services` to the round or what it holds: a form
    # carries the version it was read at, and a stale one is refused (no change lost unseen).
    version = models.PositiveIntegerField(_("version"), default=1)
    history = HistoricalRecords()

    class Meta:
        ordering = ["season", "stage", "number"]
        verbose_name = _("manche")
        verbose_name_plural = _("manches")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "stage", "table", "number"], name="round_number_unique_per_season_stage"
            ),
            models.CheckConstraint(
                condition=Q(stage="playoff", table__in=list(vocabulary.PLAYOFF_TABLES))
                | (~Q(stage="playoff") & Q(table="")),
                name="round_table_only_for_playoffs",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self):
        if self.stage == self.PLAYOFF:
            return f"{self.season} — play-off table {self.table} (manche {self.number})"
        if self.stage == self.FINAL:
            return f"{self.season} — finale (manche {self.number})"
        return f"{self.season} — manche {self.number}"

    def get_absolute_url(self):
        return reverse("championship:round", args=[self.pk])

    @property
    def is_homologated(self):
        return self.status == self.HOMOLOGATED


class Seat(models.Model):
    round = models.ForeignKey(Round, verbose_name=_("manche"), on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(
        Player, verbose_name=_("joueur"), on_delete=models.PROTECT, related_name="seats"
    )
    position = models.PositiveSmallIntegerField(_("place à table"))
    colour = models.CharField(_("couleur des jetons"), max_length=10, choices=COLOURS, blank=True)
    total = models.IntegerField(_("total de la manche"), null=True, blank=True)
    rank = models.PositiveSmallIntegerField(_("rang dans la manche"), null=True, blank=True)
    tied = models.BooleanField(_("ex æquo"), default=False)
    # The player's championship points from this round (the sum of his ChampionshipLine rows),
    # kept here so that the round's history shows how a correction moved them; None while the
    # round does not count (not homologated, play-off, final).
    championship_points = models.IntegerField(_("points de championnat"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "position"]
        verbose_name = _("place")
        verbose_name_plural = _("places")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.UniqueConstraint(fields=["round", "position"], name="seat_position_once_per_round"),
            models.UniqueConstraint(
                fields=["round", "colour"], condition=~Q(colour=""), name="seat_colour_once_per_round"
            ),
            models.CheckConstraint(
                condition=Q(position__lte=vocabulary.MAX_PLAYERS - 1), name="seat_position_at_most_5_players"
            ),
        ]

    def __str__(self):
        return f"{self.player} ({self.round})"


class Deal(models.Model):
    PLAYED, PASSED, PETIT_SEC, MISDEAL = vocabulary.KINDS
    KINDS = choices.KINDS
    CONTRACTS = choices.CONTRACTS
    SUITS = choices.SUITS
    RANKS = choices.CALLED_RANKS
    SIDES = choices.SIDES

    round = models.ForeignKey(Round, verbose_name=_("manche"), on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("numéro"))
    dealer = models.ForeignKey(Player, verbose_name=_("donneur"), on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("type"), max_length=10, choices=KINDS, default=PLAYED)
    taker = models.ForeignKey(
        Player, verbose_name=_("preneur"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    contract = models.CharField(_("contrat"), max_length=12, choices=CONTRACTS, blank=True)
    called = models.CharField(_("couleur appelée"), max_length=8, choices=SUITS, blank=True)
    called_rank = models.CharField(_("carte appelée"), max_length=4, choices=RANKS, default=vocabulary.KING)
    partner = models.ForeignKey(
        Player, verbose_name=_("appelé"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bouts = models.PositiveSmallIntegerField(_("bouts"), null=True, blank=True)
    points = models.DecimalField(
        _("points du preneur"), max_digits=3, decimal_places=1, null=True, blank=True
    )
    poignees = models.JSONField(
        _("poignées"), default=list, blank=True, help_text='[{"player": id, "size": "simple"}]'
    )
    miseres = models.JSONField(_("misères"), default=list, blank=True, help_text="[id du joueur, …]")
    petit_au_bout = models.CharField(_("petit au bout"), max_length=8, choices=SIDES, blank=True)
    chelem_announced = models.BooleanField(_("chelem annoncé"), default=False)
    chelem_made_by = models.CharField(_("chelem réalisé par"), max_length=8, choices=SIDES, blank=True)
    # Stored results, written by championship.services.rescore_round.
    unit = models.IntegerField(_("valeur de la donne"), default=0)
    made = models.BooleanField(_("contrat réussi"), null=True, blank=True)
    shares = models.JSONField(_("gains par joueur"), default=dict, blank=True)
    pot_after = models.IntegerField(_("pot après la donne"), default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("donne")
        verbose_name_plural = _("donnes")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="deal_number_unique_per_round"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=Q(kind__in=list(vocabulary.KINDS)), name="deal_kind_valid"),
            models.CheckConstraint(
                condition=Q(bouts__isnull=True) | Q(bouts__lte=3), name="deal_bouts_between_0_and_3"
            ),
            models.CheckConstraint(
                condition=Q(points__isnull=True) | (Q(points__gte=0) & Q(points__lte=91)),
                name="deal_points_between_0_and_91",
            ),
            models.CheckConstraint(
                condition=~Q(kind="played") | (Q(taker__isnull=False) & ~Q(contract="")),
                name="deal_played_has_taker_and_contract",
            ),
            models.CheckConstraint(
                condition=Q(partner__isnull=True) | ~Q(partner=models.F("taker")),
                name="deal_partner_is_not_taker",
            ),
        ]

    def __str__(self):
        return f"Donne {self.number} ({self.round})"

    def share_of(self, player_id):
        return self.shares.get(str(player_id), 0)


class Adjustment(models.Model):
    round = models.ForeignKey(
        Round, verbose_name=_("manche"), on_delete=models.CASCADE, related_name="adjustments"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("joueur"), on_delete=models.PROTECT, related_name="adjustments"
    )
    code = models.CharField(_("code"), max_length=40)
    points = models.IntegerField(_("points"))
    note = models.CharField(_("motif"), max_length=200, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("saisi par"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("saisi le"), auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "created_at", "pk"]
        verbose_name = _("bonus ou malus")
        verbose_name_plural = _("bonus et malus")

    def __str__(self):
        return f"{self.code} {signed(self.points)} — {self.player}"


class Report(models.Model):
    # A compte-rendu is one or two pages; this limit is far above that, and low enough that the
    # worst Markdown of this length (thousands of table rows or line breaks) still lays out as a
    # PDF in a few seconds (README, « Mesures »).
    TEXT_MAX_LENGTH = 10_000
    TEXT_MAX_LABEL = num(TEXT_MAX_LENGTH, group=True)  # "10 000"

    round = models.OneToOneField(
        Round, verbose_name=_("manche"), on_delete=models.CASCADE, related_name="report"
    )
    author = models.ForeignKey(
        Player, verbose_name=_("auteur"), on_delete=models.PROTECT, related_name="reports"
    )
    text = models.TextField(
        _("récit (Markdown)"),
        blank=True,
        validators=[
            validate_report_narrative,
            MaxLengthValidator(
                TEXT_MAX_LENGTH,
                message=f"Récit : {TEXT_MAX_LABEL} caractères au plus (ici %(show_value)d).",
            ),
        ],
    )
    filed_on = models.DateField(_("rendu le"), null=True, blank=True)
    updated_at = models.DateTimeField(_("modifié le"), auto_now=True)
    version = models.PositiveIntegerField(_("version"), default=1)  # as Round.version
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("compte-rendu")
        verbose_name_plural = _("comptes-rendus")

    def __str__(self):
        return f"Compte-rendu — {self.round}"

    def save(self, *args, **kwargs):
        # Whoever writes a report (a form, a sheet, a command): never one too long to render.
        self._meta.get_field("text").run_validators(self.text)
        super().save(*args, **kwargs)


class SubmissionKey(models.Model):
    """The one-time key of a submitted form: stored with what it wrote, so that the same form
    sent twice (a double tap, a resent request) stores once."""

    key = models.UUIDField(_("clé"), unique=True)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("clé d'envoi")
        verbose_name_plural = _("clés d'envoi")

    def __str__(self):
        return str(self.key)


class ChampionshipLine(models.Model):
    """One stored championship line item of a homologated regular round (docs/regles.md §5.8)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="championship_lines")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="championship_lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="championship_lines")
    code = models.CharField(_("code"), max_length=40)
    points = models.IntegerField(_("points"))
    label = models.CharField(_("libellé"), max_length=300)
    deal_number = models.PositiveSmallIntegerField(_("donne"), null=True, blank=True)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["round", "player", "order"]
        verbose_name = _("ligne de championnat")
        verbose_name_plural = _("lignes de championnat")
        indexes = [models.Index(fields=["season", "player"])]

    def __str__(self):
        return f"{self.player} {self.code} {signed(self.points)}"


class FigureToken(models.Model):
    """The token of a season's computed figures: a random value that changes, in the same
    transaction, with every write of a row those figures are computed from. Database triggers
    keep it (`championship.lib.figure_tokens`), whatever writes the row: a service, the admin, a
    restore, `loaddata`, SQL by hand. Cached figures are stored under it (`championship.lib.summaries`).
    """

    season = models.OneToOneField(Season, primary_key=True, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=32)

    class Meta:
        verbose_name = _("jeton des chiffres")
        verbose_name_plural = _("jetons des chiffres")

    def __str__(self):
        return f"{self.season_id}:{self.token}"


class Signoff(models.Model):
    """A seated player's word on a round's sheet at the end of the night: he confirms it, or
    disputes it with a comment. It is of the round's `version` he saw: once a deal changes, it
    stands as of an older version, until he signs again (one row per player, its history kept).
    The board homologates; a dispute is shown to it, it does not block it."""

    CONFIRMED, DISPUTED = "confirmed", "disputed"
    VERDICTS = [(CONFIRMED, _("confirmée")), (DISPUTED, _("contestée"))]
    COMMENT_MAX_LENGTH = 500

    round = models.ForeignKey(
        Round, verbose_name=_("manche"), on_delete=models.CASCADE, related_name="signoffs"
    )
    player = models.ForeignKey(Player, verbose_name=_("joueur"), on_delete=models.PROTECT, related_name="+")
    verdict = models.CharField(_("avis"), max_length=10, choices=VERDICTS)
    comment = models.CharField(_("commentaire"), max_length=COMMENT_MAX_LENGTH, blank=True)
    version = models.PositiveIntegerField(_("version de la manche"))
    signed_at = models.DateTimeField(_("signée le"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "signed_at", "pk"]
        verbose_name = _("avis sur la feuille")
        verbose_name_plural = _("avis sur la feuille")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="signoff_once_per_player"),
            models.CheckConstraint(
                condition=Q(verdict="confirmed") | ~Q(comment=""), name="signoff_dispute_has_comment"
            ),
        ]

    def __str__(self):
        return f"{self.player} — {self.get_verdict_display()} ({self.round}, v{self.version})"
