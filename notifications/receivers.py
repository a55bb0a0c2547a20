"""The acts that make news for the members concerned (`notifications.news.write`, in the act's
own transaction): the signals of `championship.signals` and `gamenights.signals`. Each reads the
recipients in one or two queries, whatever their number; what needs the ranking (the play-off
statuses settled by a homologation) is worked out after the commit, on the news' threads
(`notifications.clock.playoff_news`)."""

import time

from django.db import transaction
from django.dispatch import receiver

from championship import signals as championship_signals
from gamenights import schedule
from gamenights import signals as gamenight_signals
from notifications import clock, news
from notifications.models import NIGHT_CHANGED, RESULT, SEAT, TABLE, TO_SIGN


def seats_of(round_):
    return list(round_.seats.values_list("player_id", "rank", "total", "championship_points"))


@receiver(gamenight_signals.table_confirmed, dispatch_uid="news-table")
def table_confirmed(sender, night, **kwargs):
    coming = [rsvp.player.pk for rsvp in schedule.answers(night).yes]
    news.write(TABLE, f"table:{night.pk}:{night.sequence}", night.pk, coming)


@receiver(gamenight_signals.seating_changed, dispatch_uid="news-seat")
def seating_changed(sender, night, promoted, demoted, **kwargs):
    after = schedule.seating(night)
    places = {player.pk: 0 for player in promoted}
    places.update({player.pk: after.position(player) or 0 for player in demoted})
    # Each move is news of its own (one may wait, then be seated, then wait again).
    key = f"seat:{night.pk}:{time.time_ns()}"
    news.write(SEAT, key, night.pk, list(places), {pk: {"place": place} for pk, place in places.items()})


@receiver(gamenight_signals.night_changed, dispatch_uid="news-night")
def night_changed(sender, night, change, **kwargs):
    found = schedule.answers(night)
    answered = [rsvp.player.pk for rsvp in found.yes + found.maybe]
    facts = {pk: {"change": change} for pk in answered}
    news.write(NIGHT_CHANGED, f"night:{night.pk}:{night.sequence}", night.pk, answered, facts)


@receiver(championship_signals.round_submitted, dispatch_uid="news-sign")
def round_submitted(sender, round, **kwargs):
    players = [pk for pk, *_rest in seats_of(round)]
    news.write(TO_SIGN, f"sign:{round.pk}:{round.version}", round.pk, players)


@receiver(championship_signals.round_homologated, dispatch_uid="news-result")
def round_homologated(sender, round, **kwargs):
    seats = seats_of(round)
    facts = {pk: {"place": rank, "total": total, "points": points} for pk, rank, total, points in seats}
    news.write(RESULT, f"result:{round.pk}:{round.version}", round.pk, list(facts), facts)
    if round.stage == round.REGULAR:
        season = round.season_id
        transaction.on_commit(lambda: news.workers.send_later(clock.playoff_news_in_background, season))
