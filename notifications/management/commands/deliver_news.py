"""`python manage.py deliver_news`: the members' news due (docs/exploitation.md, « Les nouvelles
sur le téléphone »). First the news of the clock (`notifications.clock`: a night within two
hours, the reports due and overdue on the phone, the play-off statuses settled), then every row
due (new ones a background thread missed, failed ones whose next attempt has come, stuck ones),
each claimed first so that two runs never send one twice. For cron, every five minutes."""

from django.core.management.base import BaseCommand, CommandError

from federation.row_outbox import ERROR, FORGOTTEN, OutboxRow
from notifications import clock, news


class Command(BaseCommand):
    help = "Envoie les nouvelles des membres (téléphones et courriels) : celles de l'heure, puis les dues."
    requires_system_checks = []  # docs/exploitation.md, « Les vérifications de Django »

    def add_arguments(self, parser):
        parser.add_argument(
            "--no-clock", action="store_true", help="N'écrit pas les nouvelles de l'heure ; envoie les dues."
        )

    def handle(self, *args, **options):
        failed_steps = []
        if not options["no_clock"]:
            for step in (clock.night_soon, clock.report_news, clock.open_seasons_playoff_news):
                try:
                    step()
                except Exception:  # one step's failure never keeps the others, nor the sending
                    news.logger.exception("nouvelles de l'heure : %s en erreur", step.__name__)
                    failed_steps.append(step.__name__)
        results = news.outbox.deliver_all(news.outbox.due())
        sent = results.count(OutboxRow.DELIVERED)
        later = results.count(OutboxRow.PENDING)
        failed = results.count(OutboxRow.FAILED)
        gone = results.count(FORGOTTEN)
        self.stdout.write(
            f"{sent} envoyée(s), {later} à réessayer, {failed} abandonnée(s), {gone} téléphone(s) oublié(s)."
        )
        errors = results.count(ERROR)
        if failed_steps:
            raise CommandError(
                f"Nouvelles de l'heure en erreur ({', '.join(failed_steps)}) : voir le journal."
            )
        if errors:
            raise CommandError(
                f"{errors} nouvelle(s) en erreur : voir le journal (logger notifications.news)."
            )
