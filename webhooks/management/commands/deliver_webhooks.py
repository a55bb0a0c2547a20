"""`python manage.py deliver_webhooks`: post the announcements due (new ones a background
thread missed, failed ones whose next attempt has come, stuck ones « en cours d'envoi » long
after their claim), each claimed first so that two runs never post one at once. A row whose
sending raises is logged and left to the next run, the others sent all the same; the command
then ends in error (for cron's mail). For cron, every minute or five (docs/exploitation.md)."""

from django.core.management.base import BaseCommand, CommandError

from webhooks import delivery
from webhooks.models import Delivery


class Command(BaseCommand):
    help = "Envoie les annonces dues aux webhooks (nouvelles, à réessayer ou bloquées)."
    requires_system_checks = []  # docs/exploitation.md, « Les vérifications de Django »

    def handle(self, *args, **options):
        results = delivery.deliver_all(delivery.due())
        sent = results.count(Delivery.DELIVERED)
        later = results.count(Delivery.PENDING)
        failed = results.count(Delivery.FAILED)
        self.stdout.write(f"{sent} livrée(s), {later} à réessayer, {failed} abandonnée(s).")
        errors = results.count(delivery.ERROR)
        if errors:
            raise CommandError(f"{errors} annonce(s) en erreur : voir le journal (logger webhooks).")
