"""``manage.py send_reminders [--dry-run] [--today YYYY-MM-DD]``: the reminders of the day by
e-mail, each once (notifications.sending); run by cron (docs/exploitation.md)."""

import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from notifications import plan, sending
from notifications.models import KINDS

LABELS = dict(KINDS)


def day(value):
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--today : « {value} » n'est pas une date AAAA-MM-JJ.") from None


class Command(BaseCommand):
    help = "Envoie les rappels du jour par courriel (soirées sans réponse, comptes-rendus dus et en retard)."
    requires_system_checks = []  # docs/exploitation.md, « Les vérifications de Django »

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Liste les rappels sans rien envoyer ni enregistrer."
        )
        parser.add_argument("--today", help="Le jour du calcul, AAAA-MM-JJ (par défaut : aujourd'hui).")

    def describe(self, reminder, prefix=""):
        player = reminder.recipient
        self.stdout.write(
            f"{prefix}{LABELS[reminder.kind]} → {player} <{player.user.email}> : {reminder.why}"
        )

    def handle(self, *args, dry_run=False, today=None, **options):
        today = day(today) if today else timezone.localdate()
        if dry_run:
            to_send, already_sent = sending.pending(plan.reminders(today))
            for reminder in to_send:
                self.describe(reminder, "à envoyer : ")
            self.stdout.write(
                f"{len(to_send)} rappel(s) à envoyer le {today:%d/%m/%Y}, {len(already_sent)} déjà envoyé(s)"
                " (essai : rien d'envoyé)."
            )
            return
        outcome = sending.send_reminders(today)
        for reminder in outcome.queued:
            self.describe(reminder, "envoyé : ")
        self.stdout.write(f"{outcome.sent} rappel(s) envoyé(s), {len(outcome.already_sent)} déjà envoyé(s).")
        if not outcome.finished:
            raise CommandError("Des courriels n'ont pas fini de partir en 5 minutes.")
        if outcome.failed:
            raise CommandError(
                f"{len(outcome.failed)} courriel(s) non envoyé(s) : ils partiront au prochain passage."
            )
