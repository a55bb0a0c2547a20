"""What a member chooses to receive, and the record of each reminder sent (once).

A reminder is of one kind (``KINDS``) about one subject (a night for ``night``, a round for the
two report kinds), for one recipient, at one occurrence (the night's date, the report's deadline,
the started week of lateness): ``SentReminder`` holds it under a unique constraint, so that two
runs at once, or one run after another, send it once (``notifications.sending``).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from federation.models import Player

NIGHT, REPORT_DUE, REPORT_LATE = "night", "report_due", "report_late"
KINDS = [
    (NIGHT, _("soirée sans réponse")),
    (REPORT_DUE, _("compte-rendu bientôt dû")),
    (REPORT_LATE, _("compte-rendu en retard")),
]


class ReminderPreference(models.Model):
    """A member's choice of reminders (one field per kind, named as the kind; all on by default)
    and the language of his e-mails. A member without a row gets every reminder, in French."""

    player = models.OneToOneField(
        Player, verbose_name=_("joueur"), on_delete=models.CASCADE, related_name="reminder_preference"
    )
    night = models.BooleanField(
        _("soirée sans réponse"),
        default=True,
        help_text=_("Trois jours avant une soirée à laquelle vous n'avez pas répondu."),
    )
    report_due = models.BooleanField(
        _("compte-rendu bientôt dû"),
        default=True,
        help_text=_("Deux jours avant l'échéance d'un compte-rendu que vous devez écrire."),
    )
    report_late = models.BooleanField(
        _("compte-rendu en retard"),
        default=True,
        help_text=_("Le lendemain de l'échéance, puis chaque semaine tant que le malus augmente."),
    )
    language = models.CharField(
        _("langue des courriels"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("choix de rappels")
        verbose_name_plural = _("choix de rappels")

    def __str__(self):
        return str(self.player)

    def wants(self, kind):
        return getattr(self, kind)


class SentReminder(models.Model):
    kind = models.CharField(_("rappel"), max_length=12, choices=KINDS)
    # The night (kind ``night``) or the round (the report kinds) the reminder is about.
    subject_id = models.PositiveBigIntegerField(_("objet"))
    recipient = models.ForeignKey(
        Player, verbose_name=_("destinataire"), on_delete=models.CASCADE, related_name="+"
    )
    occurrence = models.CharField(_("occurrence"), max_length=20)
    sent_at = models.DateTimeField(_("envoyé le"), default=timezone.now)

    class Meta:
        ordering = ["sent_at", "pk"]
        verbose_name = _("rappel envoyé")
        verbose_name_plural = _("rappels envoyés")
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "subject_id", "recipient", "occurrence"], name="reminder_sent_once"
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()} — {self.recipient} ({self.occurrence})"


class EmailChange(models.Model):
    """A member's request for a new e-mail address, and its confirmation: the history of the
    addresses of an account changed by its holder (the User model keeps none). ``previous`` is
    the account's address when he asked; ``address`` becomes his only once he opens the link
    mailed to it (``confirmed_at``; notifications.links, docs/comptes.md). An address entered by
    the board in the administration is in the administration's own history of the account."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("compte utilisateur"),
        on_delete=models.CASCADE,
        related_name="email_changes",
    )
    previous = models.EmailField(_("adresse précédente"), blank=True)
    address = models.EmailField(_("nouvelle adresse"))
    requested_at = models.DateTimeField(_("demandée le"), default=timezone.now)
    confirmed_at = models.DateTimeField(_("confirmée le"), null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("changement d'adresse électronique")
        verbose_name_plural = _("changements d'adresse électronique")

    def __str__(self):
        return f"{self.user} : {self.previous or '—'} → {self.address}"
