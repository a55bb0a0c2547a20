"""The acts announced to the group chat, turned into outbox rows inside the act's transaction
(`webhooks.delivery.write`): the signals of `championship.signals` and `gamenights.signals`."""

from django.dispatch import receiver

from championship import signals as championship_signals
from gamenights import schedule
from gamenights import signals as gamenight_signals
from webhooks import announcements, delivery


@receiver(championship_signals.round_homologated, dispatch_uid="webhooks-round")
def round_homologated(sender, round, **kwargs):
    delivery.write(announcements.homologated(round))


@receiver(championship_signals.report_published, dispatch_uid="webhooks-report")
def report_published(sender, report, **kwargs):
    delivery.write(announcements.published(report))


@receiver(gamenight_signals.table_confirmed, dispatch_uid="webhooks-table")
def table_confirmed(sender, night, **kwargs):
    coming = [rsvp.player.name for rsvp in schedule.answers(night).yes]  # the active players'
    delivery.write(announcements.confirmed(night, coming))


@receiver(gamenight_signals.night_changed, dispatch_uid="webhooks-night")
def night_changed(sender, night, change, **kwargs):
    if change == gamenight_signals.CANCELLED:
        record = night.history.order_by("-history_date").first()
        delivery.write(announcements.cancelled(night, record.history_change_reason if record else ""))
    else:
        delivery.write(announcements.moved(night))
