"""The competition's bounds, declared once for every path that stores what a person typed or a
file gave (the entry forms, the sheet and its schema, the services): each fits what the database
holds (PostgreSQL `integer` is 32-bit, `smallint` 16-bit) and what a game night makes sense of.
Each rule returns the French message of what is wrong, without the field's name, or None
(`federation.validators` names the field)."""

from django.utils.translation import gettext

from federation.validators import Bounds

ROUND_NUMBER = Bounds(1, 999)  # a season plays about forty rounds
DEAL_NUMBER = Bounds(1, 200)  # a long night deals about sixty times
ROUND_TOTAL = Bounds(-1_000_000, 1_000_000)  # a night's total is a few thousand points
ADJUSTMENT_POINTS = Bounds(-100, 100)  # a whole season is worth a few hundred championship points


def round_date_problem(date, season_name, start, end):
    """A round is played within its season."""
    if not start <= date <= end:
        return gettext("le %(date)s n'est pas dans la saison %(season)s (du %(start)s au %(end)s)") % {
            "date": f"{date:%d/%m/%Y}",
            "season": season_name,
            "start": f"{start:%d/%m/%Y}",
            "end": f"{end:%d/%m/%Y}",
        }
    return None


def deal_number_problem(number):
    if number > DEAL_NUMBER.high:
        return gettext("une manche compte au plus %(count)s donnes") % {"count": DEAL_NUMBER.high}
    return None
