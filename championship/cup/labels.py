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

from django.utils.translation import gettext, gettext_noop, ngettext

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


def _places(count):
    return _count("%(count)s place", "%(count)s places", count)


def _the_rounds(count):
    return _count("la manche restante", "les %(count)s manches restantes", count)


def _can_reach(count):
    if count == 0:
        return gettext("personne ne peut l'atteindre ni l'égaler")
    if count == 1:
        return gettext("un seul autre joueur peut l'atteindre ou l'égaler")
    return gettext("%(count)s autres joueurs au plus peuvent l'atteindre ou l'égaler") % {"count": count}


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


def _place(rank):
    """« 4th place »."""
    return gettext("%(place)s place") % {"place": english_ordinal(rank)}


def _within(places):
    if places == 1:
        return gettext("dans la seule place qualificative")
    return gettext("dans les %(count)s places qualificatives") % {"count": places}


def _beyond(places):
    if places == 1:
        return gettext("au-delà de la seule place qualificative")
    return gettext("au-delà des %(count)s places qualificatives") % {"count": places}


def _for(places):
    if places == 1:
        return gettext("pour une seule place qualificative")
    return gettext("pour %(count)s places qualificatives") % {"count": places}


def _safe(p):
    fall = []
    if p["loss"]:
        fall.append(
            gettext("%(loss)s par manche au plus sur %(rounds)s")
            % {"loss": num(p["loss"]), "rounds": _the_rounds(p["remaining"])}
        )
    if p["malus"]:
        fall.append(
            gettext("%(malus)s de malus de compte-rendu en retard au plus") % {"malus": num(p["malus"])}
        )
    if fall:
        low = gettext("même au plus bas, à %(worst)s points (%(fall)s)") % {
            "worst": num(p["worst"]),
            "fall": gettext(" et ").join(fall),
        }
    else:
        low = gettext("à %(worst)s points, qui ne peuvent plus baisser") % {"worst": num(p["worst"])}
    if p["threats"] == 0:
        where = gettext("à %(place)s quoi qu'il arrive") % {"place": _place(1)}
    else:
        where = gettext("au pire à %(place)s") % {"place": _place(p["threats"] + 1)}
    return gettext("Qualification assurée : %(where)s, %(within)s — %(low)s, %(reach)s") % {
        "where": where,
        "within": _within(p["places"]),
        "low": low,
        "reach": _can_reach(p["threats"]),
    }


def _out_of_reach(p):
    stay = _count(
        "%(count)s joueur classé restera devant",
        "%(count)s joueurs classés resteront devant",
        p["ahead"],
    )
    return gettext(
        "Hors course : au mieux à %(place)s, %(beyond)s — même au plus haut, à %(best)s points "
        "(+%(gain)s par manche au plus sur %(rounds)s), %(stay)s"
    ) % {
        "place": _place(p["ahead"] + 1),
        "beyond": _beyond(p["places"]),
        "best": num(p["best"]),
        "gain": p["gain"],
        "rounds": _the_rounds(p["remaining"]),
        "stay": stay,
    }


def needed_phrase(p):
    """`scoring.cup_reasons.needed_phrase` in the active language."""
    needed, most = p["needed"], p["most"]
    rounds = _count("en %(count)s manche", "en %(count)s manches", p["remaining"])
    if needed > most:
        return ngettext(
            "même %(count)s point %(rounds)s, le plus possible, ne lui assurerait pas sa place "
            "(il en faudrait %(needed)s)",
            "même %(count)s points %(rounds)s, le plus possible, ne lui assureraient pas sa place "
            "(il en faudrait %(needed)s)",
            most,
        ) % {"count": most, "rounds": rounds, "needed": num(needed)}
    if needed > 0:
        return ngettext(
            "%(count)s point de plus %(rounds)s lui assurerait sa place",
            "%(count)s points de plus %(rounds)s lui assureraient sa place",
            needed,
        ) % {"count": needed, "rounds": rounds}
    if needed == 0:
        return gettext("ne rien perdre %(rounds)s lui assurerait sa place") % {"rounds": rounds}
    return ngettext(
        "ne pas perdre plus de %(count)s point %(rounds)s lui assurerait sa place",
        "ne pas perdre plus de %(count)s points %(rounds)s lui assurerait sa place",
        -needed,
    ) % {"count": -needed, "rounds": rounds}


def _open(p):
    return gettext("En course : au mieux à %(high)s, au pire à la %(low)s, %(for)s ; %(lacking)s") % {
        "high": _place(p["ahead"] + 1),
        "low": english_ordinal(p["threats"] + 1),
        "for": _for(p["places"]),
        "lacking": needed_phrase(p),
    }


def _place_of(msgid):
    return lambda p: gettext(msgid) % {"place": english_ordinal(p["place"]), "places": p["places"]}


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
    "cannot_rank": lambda p: (
        gettext("Hors course : %(played)s et %(to_play)s, il en faut %(needed)s pour entrer au classement")
        % {
            "played": _played(p["rounds"]),
            "to_play": _count("%(count)s manche à jouer", "%(count)s manches à jouer", p["remaining"]),
            "needed": p["needed"],
        }
    ),
    "safe": _safe,
    "out_of_reach": _out_of_reach,
    "not_ranked_yet": lambda p: (
        gettext("En course : %(played)s, il en faut %(needed)s pour entrer au classement")
        % {"played": _played(p["rounds"]), "needed": p["needed"]}
    ),
    "open": _open,
    "final_tie": lambda p: (
        gettext(
            "En course : ex æquo parfait à la %(rank)s place, à la limite des %(places)s places, "
            "que les critères du règlement ne départagent pas"
        )
        % {"rank": english_ordinal(p["rank"]), "places": p["places"]}
    ),
    "final_in": _place_of(
        gettext_noop(
            "Qualification assurée : %(place)s place du classement final, parmi les %(places)s places"
        )
    ),
    "final_out": _place_of(
        gettext_noop("Hors course : %(place)s place du classement final, au-delà des %(places)s places")
    ),
    "final_unranked": lambda p: (
        gettext("Hors course : hors classement, moins de %(needed)s manches") % {"needed": p["needed"]}
    ),
    "late_in": _place_of(
        gettext_noop(
            "Qualification assurée : au pire à la %(place)s place du classement final (malus de "
            "compte-rendu en retard à venir compris), parmi les %(places)s places"
        )
    ),
    "late_out": _place_of(
        gettext_noop(
            "Hors course : au mieux à la %(place)s place du classement final (malus de "
            "compte-rendu en retard à venir compris), au-delà des %(places)s places"
        )
    ),
    "late_between": lambda p: (
        gettext(
            "En course : entre la %(high)s et la %(low)s place du classement final selon les malus "
            "de compte-rendu en retard à venir, pour %(places)s"
        )
        % {
            "high": english_ordinal(p["high"]),
            "low": english_ordinal(p["low"]),
            "places": _places(p["places"]),
        }
    ),
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
