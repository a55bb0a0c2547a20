"""The reasons of the Coupe du Monde in the active language (the cup pages).

The rules engine gives every reason of the cup (a player left out of the seeds or of the final,
the champion, a status for the play-offs, a warning about the stored rounds) as a
`scoring.cup_reasons.Reason`: a code and its figures. `reason_text` writes it for the page:

- in French, the engine's own sentence (`scoring.cup_reasons.french`), the very one the `cup`
  command prints;
- in another language, a sentence of the catalogue written from the same code and figures
  (`ENGLISH`, one entry per code of `scoring.cup_reasons.FRENCH`), never read back from the
  French.
"""

from django.utils.translation import gettext, ngettext

from championship.labels import english_ordinal, french_active
from scoring.cup_reasons import french
from scoring.french import num


def reason_text(reason):
    """``reason`` (a `Reason`, or None for no reason) in the active language."""
    if reason is None:
        return ""
    if french_active():
        return french(reason)
    return ENGLISH[reason.code](reason.params)


# --- pieces shared by several sentences ------------------------------------------------------------


def _count(singular, plural_form, count):
    return ngettext(singular, plural_form, count) % {"count": count}


def _played(rounds):
    return _count("%(count)s manche jouée", "%(count)s manches jouées", rounds)


def _final_place(p):
    place = english_ordinal(p["place"])
    if p["tied_with"] is not None:
        return gettext(
            "%(place)s ex æquo du classement final avec %(player)s, l'ordre alphabétique les départage"
        ) % {"place": place, "player": p["tied_with"]}
    return gettext("%(place)s du classement final") % {"place": place}


def _seed_tie(p):
    return gettext("égalité départagée par la tête de série (%(seed_above)s contre %(seed)s)") % {
        "seed_above": p["seed_above"],
        "seed": p["seed"],
    }


def _cut_phrase(qualifiers, best_thirds):
    if qualifiers == 1:
        who = gettext("seul le premier de chaque table")
    else:
        who = gettext("seuls les %(count)s premiers de chaque table") % {"count": qualifiers}
    if best_thirds <= 0:
        if qualifiers == 1:
            return gettext("%(who)s va en finale") % {"who": who}
        return gettext("%(who)s vont en finale") % {"who": who}
    place = english_ordinal(qualifiers + 1)
    if best_thirds == 1:
        thirds = gettext("le meilleur %(place)s") % {"place": place}
    else:
        thirds = gettext("les %(count)s meilleurs %(place)s") % {"count": best_thirds, "place": place}
    return gettext("%(who)s et %(thirds)s vont en finale") % {"who": who, "thirds": thirds}


def _table_cut(p):
    tie = ""
    if p["tied_with"]:
        tie = gettext(", à égalité avec %(player)s, %(seed_tie)s") % {
            "player": p["tied_with"],
            "seed_tie": _seed_tie(p),
        }
    return gettext("%(position)s de la table %(table)s (total %(total)s%(tie)s) : %(cut)s") % {
        "position": english_ordinal(p["position"]),
        "table": p["table"],
        "total": num(p["total"]),
        "tie": tie,
        "cut": _cut_phrase(p["qualifiers"], p["best_thirds"]),
    }


def _third_cut(p):
    return gettext(
        "%(position)s de la table %(table)s (total %(total)s) : derrière %(kept)s, "
        "%(position)s de la table %(kept_table)s (total %(kept_total)s%(tie)s)"
    ) % {
        "position": english_ordinal(p["position"]),
        "table": p["table"],
        "total": num(p["total"]),
        "kept": p["kept"],
        "kept_table": p["kept_table"],
        "kept_total": num(p["kept_total"]),
        "tie": f", {_seed_tie(p)}" if p["tied"] else "",
    }


def _final_winner(p):
    if not p["tied"]:
        return gettext("vainqueur de la finale (total %(total)s)") % {"total": num(p["total"])}
    return gettext(
        "vainqueur de la finale (total %(total)s, à égalité avec %(tied)s : égalité départagée par "
        "la tête de série, %(seed)s contre %(tied_seeds)s)"
    ) % {
        "total": num(p["total"]),
        "tied": ", ".join(p["tied"]),
        "seed": p["seed"],
        "tied_seeds": ", ".join(p["tied_seeds"]),
    }


ENGLISH = {
    "unranked": lambda p: (
        gettext("hors classement : moins de %(minimum)s manches (%(played)s)")
        % {"minimum": p["minimum"], "played": _played(p["rounds"])}
    ),
    "no_cup": lambda p: (
        ngettext(
            "pas de Coupe du Monde : %(count)s joueur classé, il en faut au moins %(minimum)s",
            "pas de Coupe du Monde : %(count)s joueurs classés, il en faut au moins %(minimum)s",
            p["count"],
        )
        % {"count": p["count"], "minimum": p["minimum"]}
    ),
    "outside_playoffs": lambda p: (
        gettext("%(place)s : hors des %(size)s qualifiés pour les play-offs")
        % {"place": _final_place(p), "size": p["size"]}
    ),
    "outside_direct_final": lambda p: (
        gettext(
            "%(place)s : hors des %(size)s qualifiés pour la finale directe "
            "(moins de %(playoff_players)s classés : pas de play-offs)"
        )
        % {"place": _final_place(p), "size": p["size"], "playoff_players": p["playoff_players"]}
    ),
    "table_cut": _table_cut,
    "third_cut": _third_cut,
    "table_qualifier": lambda p: (
        gettext("%(position)s place de la table %(table)s")
        % {"position": english_ordinal(p["position"]), "table": p["table"]}
    ),
    "best_third": lambda p: (
        gettext("meilleure %(position)s place des tables (total %(total)s)")
        % {"position": english_ordinal(p["position"]), "total": num(p["total"])}
    ),
    "final_winner": _final_winner,
    "rounds_scheduled": lambda p: _count(
        "%(count)s manche régulière encore au calendrier",
        "%(count)s manches régulières encore au calendrier",
        p["count"],
    ),
    "rounds_pending": lambda p: _count(
        "%(count)s manche saisie mais pas encore homologuée",
        "%(count)s manches saisies mais pas encore homologuées",
        p["count"],
    ),
    "playoffs_without_plan": lambda p: gettext(
        "Des manches de play-off sont enregistrées alors que le classement ne prévoit pas de "
        "play-offs : elles ne comptent pas."
    ),
    "several_playoff_rounds": lambda p: (
        gettext(
            "Plusieurs manches homologuées à la table %(table)s des play-offs : seule la manche "
            "n° %(number)s compte."
        )
        % {"table": p["table"], "number": p["number"]}
    ),
    "wrong_playoff_players": lambda p: (
        gettext(
            "La manche de la table %(table)s des play-offs réunit %(players)s au lieu des qualifiés "
            "%(expected)s : elle ne compte pas tant qu'elle n'est pas corrigée."
        )
        % {"table": p["table"], "players": ", ".join(p["players"]), "expected": ", ".join(p["expected"])}
    ),
    "several_finals": lambda p: (
        gettext("Plusieurs finales homologuées : seule la manche n° %(number)s compte.")
        % {"number": p["number"]}
    ),
    "wrong_finalists": lambda p: (
        gettext("La finale réunit %(players)s au lieu des qualifiés %(expected)s.")
        % {"players": ", ".join(p["players"]), "expected": ", ".join(p["expected"])}
    ),
}
