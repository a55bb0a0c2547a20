"""The outlook in French (docs/regles.md §6.4): statuses, places, and what a player needs in
places a member understands.

>>> from scoring.outlook.season import Need, Places
>>> in_places(((1, 5), (2, 5)))
'une victoire et une 2e place'
>>> need_text(Need(17, 0, 50, ((1, 5), (2, 5))))
'17 points : par exemple une victoire et une 2e place'
>>> place_range(Places(2, 7, 10))
'entre la 2e et la 7e place'
"""

from __future__ import annotations

from collections import Counter

from scoring.french import num, ordinal, plural
from scoring.outlook.season import ELIMINATED, QUALIFIED, Need, Places, Prospect

STATUS = {QUALIFIED: "qualifié", ELIMINATED: "éliminé"}
_WORDS = {1: "une", 2: "deux", 3: "trois", 4: "quatre", 5: "cinq", 6: "six", 7: "sept", 8: "huit", 9: "neuf"}


def status_text(places: Places) -> str:
    """« qualifié », « éliminé » or « en course »."""
    return STATUS.get(places.status, "en course")


def _place(place: int, *, feminine: bool = True) -> str:
    return f"la {ordinal(place, feminine=feminine)} place"


def place_range(places: Places) -> str:
    """Where he can still finish: « à la 3e place », « entre la 2e et la 7e place », « entre la
    2e place et hors du classement », « jamais classé »."""
    if places.best is None:
        return "jamais classé"
    if places.worst is None:
        return f"entre {_place(places.best)} et hors du classement"
    if places.best == places.worst:
        return f"à {_place(places.best)}"
    return f"entre la {ordinal(places.best, feminine=True)} et {_place(places.worst)}"


def _count(n: int, singular: str, plural_form: str) -> str:
    return f"{_WORDS.get(n, num(n))} {singular if n == 1 else plural_form}"


def in_places(example) -> str:
    """« une victoire et une 2e place », « deux victoires et une 4e place à une table de 4 »."""
    parts = []
    counts = Counter(example)
    sizes = {size for _place, size in example}
    for (place, size), n in sorted(counts.items()):
        if place == 1:
            text = _count(n, "victoire", "victoires")
        else:
            text = _count(n, f"{ordinal(place, feminine=True)} place", f"{ordinal(place)}s places")
        if len(sizes) > 1 or size != 5:
            text += f" à {'une table' if n == 1 else 'des tables'} de {size}"
        parts.append(text)
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " et " + parts[-1]


def need_text(need: Need) -> str:
    """What his remaining rounds must bring him, at the table's play, for a certain place."""
    if need.needed is None:
        return "place assurée au jeu de la table, quelles que soient ses places"
    if not need.exact:
        if need.example is None:
            return "ce qu'il lui faut n'a pas pu être calculé à temps"
        return (
            f"{plural(need.needed, 'point')} suffisent (par exemple {in_places(need.example)}), "
            "peut-être moins : le calcul exact n'a pas abouti à temps"
        )
    if need.example is None:
        return (
            f"même en gagnant toutes les manches qu'il peut jouer ({plural(need.most, 'point')}), "
            f"sa place ne serait pas assurée (il en faudrait {num(need.needed)})"
        )
    return f"{plural(need.needed, 'point')} : par exemple {in_places(need.example)}"


def sentence(prospect: Prospect) -> str:
    """The player's detail in one sentence, named, no agreement with him."""
    certain, table = prospect.certain, prospect.table
    return (
        f"{prospect.player} : {status_text(certain)}, {place_range(certain)} quoi qu'il arrive ; "
        f"au jeu de la table, {place_range(table)} ; {need_text(prospect.need)}"
    )
