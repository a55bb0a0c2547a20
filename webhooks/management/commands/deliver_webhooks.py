"""`python manage.py deliver_webhooks`: post the announcements due (new ones a background
thread missed, failed ones whose next attempt has come), each claimed first so that two runs
never post one twice. For cron, every minute or five (docs/exploitation.md)."""

from django.core.management.base import BaseCommand

from webhooks import delivery
from webhooks.models import Delivery


class Command(BaseCommand):
    help = "Envoie les annonces dues aux webhooks (nouvelles ou à réessayer)."

    def handle(self, *args, **options):
        results = delivery.deliver_all(delivery.due())
        sent = results.count(Delivery.DELIVERED)
        later = results.count(Delivery.PENDING)
        failed = results.count(Delivery.FAILED)
        self.stdout.write(f"{sent} livrée(s), {later} à réessayer, {failed} abandonnée(s).")
