"""Which reminders are due on a day (notifications.plan), on hand-built dates."""

import datetime

from championship import services as championship_services
from championship.models import Round
from federation.models import Player
from gamenights.services import answer, cancel_night
from notifications.models import NIGHT, REPORT_DUE, REPORT_LATE
from notifications.plan import reminders
from notifications.services import set_preferences
from tests.factories import make_round

from .conftest import DEADLINE, NIGHT_DATE, with_account

DAY = datetime.timedelta(days=1)


def planned(today, kind=None):
    return sorted(
        (r.kind, r.recipient.name, r.occurrence) for r in reminders(today) if kind is None or r.kind == kind
    )


def test_a_night_is_reminded_three_days_ahead_to_who_has_not_answered(night, members):
    answer(night, members["Alice"], "yes", on_behalf=True)
    answer(night, members["Bruno"], "no", on_behalf=True)
    assert planned(NIGHT_DATE - 4 * DAY, NIGHT) == []
    expected = [(NIGHT, name, "2010-12-10") for name in ["Chloé", "David", "Émile"]]
    assert planned(NIGHT_DATE - 3 * DAY, NIGHT) == expected
    assert planned(NIGHT_DATE, NIGHT) == expected  # a run missed: still reminded, up to the night
    assert planned(NIGHT_DATE + DAY, NIGHT) == []


def test_a_night_reminder_leaves_out_who_cannot_get_it_or_answer(night, members, season):
    Player.objects.create(name="Sans Compte")  # no account
    with_account(Player.objects.create(name="Sans Adresse"), email="")
    gone = members["David"]
    gone.active = False
    gone.save()
    names = [name for _kind, name, _on in planned(NIGHT_DATE - 3 * DAY, NIGHT)]
    assert names == ["Alice", "Bruno", "Chloé", "Émile"]
    cancel_night(night, reason="salle fermée")
    assert planned(NIGHT_DATE - 3 * DAY, NIGHT) == []


def test_a_night_moved_is_reminded_for_its_new_date(night, members):
    from gamenights.services import change_night  # noqa: PLC0415

    change_night(night, date=NIGHT_DATE + 7 * DAY, reason="décalée")
    assert planned(NIGHT_DATE - 3 * DAY, NIGHT) == []
    assert {on for _k, _n, on in planned(NIGHT_DATE + 4 * DAY, NIGHT)} == {"2010-12-17"}


def test_a_report_is_reminded_to_its_author_two_days_before_its_deadline(homologated):
    assert planned(DEADLINE - 3 * DAY) == []
    assert planned(DEADLINE - 2 * DAY) == [(REPORT_DUE, "Bruno", "2010-11-26")]
    assert planned(DEADLINE) == [(REPORT_DUE, "Bruno", "2010-11-26")]  # still on time that day


def test_a_filed_report_is_not_reminded(homologated, members):
    championship_services.save_report(
        homologated, "Belle soirée.", author=members["Bruno"], filed_on=DEADLINE - 3 * DAY
    )
    assert planned(DEADLINE - 2 * DAY) == []
    assert planned(DEADLINE + DAY) == []


def test_an_overdue_report_is_reminded_the_day_after_then_each_week_the_malus_grows(homologated):
    assert planned(DEADLINE + DAY) == [(REPORT_LATE, "Bruno", "semaine-1")]
    assert planned(DEADLINE + 7 * DAY) == [(REPORT_LATE, "Bruno", "semaine-1")]  # the same week
    assert planned(DEADLINE + 8 * DAY) == [(REPORT_LATE, "Bruno", "semaine-2")]
    assert planned(DEADLINE + 15 * DAY) == [(REPORT_LATE, "Bruno", "semaine-3")]
    late = [r for r in reminders(DEADLINE + 8 * DAY)][0]
    assert late.facts["malus"] == 2  # two started weeks at -1 (the default rulebook)
    assert late.facts["next_step"] == DEADLINE + 15 * DAY


def test_the_weekly_reminders_stop_when_the_malus_stops_growing(season, members):
    submitted = make_round(season, status=Round.SUBMITTED, date=datetime.date(2010, 11, 19))
    assert submitted.status == Round.SUBMITTED  # a round not homologated costs no malus
    assert planned(DEADLINE + DAY) == [(REPORT_LATE, "Bruno", "semaine-1")]
    assert planned(DEADLINE + 8 * DAY) == []


def test_lateness_stops_with_the_season(season, homologated):
    season.end_date = DEADLINE + 10 * DAY  # counted up to the season's end: week 2 at most
    season.save()
    assert planned(DEADLINE + 30 * DAY) == [(REPORT_LATE, "Bruno", "semaine-2")]


def test_a_member_who_turned_a_kind_off_is_left_out(night, homologated, members):
    set_preferences(members["Chloé"], night=False)
    set_preferences(members["Bruno"], report_due=False)
    names = [name for _kind, name, _on in planned(NIGHT_DATE - 3 * DAY, NIGHT)]
    assert "Chloé" not in names and "Bruno" in names
    assert planned(DEADLINE - 2 * DAY, REPORT_DUE) == []
    assert planned(DEADLINE + DAY, REPORT_LATE) == [(REPORT_LATE, "Bruno", "semaine-1")]
