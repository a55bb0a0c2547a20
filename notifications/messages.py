"""The words of a member's news (`News`): a short title, one or two sentences and the link of the
page they speak of, in the member's language (``ReminderPreference.language``), composed when the
row is first sent (off the request: the ranking's move is read then, `season_standings` cached);
and the same as a plain-text e-mail for the e-mail channel.

`compose` returns {} when there is nothing left to say (the night or the round is gone)."""

import datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

from championship.labels import colon, english_ordinal, french_active, written_date
from championship.models import Round
from championship.rounds.display import round_title
from championship.standings.season import season_standings
from federation.addresses import absolute
from federation.models import Season
from federation.row_outbox import Result
from gamenights.models import GameNight
from gamenights.signals import CANCELLED
from notifications.models import (
    NIGHT_CHANGED,
    PLAYOFF,
    REPORT_DUE,
    REPORT_LATE,
    RESULT,
    SEAT,
    SOON,
    TABLE,
    TO_SIGN,
    ReminderPreference,
)
from scoring import french
from scoring.outlook.season import QUALIFIED


def language_of(player_pk):
    """The language of `player_pk`'s news (his e-mails'), French by default."""
    found = ReminderPreference.objects.filter(player_id=player_pk).values_list("language", flat=True).first()
    return found or settings.LANGUAGE_CODE


def rank(value):
    return french.ordinal(value) if french_active() else english_ordinal(value)


def when(night):
    """« mardi 3 mars à 20 h 30, Le Bistrot » / « Tuesday 3 March at 20:30, Le Bistrot »."""
    words = gettext("%(date)s à %(time)s") % {
        "date": written_date(night.date, "l j F"),
        "time": night.time.strftime("%H h %M" if french_active() else "%H:%M"),
    }
    return f"{words}, {night.place}" if night.place else words


def round_words(round_):
    return f"{round_.season.name} — {round_title(round_)}"


def night_news(row, night):
    values = {"when": when(night)}
    if row.event == TABLE:
        return gettext("Table confirmée"), gettext("Soirée du %(when)s : vous êtes au moins quatre.") % values
    if row.event == SEAT:
        place = row.facts.get("place", 0)
        if place == 0:
            text = gettext("Soirée du %(when)s : une place s'est libérée pour vous.")
            return gettext("Vous avez une place"), text % values
        text = gettext("Soirée du %(when)s : vous êtes %(place)s sur la liste d'attente.")
        return gettext("Liste d'attente"), text % {**values, "place": rank(place)}
    if row.event == NIGHT_CHANGED:
        if row.facts.get("change") == CANCELLED:
            return gettext("Soirée annulée"), gettext("Celle du %(when)s n'aura pas lieu.") % values
        return gettext("Soirée déplacée"), gettext("Désormais le %(when)s.") % values
    return gettext("Soirée dans deux heures"), gettext("%(when)s.") % values


def ranking_move(round_, player_pk):
    """« Classement : 4e (▲2). » as the ranking stands now (the move when this round is the
    latest counted); « Pas encore classé. » below the minimum of rounds."""
    standings = season_standings(round_.season)
    row = next((row for row in standings.ranked if row.player.pk == player_pk), None)
    if row is None:
        return gettext("Pas encore classé.")
    move = ""
    if standings.latest_round is not None and standings.latest_round.pk == round_.pk and row.trend:
        if row.trend.code == "up":
            move = f" (▲{row.trend.change})"
        elif row.trend.code == "down":
            move = f" (▼{row.trend.change})"
    return gettext("Classement%(colon)s%(rank)s%(move)s.") % {
        "colon": colon(),
        "rank": rank(row.rank),
        "move": move,
    }


