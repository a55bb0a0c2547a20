"""Every write of the calendar: schedule, change, cancel a night; answer for a member; the key
of a member's own feed. Each in one transaction, with its history record (author and reason),
the night's iCal SEQUENCE raised when what a calendar shows changes."""

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone

from championship import bounds
from championship.lib.summaries import season_written
from federation import validators
from federation.history import audited
from federation.models import Player, Season
from gamenights import cup, schedule, signals
from gamenights.models import QUORUM, FeedKey, GameNight, Rsvp

# What moves a night, for those who announce it (`signals.night_changed`).
MOVING = ("date", "time", "place")
# The fields whose change calendars must see (iCal SEQUENCE).
SHOWN = ("date", "time", "place", "cancelled", "tentative", "stage", "table")
# What the board writes of a night. Its phase is not among them: a night is regular, unless the
# cup's scheduler makes it a play-off table's or the final's (`schedule_cup_night`), and it keeps
# its phase (cancel it and schedule another).
EDITABLE = ("date", "time", "place", "host", "notes", "tentative", "answers_until")
CUP_ONLY = (
    "Phase : une soirée de play-off ou la finale se programme depuis « Soirées de la Coupe », une "
    "fois ses joueurs connus ; la phase d'une soirée ne change pas (annulez-la et programmez-en "
    "une autre)."
)


