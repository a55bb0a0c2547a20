"""The reasons of the Coupe du Monde (docs/regles.md §6) as data, and their French.

The cup's rules (`scoring.cup`) and its reading of the database (`championship.cup.state`) say why a
player is qualified, eliminated or in contention, out of the final or champion, as a `Reason`:
a code and the figures and names its sentence needs. `french` writes that sentence as the
`cup` command prints it and a French page shows it; a page in another language writes its own
from the same code and figures (`championship.cup.labels`), never from the French sentence.

>>> french(Reason("unranked", {"minimum": 3, "rounds": 2}))
'hors classement : moins de 3 manches (2 manches jouées)'
>>> french(Reason("final_in", {"place": 1, "places": 10}))
'Qualification assurée : 1re place du classement final, parmi les 10 places'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from scoring.french import agree, num, ordinal, plural


@dataclass(frozen=True)
class Reason:
    """Why, as a ``code`` (a key of `FRENCH`) and the ``params`` its sentence is written from:
    counts and points as integers, players by name, lists of names as tuples."""

    code: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)


def french(reason: Reason) -> str:
    """The sentence of ``reason`` in French (`scoring.french` typography)."""
    return FRENCH[reason.code](reason.params)


def french_pairs(pairs) -> list[tuple[object, str]]:
    """``[(player, sentence)]`` of ``[(player, Reason)]``: the exclusions of a plan, in French."""
    return [(player, french(reason)) for player, reason in pairs]


# --- pieces shared by several sentences ------------------------------------------------------------


def _played_as(rounds: int, adjective: str) -> str:
    """« 2 manches jouées », « 1 manche saisie »."""
    return f"{plural(rounds, 'manche')} {agree(rounds, adjective)}"


def _played(rounds: int) -> str:
    return _played_as(rounds, "jouée")


def _places(count: int) -> str:
    return plural(count, "place")


def _the_rounds(count: int) -> str:
    return "la manche restante" if count == 1 else f"les {count} manches restantes"


def _can_reach(count: int) -> str:
    if count == 0:
        return "personne ne peut l'atteindre ni l'égaler"
    if count == 1:
        return "un seul autre joueur peut l'atteindre ou l'égaler"
    return f"{count} autres joueurs au plus peuvent l'atteindre ou l'égaler"


def _final_place(p) -> str:
    """« 11e du classement final », or the tie with the last player in, decided by name."""
    if p["tied_with"] is not None:
        return (
            f"{ordinal(p['place'])} ex æquo du classement final avec {p['tied_with']}, "
            "l'ordre alphabétique les départage"
        )
    return f"{ordinal(p['place'])} du classement final"


def _seed_tie(p) -> str:
    return f"égalité départagée par la tête de série ({p['seed_above']} contre {p['seed']})"


def _cut_phrase(qualifiers: int, best_thirds: int) -> str:
    first = "seul le premier" if qualifiers == 1 else f"seuls les {qualifiers} premiers"
    thirds = ""
    if best_thirds > 0:
        label = ordinal(qualifiers + 1)
        thirds = (
            f" et le meilleur {label}" if best_thirds == 1 else f" et les {best_thirds} meilleurs {label}s"
        )
    verb = "va" if qualifiers == 1 and not thirds else "vont"
    return f"{first} de chaque table{thirds} {verb} en finale"


def _place(rank: int) -> str:
    """« la 4e place »."""
    return f"la {ordinal(rank, feminine=True)} place"


def _within(places: int) -> str:
    return "dans la seule place qualificative" if places == 1 else f"dans les {places} places qualificatives"


def _beyond(places: int) -> str:
    if places == 1:
        return "au-delà de la seule place qualificative"
    return f"au-delà des {places} places qualificatives"


def _for(places: int) -> str:
    return "pour une seule place qualificative" if places == 1 else f"pour {places} places qualificatives"


def _safe(p) -> str:
    """Qualified: his worst final place, then why (his lowest, how many can still reach it)."""
    fall = [f"{num(p['loss'])} par manche au plus sur {_the_rounds(p['remaining'])}"] if p["loss"] else []
    if p["malus"]:
        fall.append(f"{num(p['malus'])} de malus de compte-rendu en retard au plus")
    if fall:
        low = f"même au plus bas, à {num(p['worst'])} points ({' et '.join(fall)})"
    else:
        low = f"à {num(p['worst'])} points, qui ne peuvent plus baisser"
    if p["threats"] == 0:
        where = f"à {_place(1)} quoi qu'il arrive"
    else:
        where = f"au pire à {_place(p['threats'] + 1)}"
    return f"Qualification assurée : {where}, {_within(p['places'])} — {low}, {_can_reach(p['threats'])}"


def _out_of_reach(p) -> str:
    """Eliminated: his best final place, then why (his highest, how many stay ahead of it)."""
    ahead = p["ahead"]
    verb = "restera" if ahead < 2 else "resteront"
    stay = f"{plural(ahead, 'joueur')} {agree(ahead, 'classé')} {verb} devant"
    return (
        f"Hors course : au mieux à {_place(ahead + 1)}, {_beyond(p['places'])} — même au plus haut, "
        f"à {num(p['best'])} points (+{p['gain']} par manche au plus sur {_the_rounds(p['remaining'])}), "
        f"{stay}"
    )


def _in_rounds(count: int) -> str:
    return "en 1 manche" if count == 1 else f"en {count} manches"


def needed_phrase(p) -> str:
    """What the remaining rounds must bring him for his place to be certain (`scoring.needs`):
    « 12 points de plus en 3 manches lui assureraient sa place »."""
    needed, most, rounds = p["needed"], p["most"], _in_rounds(p["remaining"])
    if needed > most:
        verb = "assurerait" if most < 2 else "assureraient"
        return (
            f"même {plural(most, 'point')} {rounds}, le plus possible, ne lui {verb} pas sa place "
            f"(il en faudrait {num(needed)})"
        )
    if needed > 0:
        verb = "assurerait" if needed < 2 else "assureraient"
        return f"{plural(needed, 'point')} de plus {rounds} lui {verb} sa place"
    if needed == 0:
        return f"ne rien perdre {rounds} lui assurerait sa place"
    return f"ne pas perdre plus de {plural(-needed, 'point')} {rounds} lui assurerait sa place"


def _open(p) -> str:
    """In contention: between which final places, and what his rounds must bring him to be sure."""
    return (
        f"En course : au mieux à {_place(p['ahead'] + 1)}, au pire à la "
        f"{ordinal(p['threats'] + 1, feminine=True)}, {_for(p['places'])} ; {needed_phrase(p)}"
    )


def _final_winner(p) -> str:
    if not p["tied"]:
        return f"vainqueur de la finale (total {num(p['total'])})"
    return (
        f"vainqueur de la finale (total {num(p['total'])}, à égalité avec {', '.join(p['tied'])} : "
        f"égalité départagée par la tête de série, {p['seed']} contre {', '.join(p['tied_seeds'])})"
    )


_LATE = "malus de compte-rendu en retard à venir compris"

FRENCH: dict[str, Callable[[Mapping], str]] = {
    # seeding (scoring.cup.seed_cup): why a player is not among the seeds
    "unranked": lambda p: f"hors classement : moins de {p['minimum']} manches ({_played(p['rounds'])})",
    "no_cup": lambda p: (
        f"pas de Coupe du Monde : {plural(p['count'], 'joueur')} {agree(p['count'], 'classé')}, "
        f"il en faut au moins {p['minimum']}"
    ),
    "outside_playoffs": lambda p: f"{_final_place(p)} : hors des {p['size']} qualifiés pour les play-offs",
    "outside_direct_final": lambda p: (
        f"{_final_place(p)} : hors des {p['size']} qualifiés pour la finale directe "
        f"(moins de {p['playoff_players']} classés : pas de play-offs)"
    ),
    # play-offs (scoring.cup.qualify_for_final): why a player is not in the final
    "table_cut": lambda p: (
        f"{ordinal(p['position'])} de la table {p['table']} (total {num(p['total'])}"
        + (f", à égalité avec {p['tied_with']}, {_seed_tie(p)}" if p["tied_with"] else "")
        + f") : {_cut_phrase(p['qualifiers'], p['best_thirds'])}"
    ),
    "third_cut": lambda p: (
        f"{ordinal(p['position'])} de la table {p['table']} (total {num(p['total'])}) : derrière "
        f"{p['kept']}, {ordinal(p['position'])} de la table {p['kept_table']} (total {num(p['kept_total'])}"
        + (f", {_seed_tie(p)}" if p["tied"] else "")
        + ")"
    ),
    # the play-off tables and the final (championship.cup.state)
    "table_qualifier": lambda p: f"{ordinal(p['position'], feminine=True)} place de la table {p['table']}",
    "best_third": lambda p: (
        f"meilleure {ordinal(p['position'], feminine=True)} place des tables (total {num(p['total'])})"
    ),
    "final_winner": _final_winner,
    # statuses for the play-offs during the season (scoring.playoff_race.playoff_status)
    "cannot_rank": lambda p: (
        f"Hors course : {_played(p['rounds'])} et {plural(p['remaining'], 'manche')} à jouer, "
        f"il en faut {p['needed']} pour entrer au classement"
    ),
    "safe": _safe,
    "out_of_reach": _out_of_reach,
    "not_ranked_yet": lambda p: (
        f"En course : {_played(p['rounds'])}, il en faut {p['needed']} pour entrer au classement"
    ),
    "open": _open,
    "final_tie": lambda p: (
        f"En course : ex æquo parfait à la {ordinal(p['rank'], feminine=True)} place, à la limite "
        f"des {p['places']} places, que les critères du règlement ne départagent pas"
    ),
    "final_in": lambda p: (
        f"Qualification assurée : {ordinal(p['place'], feminine=True)} place du classement final, "
        f"parmi les {p['places']} places"
    ),
    "final_out": lambda p: (
        f"Hors course : {ordinal(p['place'], feminine=True)} place du classement final, "
        f"au-delà des {p['places']} places"
    ),
    "final_unranked": lambda p: f"Hors course : hors classement, moins de {p['needed']} manches",
    "late_in": lambda p: (
        f"Qualification assurée : au pire à la {ordinal(p['place'], feminine=True)} place du "
        f"classement final ({_LATE}), "
        f"parmi les {p['places']} places"
    ),
    "late_out": lambda p: (
        f"Hors course : au mieux à la {ordinal(p['place'], feminine=True)} place du "
        f"classement final ({_LATE}), au-delà des {p['places']} places"
    ),
    "late_between": lambda p: (
        f"En course : entre la {ordinal(p['high'], feminine=True)} et la "
        f"{ordinal(p['low'], feminine=True)} place du classement final selon les malus de "
        f"compte-rendu en retard à venir, pour {_places(p['places'])}"
    ),
    # the regular rounds that may still change the ranking (championship.cup.state.status_assumption)
    "rounds_scheduled": lambda p: f"{_played_as(p['count'], 'régulière')} encore au calendrier",
    "rounds_pending": lambda p: (
        f"{_played_as(p['count'], 'saisie')} mais pas encore {agree(p['count'], 'homologuée')}"
    ),
    # what the stored rounds of the cup contradict (championship.cup.state): warnings
    "playoffs_without_plan": lambda p: (
        "Des manches de play-off sont enregistrées alors que le classement ne prévoit pas de "
        "play-offs : elles ne comptent pas."
    ),
    "several_playoff_rounds": lambda p: (
        f"Plusieurs manches homologuées à la table {p['table']} des play-offs : seule la manche "
        f"n° {p['number']} compte."
    ),
    "wrong_playoff_players": lambda p: (
        f"La manche de la table {p['table']} des play-offs réunit {', '.join(p['players'])} au lieu des "
        f"qualifiés {', '.join(p['expected'])} : elle ne compte pas tant qu'elle n'est pas corrigée."
    ),
    "several_finals": lambda p: f"Plusieurs finales homologuées : seule la manche n° {p['number']} compte.",
    "wrong_finalists": lambda p: (
        f"La finale réunit {', '.join(p['players'])} au lieu des qualifiés {', '.join(p['expected'])}."
    ),
}
