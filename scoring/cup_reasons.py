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
