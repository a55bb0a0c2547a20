"""The demo's calendar: a night for each round already played, ten regular nights to come (one
a week, within the season), answers to the next two, a cancelled one."""

import datetime

from gamenights import services
from gamenights.models import Rsvp

UPCOMING = 10
REASON = "fédération de démonstration"


def schedule_demo_nights(season, players, places, *, user=None, today=None):
    """`players`: {name: Player}; `places`: the demo's places, in turn."""
    today = today or datetime.date.today()
    for round_ in season.rounds.order_by("date"):
        services.schedule_night(season, date=round_.date, place=round_.place, user=user, reason=REASON)
    names = sorted(players)
    first = today + datetime.timedelta(days=(4 - today.weekday()) % 7 or 7)  # the next Friday
    nights = []
    for week in range(UPCOMING):
        date = first + datetime.timedelta(weeks=week)
        if date > season.end_date:
            break
        host = players[names[week % len(names)]]
        nights.append(
            services.schedule_night(
                season, date=date, place=places[week % len(places)], host=host, user=user, reason=REASON
            )
        )
    if len(nights) >= 2:
        for name in names[:6]:
            services.answer(nights[0], players[name], Rsvp.YES)
        services.answer(nights[0], players[names[6]], Rsvp.NO, reason="en déplacement")
        services.answer(nights[0], players[names[7]], Rsvp.MAYBE)
        for name in names[3:6]:
            services.answer(nights[1], players[name], Rsvp.YES)
    if nights and nights[-1].date + datetime.timedelta(days=3) <= season.end_date:
        extra = services.schedule_night(season, date=nights[-1].date + datetime.timedelta(days=3), user=user)
        services.cancel_night(extra, reason="salle indisponible", user=user)
    return nights
