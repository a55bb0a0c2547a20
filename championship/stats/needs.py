"""What each player needs for the play-offs, read from the season (`scoring.needs`), on the same
bound as the play-off statuses (`championship.cup.outlook.season_outlook`: the rounds still to
count, through `championship.cup.outlook.remaining_rounds`, and what the late-report malus may
still add) and computed with them (`championship.cup.outlook.season_race`, whose needs say a
place is reachable as the statuses do), written in the page's language."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from championship.cup.outlook import season_race
from championship.labels import french_active
from scoring import needs as rules
from scoring.french import num


def season_needs(season, standings=None, outlook=None):
    """`[(Player, Need)]` of every player who may still play, in the statuses' order: computed
    with the statuses, once per state of the season (`championship.cup.outlook.season_race`)."""
    return season_race(season, standings, outlook).needs


def need_json(player, need):
    return {
        "player": player.name,
        "code": need.code,
        "remaining": need.remaining,
        "needed": need.needed,
        "least": need.least,
        "most": need.most,
        "to_play": need.to_play,
        "reachable": need.reachable,
    }


def need_text(need):
    """`scoring.needs.french` in the active language."""
    if french_active():
        return rules.french(need)
    name = need.player
    rounds = ngettext("in %(count)s round", "in %(count)s rounds", need.remaining) % {"count": need.remaining}
    play = (
        gettext(", provided they play at least %(count)s of them") % {"count": need.to_play}
        if need.to_play
        else ""
    )
    values = {"name": name, "rounds": rounds, "play": play, "most": num(need.most)}
    if need.code == rules.FINAL:
        return gettext("%(name)s: no regular round left, the final standings decide") % values
    if need.code == rules.OUT:
        if need.to_play > need.remaining:
            return gettext(
                "%(name)s: can no longer be ranked (%(to_play)s more rounds needed, %(left)s left)"
            ) % {
                **values,
                "to_play": need.to_play,
                "left": need.remaining,
            }
        return (
            gettext("%(name)s: no place within reach any more, even with %(most)s points %(rounds)s") % values
        )
    if need.code == rules.ASSURED:
        return gettext("%(name)s: place certain whatever happens") % values
    if need.code == rules.SECURE:
        if need.needed <= need.least:
            return gettext("%(name)s: place certain whatever their points %(rounds)s%(play)s") % values
        if need.needed > 0:
            return gettext("%(name)s: place certain with %(needed)s more points %(rounds)s%(play)s") % {
                **values,
                "needed": num(need.needed),
            }
        if need.needed == 0:
            return gettext("%(name)s: place certain without losing a point %(rounds)s%(play)s") % values
        return gettext("%(name)s: place certain losing no more than %(lost)s points %(rounds)s%(play)s") % {
            **values,
            "lost": num(-need.needed),
        }
    return gettext(
        "%(name)s: a place is still possible%(play)s, but not certain even at best: it would take "
        "%(needed)s points %(rounds)s to make it certain, %(most)s at most"
    ) % {**values, "needed": num(need.needed)}