class NightError(Exception):
    """A write refused: `code` stable, `message` in French naming the field."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


def _check_date(season, date):
    problem = bounds.round_date_problem(date, season.name, season.start_date, season.end_date)
    if problem:
        raise NightError("date", validators.field_message("Date", problem))


def _outlook_may_change(night):
    """What the calendar knows of the rounds to come feeds the play-off outlook
    (docs/regles.md §6.4): once this write commits, the season's figures are warmed again
    (`championship.views.warming`), as after a write of a round."""
    if night.stage == GameNight.REGULAR:
        season_written(night.season_id)


def _saved(night, user, reason):
    _outlook_may_change(night)
    night._history_user = user if user is not None and user.is_authenticated else None
    night._change_reason = reason or ""
    night.save()
    return night


def _check_fields(fields, stage=GameNight.REGULAR, table=""):
    """`fields` among EDITABLE; a phase given must be `stage` and `table` (a regular night's, or
    the night's own): the cup's nights are made only by `schedule_cup_night`."""
    phase = (fields.pop("stage", stage), fields.pop("table", table) or "")
    if phase != (stage, table):
        raise NightError("stage", CUP_ONLY)
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise NightError("invalid", f"Champs inconnus : {', '.join(sorted(unknown))}.")


def _create(season, user, reason, **fields):
    _check_date(season, fields["date"])
    return _saved(GameNight(season=season, **fields), user, reason)


@transaction.atomic
def schedule_night(season, *, user=None, reason="", **fields):
    """A new regular night of `season` (fields among EDITABLE; a play-off table's or the final's:
    `schedule_cup_night`)."""
    _check_fields(fields)
    return _create(season, user, reason or "soirée programmée", **fields)


@transaction.atomic
def change_night(night, *, user=None, reason="", **fields):
    """Change `night` (fields among EDITABLE, its phase kept); a change a calendar shows raises
    its SEQUENCE."""
    night = GameNight.objects.select_for_update().get(pk=night.pk)
    _check_fields(fields, night.stage, night.table)
    if night.cancelled:
        raise NightError("cancelled", "Cette soirée est annulée : elle ne se modifie plus.")
    if "date" in fields:
        _check_date(night.season, fields["date"])
    changed = [name for name, value in fields.items() if getattr(night, name) != value]
    if not changed:
        return night
    for name in changed:
        setattr(night, name, fields[name])
    if set(changed) & set(SHOWN):
        night.sequence += 1
    night = _saved(night, user, reason or "soirée modifiée")
    if set(changed) & set(MOVING):
        signals.night_changed.send(sender=GameNight, night=night, change=signals.MOVED)
    return night


@transaction.atomic
def cancel_night(night, *, reason, user=None):
    night = GameNight.objects.select_for_update().get(pk=night.pk)
    if not (reason or "").strip():
        raise NightError("reason", "Motif : obligatoire pour annuler une soirée.")
    if night.cancelled:
        return night
    night.cancelled = True
    night.sequence += 1
    night = _saved(night, user, reason)
    signals.night_changed.send(sender=GameNight, night=night, change=signals.CANCELLED)
    return night


@transaction.atomic
def answer(night, player, value, *, reason="", user=None, on_behalf=False, now=None):
    """`player`'s answer to `night` (Rsvp.YES, NO or MAYBE); the member himself only until the
    night's deadline, the board (`on_behalf`) at any time and with a reason; never an inactive
    player's (`Player.active`), nor does his answer given before count toward the quorum. Sends
    `signals.table_confirmed` when it brings the night to its quorum, `signals.seating_changed`
    when it moves players between the seats and the waiting list (`schedule.seating`)."""
    night = GameNight.objects.select_for_update().get(pk=night.pk)
    if value not in dict(Rsvp.ANSWERS):
        raise NightError("answer", "Réponse : « je viens », « je ne viens pas » ou « peut-être ».")
    if night.cancelled:
        raise NightError("cancelled", "Cette soirée est annulée.")
    if not Player.objects.filter(pk=player.pk, active=True).exists():
        raise NightError(
            "inactive", f"{player.name} est inactif : un joueur inactif ne répond pas aux soirées."
        )
    if not on_behalf and not night.answers_open(now):
        raise NightError("deadline", "Les réponses à cette soirée sont closes.")
    reason = (reason or "").strip()
    if reason:
        problem = validators.text_problem(reason) or (len(reason) > 200 and "200 caractères au plus")
        if problem:
            raise NightError("reason", validators.field_message("Motif", problem))
    if value != Rsvp.NO:
        reason = ""
    rsvp = Rsvp.objects.filter(night=night, player=player).first() or Rsvp(night=night, player=player)
    if rsvp.pk and rsvp.answer == value and rsvp.reason == reason:
        return rsvp
    before = schedule.answers(night)  # the active players' (an inactive player's does not count)
    seats_before = schedule.seating(night, before)
    if not (rsvp.pk and rsvp.answer == value == Rsvp.YES):
        # A « je viens » keeps the time it was first said: it is its place for a seat.
        rsvp.answered_at = now or timezone.now()
    rsvp.answer, rsvp.reason = value, reason
    rsvp.answered_by = user if user is not None and user.is_authenticated else None
    rsvp._history_user = rsvp.answered_by
    rsvp._change_reason = "réponse donnée par la Direction" if on_behalf else "réponse du joueur"
    rsvp.save()
    after = schedule.answers(night)
    if max(len(before.yes), len(after.yes)) >= QUORUM:  # a table on: its comers are its players
        _outlook_may_change(night)
    if len(before.yes) < QUORUM <= len(after.yes):
        signals.table_confirmed.send(sender=GameNight, night=night)
    promoted, demoted = schedule.seating_changes(seats_before, schedule.seating(night, after))
    if promoted or demoted:
        signals.seating_changed.send(sender=GameNight, night=night, promoted=promoted, demoted=demoted)
    return rsvp


CUP_REASON = "soirée de la Coupe programmée"


@transaction.atomic
def schedule_cup_night(season, stage, table="", *, user=None, date, time, place=""):
    """The night of a play-off table (`table` "A" or "B") or of the final, once the cup knows
    who plays it (`gamenights.cup`); refused while not known or when already scheduled (the
    season's row locked first: two officials at once schedule it once)."""
    Season.objects.select_for_update().filter(pk=season.pk).first()
    wanted = [n for n in cup.cup_nights(season).nights if (n.stage, n.table) == (stage, table or "")]
    if not wanted:
        raise NightError("stage", "Phase : cette table de la Coupe n'existe pas dans cette saison.")
    if wanted[0].night is not None:
        raise NightError("duplicate", "Cette soirée de la Coupe est déjà programmée.")
    if not wanted[0].players:
        raise NightError(
            "seeding",
            "Coupe : les joueurs de cette soirée ne sont pas encore connus (il reste des manches "
            "régulières au calendrier ou à homologuer, ou des play-offs à jouer).",
        )
    names = ", ".join(player.name for player in wanted[0].players)
    return _create(
        season,
        user,
        CUP_REASON,
        date=date,
        time=time,
        place=place,
        stage=stage,
        table=table or "",
        notes=f"Joueurs convoqués : {names}.",
    )


# --- the key of a member's own feed (gamenights.links) ----------------------------------------------


def _new_key():
    return secrets.token_urlsafe(32)


def feed_key(player):
    """`player`'s feed key, made with his account (`gamenights.receivers`), so a page only reads
    it; made here for one who has none: two at once make one, the other reads it."""
    found = FeedKey.objects.filter(player=player).first()
    if found is not None:
        return found
    try:
        with transaction.atomic(), audited(None, "adresse du calendrier créée") as audit:
            return audit.save(FeedKey(player=player, key=_new_key()))
    except IntegrityError:  # made meanwhile by another request
        return FeedKey.objects.get(player=player)


@transaction.atomic
def renew_feed_key(player, *, user=None):
    """A new key for `player`'s feed: the address handed out before, and any signed the old way,
    no longer open (docs/calendrier.md, « L'adresse de son calendrier »)."""
    found = feed_key(player)
    found = FeedKey.objects.select_for_update().get(pk=found.pk)
    found.key = _new_key()
    found.renewed_at = timezone.now()
    with audited(user, "adresse du calendrier renouvelée") as audit:
        audit.save(found)
    return found
