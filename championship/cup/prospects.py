"""The play-off outlook in the page's language (docs/regles.md §6.4): the compact table's cells,
each player's « détail » and the JSON of the qualification page.

In French the words are those of `scoring.outlook.french` (the `cup` command writes the same);
in English they are this module's. A place is counted from 1; ``None`` for a best place: never
ranked; ``None`` for a worst place: may end unranked.
"""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext, ngettext

from championship.labels import english_ordinal, french_active
from scoring.outlook import french
from scoring.outlook.season import ELIMINATED, IN_CONTENTION, QUALIFIED

STATUS_CODES = (QUALIFIED, IN_CONTENTION, ELIMINATED)


def status_label(code):
    return {
        QUALIFIED: gettext("qualifié"),
        ELIMINATED: gettext("éliminé"),
        IN_CONTENTION: gettext("en course"),
    }[code]


def place_cell(places):
    """« 2–7 », « 3 », « 1–nc », « nc »: where he can still finish, as short as a phone's
    table wants it (« nc »: non classé; the « détail » says it in words)."""
    unranked = gettext("nc")
    if places.best is None:
        return unranked
    if places.worst is None:
        return f"{places.best}–{unranked}"
    if places.best == places.worst:
        return str(places.best)
    return f"{places.best}–{places.worst}"


def need_cell(need):
    """« 17 pts », « hors d'atteinte », « — » (nothing: his place is certain at the table's
    play): what his rounds must bring, at the table's play."""
    if need.needed is None:
        return "—"
    if not need.reachable:
        return gettext("hors d'atteinte")
    return ngettext("%(count)s pt", "%(count)s pts", need.needed) % {"count": need.needed}


def _range(places):
    if french_active():
        return french.place_range(places)
    if places.best is None:
        return "never ranked"
    if places.worst is None:
        return f"between {english_ordinal(places.best)} place and unranked"
    if places.best == places.worst:
        return f"{english_ordinal(places.best)} place"
    return f"between {english_ordinal(places.best)} and {english_ordinal(places.worst)} place"


def in_places(example):
    """« une victoire et une 2e place » / « one win and a 2nd place »."""
    if french_active():
        return french.in_places(example)
    sizes = {size for _place, size in example}
    parts = []
    for (place, size), n in sorted(Counter(example).items()):
        if place == 1:
            text = ngettext("%(count)s win", "%(count)s wins", n) % {"count": n}
        else:
            text = f"{n} × {english_ordinal(place)} place"
        if len(sizes) > 1 or size != 5:
            text += f" (table of {size})"
        parts.append(text)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def need_sentence(need, table=None):
    """What his remaining rounds must bring him, at the table's play, for a certain place
    (``table``: his places at the table's play, to say when he can no longer be ranked)."""
    if table is not None and table.best is None:
        return gettext("il ne peut plus jouer assez de manches pour être classé")
    if french_active():
        return french.need_text(need)
    if need.needed is None:
        return "place certain at the table's play, whatever his places"
    if need.example is None:
        return (
            f"even winning every round he can play ({need.most} points) would not make his place "
            f"certain ({need.needed} would be needed)"
        )
    return f"{need.needed} points: for example {in_places(need.example)}"


def detail(prospect):
    """The « détail » of a player: ``[(label, sentence)]``, the certain answer first (his status
    is said beside it, by `status_label`)."""
    certain, table = prospect.certain, prospect.table
    return [
        (gettext("Quoi qu'il arrive"), _range(certain)),
        (gettext("Au jeu de la table"), _range(table)),
        (gettext("Pour être sûr d'une place"), need_sentence(prospect.need, table)),
    ]


def places_json(places):
    return {"status": places.status, "best": places.best, "worst": places.worst}


def prospect_json(row):
    """One player of the qualification page's JSON: both answers and what he needs."""
    prospect = row.prospect
    need = prospect.need
    return {
        "player": row.player.name,
        "points": row.season.points,
        "rounds": row.season.rounds,
        "status": row.status.code,
        "certain": places_json(prospect.certain),
        "table": places_json(prospect.table),
        "need": {
            "needed": need.needed,
            "least": need.least,
            "most": need.most,
            "reachable": need.reachable,
            "example": [{"place": place, "table": size} for place, size in need.example or ()],
        },
    }