def round_news(row, round_):
    name = round_words(round_)
    if row.event == TO_SIGN:
        text = gettext("La feuille de %(round)s attend votre signature.") % {"round": name}
        return gettext("Feuille à signer"), text, reverse("championship:round_live", args=[round_.pk])
    if row.event == RESULT:
        return gettext("Manche homologuée"), result_text(row, round_, name), round_.get_absolute_url()
    edit = reverse("championship:report_edit", args=[round_.pk])
    deadline = written_date(round_report_deadline(row), "j F")
    if row.event == REPORT_DUE:
        text = gettext("Celui de %(round)s est à rendre au plus tard le %(deadline)s.")
        return gettext("Compte-rendu à rendre"), text % {"round": name, "deadline": deadline}, edit
    text = gettext("Celui de %(round)s était dû le %(deadline)s : le malus grandit chaque semaine.")
    return gettext("Compte-rendu en retard"), text % {"round": name, "deadline": deadline}, edit


def result_text(row, round_, name):
    """« 2026-2027 — Manche 4 : 2e de la table (+45), 12 points de championnat. Classement : 4e (▲2). »"""
    facts = row.facts
    values = {"round": name, "colon": colon(), "place": rank(facts.get("place") or 0)}
    values["total"] = french.signed(facts.get("total") or 0)
    text = gettext("%(round)s%(colon)s%(place)s de la table (%(total)s).") % values
    if facts.get("points") is not None:
        points = facts["points"]
        words = ngettext("%(points)s point de championnat.", "%(points)s points de championnat.", abs(points))
        text += " " + words % {"points": french.num(points)}
    move = ranking_move(round_, row.recipient_id)
    return f"{text} {move}".strip()


def round_report_deadline(row):
    return datetime.date.fromisoformat(row.facts["deadline"])


def playoff_news(row, season):
    url = reverse("championship:cup_status", args=[season.name])
    if row.facts.get("code") == QUALIFIED:
        text = gettext("Saison %(season)s : vous êtes qualifié pour les play-offs.") % {"season": season.name}
        return gettext("Qualifié !"), text, url
    text = gettext("Saison %(season)s : vous ne pouvez plus vous qualifier pour les play-offs.") % {
        "season": season.name
    }
    return gettext("Éliminé des play-offs"), text, url


def words(row):
    """(title, text, link) of `row`, in the active language; None if its object is gone."""
    if row.event in (TABLE, SEAT, NIGHT_CHANGED, SOON):
        night = GameNight.objects.select_related("season").filter(pk=row.subject_id).first()
        if night is None:
            return None
        return (*night_news(row, night), night.get_absolute_url())
    if row.event in (TO_SIGN, RESULT, REPORT_DUE, REPORT_LATE):
        round_ = Round.objects.select_related("season").filter(pk=row.subject_id).first()
        return None if round_ is None else round_news(row, round_)
    if row.event == PLAYOFF:
        season = Season.objects.filter(pk=row.subject_id).first()
        return None if season is None else playoff_news(row, season)
    return None


def compose(row):
    """{"title", "text", "url"} of `row` in its recipient's language, or {} if nothing to say."""
    with translation.override(language_of(row.recipient_id)):
        found = words(row)
    if found is None:
        return {}
    title, text, url = found
    return {"title": str(title), "text": str(text), "url": url}


def mail(row):
    """Send `row`'s message by e-mail to its recipient's address: a `Result`."""
    user = row.recipient.user
    if user is None or not user.is_active or not user.email:
        return Result("plus d'adresse électronique", retry=False)
    message = row.message
    with translation.override(language_of(row.recipient_id)):
        footer = gettext("Vos choix de nouvelles et de rappels : %(url)s") % {
            "url": absolute(reverse("notifications:account"))
        }
    body = f"{message['text']}\n\n{absolute(message['url'])}\n\n-- \n{footer}\n"
    email = EmailMessage(
        subject=f"Tarot-Bière — {message['title']}",
        body=body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={"Auto-Submitted": "auto-generated"},
    )
    try:
        email.send()
    except Exception as error:  # noqa: BLE001 — a mail server's refusal is a failure of this row
        return Result(f"courriel non envoyé ({type(error).__name__})")
    return Result()
