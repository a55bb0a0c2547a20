"""What a member chooses to receive, the record of each reminder sent (once), his phones'
push subscriptions and the outbox of his news (``News``, docs/calendrier.md, « Les nouvelles sur
le téléphone »).

A reminder is of one kind (``KINDS``) about one subject (a night for ``night``, a round for the
two report kinds), for one recipient, at one occurrence (the night's date, the report's deadline,
the started week of lateness): ``SentReminder`` holds it under a unique constraint, so that two
runs at once, or one run after another, send it once (``notifications.sending``).
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.history import HistoricalRecords
from federation.models import Player
from federation.row_outbox import OutboxRow

NIGHT, REPORT_DUE, REPORT_LATE = "night", "report_due", "report_late"
KINDS = [
    (NIGHT, _("soirée sans réponse")),
    (REPORT_DUE, _("compte-rendu bientôt dû")),
    (REPORT_LATE, _("compte-rendu en retard")),
]


# The news a member may receive, each on or off per channel (`PUSH`, `EMAIL`): (event, name,
# when, on the phone by default, by e-mail by default). The reminders' own kinds ``report_due``
# and ``report_late`` are e-mailed by the reminders' run (their fields above keep their names).
PUSH, EMAIL = "push", "email"
CHANNELS = [(PUSH, _("téléphone")), (EMAIL, _("courriel"))]
TABLE, SEAT, NIGHT_CHANGED, TO_SIGN, RESULT, PLAYOFF, SOON = (
    "table_confirmed",
    "seat",
    "night_changed",
    "to_sign",
    "round_result",
    "playoff_status",
    "night_soon",
)
EVENTS = [
    (TABLE, _("table confirmée"), _("Le quatrième « je viens » d'une soirée où vous venez."), True, False),
    (
        SEAT,
        _("votre place"),
        _("Une place libérée pour vous, ou votre rang sur la liste d'attente."),
        True,
        False,
    ),
    (NIGHT_CHANGED, _("soirée déplacée ou annulée"), _("Une soirée où vous avez répondu."), True, True),
    (
        TO_SIGN,
        _("feuille à signer"),
        _("Une feuille où vous êtes assis attend votre signature."),
        True,
        False,
    ),
    (RESULT, _("manche homologuée"), _("Votre place, vos points et votre rang au classement."), True, False),
    (REPORT_DUE, _("compte-rendu bientôt dû"), _("Deux jours avant l'échéance."), True, True),
    (
        REPORT_LATE,
        _("compte-rendu en retard"),
        _("Le lendemain de l'échéance, puis chaque semaine."),
        True,
        True,
    ),
    (PLAYOFF, _("play-offs"), _("Quand votre sort est scellé : qualifié ou éliminé."), True, False),
    (SOON, _("soirée dans deux heures"), _("Une soirée où vous avez une place."), True, False),
]
EVENT_LABELS = {code: label for code, label, *_rest in EVENTS}


def field_name(event, channel):
    """The `ReminderPreference` field of `event` on `channel`."""
    if channel == EMAIL and event in (REPORT_DUE, REPORT_LATE):
        return event
    return f"{channel}_{event}"


def choice_fields():
    """The (field name, default) of every event on every channel."""
    found = []
    for code, _label, _help, push, email in EVENTS:
        found += [(field_name(code, PUSH), push), (field_name(code, EMAIL), email)]
    return found


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
    # The news, on the phone (push_…) and by e-mail (email_…): `EVENTS`.
    push_table_confirmed = models.BooleanField(_("table confirmée (téléphone)"), default=True)
    email_table_confirmed = models.BooleanField(_("table confirmée (courriel)"), default=False)
    push_seat = models.BooleanField(_("votre place (téléphone)"), default=True)
    email_seat = models.BooleanField(_("votre place (courriel)"), default=False)
    push_night_changed = models.BooleanField(_("soirée déplacée ou annulée (téléphone)"), default=True)
    email_night_changed = models.BooleanField(_("soirée déplacée ou annulée (courriel)"), default=True)
    push_to_sign = models.BooleanField(_("feuille à signer (téléphone)"), default=True)
    email_to_sign = models.BooleanField(_("feuille à signer (courriel)"), default=False)
    push_round_result = models.BooleanField(_("manche homologuée (téléphone)"), default=True)
    email_round_result = models.BooleanField(_("manche homologuée (courriel)"), default=False)
    push_report_due = models.BooleanField(_("compte-rendu bientôt dû (téléphone)"), default=True)
    push_report_late = models.BooleanField(_("compte-rendu en retard (téléphone)"), default=True)
    push_playoff_status = models.BooleanField(_("play-offs (téléphone)"), default=True)
    email_playoff_status = models.BooleanField(_("play-offs (courriel)"), default=False)
    push_night_soon = models.BooleanField(_("soirée dans deux heures (téléphone)"), default=True)
    email_night_soon = models.BooleanField(_("soirée dans deux heures (courriel)"), default=False)
    language = models.CharField(
        _("langue des courriels"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("choix de rappels")
        verbose_name_plural = _("choix de rappels")

    def __str__(self):
        return str(self.player)

    def wants(self, kind, channel=EMAIL):
        if kind == NIGHT:
            return self.night
        return getattr(self, field_name(kind, channel))


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


class PushSubscription(models.Model):
    """A phone (a browser) that receives its member's news: the push service's address and the
    keys that encrypt for it, as the browser gave them (RFC 8030, 8291). The address is a secret
    (whoever holds it with the keys can push to the phone): shown and logged by its host only
    (`host`). Deleted with its account (``on_delete``); a push service that answers 404 or 410
    has forgotten it, and it is deleted then (`notifications.push`)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("compte utilisateur"),
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    endpoint = models.URLField(_("adresse du service de notifications"), max_length=1000, unique=True)
    p256dh = models.CharField(_("clé publique du téléphone"), max_length=100)
    auth = models.CharField(_("secret d'authentification"), max_length=40)
    label = models.CharField(_("téléphone"), max_length=80, blank=True)
    created_at = models.DateTimeField(_("ajouté le"), default=timezone.now)
    last_sent_at = models.DateTimeField(_("dernière nouvelle reçue le"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("téléphone abonné")
        verbose_name_plural = _("téléphones abonnés")

    def __str__(self):
        return f"{self.label or self.host} ({self.user})"

    @property
    def host(self):
        return urlsplit(self.endpoint).hostname or "?"


class News(OutboxRow):
    """One piece of news (`event`, about the object `subject_id`) to one member on one channel:
    one of his phones (`subscription`) or his e-mail (`target` « email »). Written in the act's
    transaction, under a unique key per member, target and news, so that the same news is
    written once (an act repeated, a signal sent twice, two runs of the planner at once); sent by
    `notifications.news.outbox`, each row claimed first. Its message (title, text, link, in the
    member's language) is composed when first claimed and kept in `message`, the same at every
    attempt."""

    recipient = models.ForeignKey(
        Player, verbose_name=_("destinataire"), on_delete=models.CASCADE, related_name="+"
    )
    channel = models.CharField(_("canal"), max_length=8, choices=CHANNELS)
    subscription = models.ForeignKey(
        PushSubscription,
        verbose_name=_("téléphone"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="news",
    )
    target = models.CharField(_("destination"), max_length=20)  # "email" or "push:<subscription pk>"
    key = models.CharField(_("clé de la nouvelle"), max_length=80)
    event = models.CharField(_("évènement"), max_length=20)
    subject_id = models.PositiveBigIntegerField(_("objet"))
    facts = models.JSONField(_("faits"), default=dict, blank=True)
    message = models.JSONField(_("message envoyé"), default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("nouvelle")
        verbose_name_plural = _("nouvelles")
        constraints = [
            models.UniqueConstraint(fields=["recipient", "target", "key"], name="news_once_per_target")
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="news_due")]

    def __str__(self):
        return f"{self.event} → {self.recipient} ({self.get_channel_display()})"
