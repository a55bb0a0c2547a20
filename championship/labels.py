"""Words a page shows for what the rules engine writes in French: in the active language.

The engine (`scoring`, no Django) writes its explanations in French and stores codes; a page
shows them through here, so that an English visitor reads English and a French one reads the
French of `scoring.french` (elisions included: « Poignée simple d'Igor »):

- `code_label(code)`: the name of a championship line's kind (`rank` → « Place dans la manche »),
  never the code itself;
- `line_label(code, label)`: a stored championship line's explanation; in English, the engine's
  French sentence is rephrased from its figures (a label it cannot read is shown as stored);
- `poignee_of`, `misere_of`, `of_player`: a player's handful, misère, « d'Igor »;
- `contract`, `suit`, `stage`, `kind`: the vocabulary's labels, translated;
- `written_date(value, format)`: a date in words as Django's `date` filter writes it, but with
  « 1er » for the first of the month in French (« lundi 1er novembre 2010 »).
"""

import re

from django.utils.dateformat import format as date_format
from django.utils.translation import get_language, gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from scoring import awards, french
from scoring.vocabulary import CONTRACT_LABELS, KIND_LABELS, STAGE_LABELS, SUIT_LABELS, capfirst

# The kinds of championship lines (docs/regles.md §5.8) and of the season's awards, by code.
CODE_LABELS = {
    "rank": _("Place dans la manche"),
    "big_win": _("Large victoire"),
    "close_loss": _("Défaite honorable"),
    "prestige": _("Contrat de prestige réussi"),
    "chelem": _("Chelem"),
    "wall": _("Mur de la défense"),
    "late_report": _("Compte-rendu en retard"),
    "round_cap": _("Plafond de la manche"),
    "round_floor": _("Plancher de la manche"),
}
CATALOGUE_LABEL = _("Bonus ou malus du catalogue")

POIGNEE_SIZES = {"simple": _("simple"), "double": _("double"), "triple": _("triple")}


def french_active():
    return (get_language() or "fr").split("-")[0] == "fr"


def written_date(value, fmt="j F Y"):
    """``value`` (a date or datetime, already in local time) in Django's date format ``fmt``;
    in French the day of the first of the month (format letter ``j``) is written « 1er »."""
    if value is None or value == "":
        return ""
    if french_active() and value.day == 1:
        fmt = re.sub(r"(\\.)|j", lambda match: match.group(1) or r"\1\e\r", fmt)
    return date_format(value, fmt)


def colon():
    """What goes before a value after its label: « \u00a0: » in French, « : » in English."""
    return "\u00a0: " if french_active() else ": "


def code_label(code):
    """The name of a line's kind: a known code's label, else (a code of the season's catalogue)
    « Bonus ou malus du catalogue »; never the code itself."""
    return str(CODE_LABELS.get(code, CATALOGUE_LABEL))


def of_player(name, english="by"):
    """« de Bruno », « d'Igor » in French (the complement of a noun); in English, the name after
    the preposition its phrase wants (« single handful by Igor », « the total for Émile »)."""
    return french.of_name(name) if french_active() else f"{english} {name}"


def poignee_count(size, count):
    """« 2 simples », « 1 double »: how many handfuls of a size a player showed."""
    values = {"count": french.num(count)}
    if size == "simple":
        return ngettext("%(count)s simple", "%(count)s simples", count) % values
    if size == "double":
        return ngettext("%(count)s double", "%(count)s doubles", count) % values
    if size == "triple":
        return ngettext("%(count)s triple", "%(count)s triples", count) % values
    return f"{values['count']} {size}"


def poignee_of(size, player):
    """« Poignée simple d'Igor » / « Igor's single handful »."""
    label = POIGNEE_SIZES.get(size)
    if label is None:
        return f"{size} ({player})"
    return gettext("Poignée %(size)s %(of_player)s") % {"size": label, "of_player": of_player(player)}


def misere_of(player):
    return gettext("Misère %(of_player)s") % {"of_player": of_player(player)}


def contract(code):
    label = CONTRACT_LABELS.get(code)
    return gettext(label) if label else code


def suit(code):
    label = SUIT_LABELS.get(code)
    return gettext(label) if label else code


def kind(code):
    label = KIND_LABELS.get(code)
    return gettext(label) if label else code


def stage(code):
    label = STAGE_LABELS.get(code)
    return capfirst(gettext(label)) if label else code


def english_ordinal(rank):
    """1st, 2nd, 3rd, 4th… 11th, 21st."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def ordinal_place(rank):
    """« 1re place » / « 1st place »."""
    if french_active():
        return f"{french.ordinal(rank, feminine=True)} place"
    return pgettext("place in a round", "%(ordinal)s place") % {"ordinal": english_ordinal(rank)}


# --- the engine's French sentences, rephrased in the active language ------------------------------

_NUM = r"[−\-]?[\d\u00a0]+(?:,\d+)?"
_DEAL = r" \(donne (?P<deal>\d+)\)"
_CONTRACTS = "|".join(re.escape(label) for label in CONTRACT_LABELS.values())
_PATTERNS = [
    (
        "rank",
        re.compile(
            r"^(?P<rank>\d+)(?:er|re|e) place(?P<tie> ex æquo)? sur (?P<size>\d+)"
            rf" \(total (?P<total>{_NUM})\)$"
        ),
        lambda m: (
            (
                gettext("%(place)s ex æquo sur %(size)s (total %(total)s)")
                if m["tie"]
                else gettext("%(place)s sur %(size)s (total %(total)s)")
            )
            % {"place": ordinal_place(int(m["rank"])), "size": m["size"], "total": m["total"]}
        ),
    ),
    (
        "big_win",
        re.compile(
            rf"^Large victoire[ \u00a0]: (?P<a>{_NUM}) contre (?P<b>{_NUM})"
            rf" \(écart (?P<gap>{_NUM}) ≥ (?P<m>{_NUM})\)$"
        ),
        lambda m: gettext("Large victoire : %(a)s contre %(b)s (écart %(gap)s ≥ %(m)s)") % m.groupdict(),
    ),
    (
        "close_loss",
        re.compile(
            rf"^Défaite honorable[ \u00a0]: (?P<a>{_NUM}) contre (?P<b>{_NUM})"
            rf" \(écart (?P<gap>{_NUM}) ≤ (?P<m>{_NUM})\)$"
        ),
        lambda m: gettext("Défaite honorable : %(a)s contre %(b)s (écart %(gap)s ≤ %(m)s)") % m.groupdict(),
    ),
    (
        "prestige",
        re.compile(rf"^(?P<contract>{_CONTRACTS}) réussie{_DEAL}$"),
        lambda m: (
            gettext("%(contract)s réussie (donne %(deal)s)")
            % {"contract": gettext(m["contract"]), "deal": m["deal"]}
        ),
    ),
    (
        "chelem",
        re.compile(rf"^Chelem réussi comme preneur{_DEAL}$"),
        lambda m: gettext("Chelem réussi comme preneur (donne %(deal)s)") % {"deal": m["deal"]},
    ),
    (
        "wall",
        re.compile(rf"^(?P<contract>{_CONTRACTS}) (?:de |d')(?P<taker>.+) mise en échec en défense{_DEAL}$"),
        lambda m: (
            gettext("%(contract)s %(of_taker)s mise en échec en défense (donne %(deal)s)")
            % {
                "contract": gettext(m["contract"]),
                "of_taker": of_player(m["taker"]),
                "taker": m["taker"],
                "deal": m["deal"],
            }
        ),
    ),
    (
        "late_report",
        re.compile(
            r"^Compte-rendu en retard[ \u00a0]: (?P<weeks>\d+) semaines? entamées? après l'échéance"
            rf" \((?P<per>{_NUM}) par semaine\)$"
        ),
        lambda m: (
            gettext(
                "Compte-rendu en retard : %(weeks)s semaine(s) entamée(s) après l'échéance"
                " (%(per)s par semaine)"
            )
            % m.groupdict()
        ),
    ),
    (
        "round_cap",
        re.compile(
            rf"^Plafond de la manche[ \u00a0]: (?P<total>{_NUM}) points ramenés à (?P<limit>{_NUM}) .*$"
        ),
        lambda m: (
            gettext("Plafond de la manche : %(total)s points ramenés à %(limit)s (règlement de la saison)")
            % m.groupdict()
        ),
    ),
    (
        "round_floor",
        re.compile(
            rf"^Plancher de la manche[ \u00a0]: (?P<total>{_NUM}) points ramenés à (?P<limit>{_NUM}) .*$"
        ),
        lambda m: (
            gettext("Plancher de la manche : %(total)s points ramenés à %(limit)s (règlement de la saison)")
            % m.groupdict()
        ),
    ),
]
_BY_CODE = {code: (pattern, phrase) for code, pattern, phrase in _PATTERNS}


def line_label(code, label):
    """A stored championship line's explanation in the active language: as stored in French;
    otherwise rephrased from the engine's French sentence of its `code` (a label it cannot read,
    such as a catalogue entry named by the season's board, is shown as stored)."""
    if french_active():
        return label
    known = _BY_CODE.get(code)
    match = known[0].match(label) if known else None
    return known[1](match) if match else label


# The engine's computation terms (scoring.deal.Term), by code: its French label, rephrased.
_TERM_PATTERNS = {
    "target": (re.compile(r"^Objectif \((?P<bouts>\d+) bouts?\)$"), "Objectif (%(bouts)s bout(s))"),
    "points_rounded": (
        re.compile(r"^Points de l'attaque(?: \((?P<raw>[\d,]+) arrondis\))?$"),
        None,  # two phrasings, below
    ),
    "diff": (re.compile(r"^Écart(?P<just> \(juste fait\))?$"), None),
    "base": (re.compile(r"^Base (?P<formula>.+)$"), "Base %(formula)s"),
    "petit_au_bout": (
        re.compile(r"^Petit au bout \((?P<side>attaque|défense)\)$"),
        "Petit au bout (%(side)s)",
    ),
    "poignee": (re.compile(r"^Poignée (?P<size>simple|double|triple) \((?P<player>.+)\)$"), None),
    "unit_raw": (re.compile(r"^Total de la donne$"), "Total de la donne"),
    "unit": (re.compile(r"^(?:Arrondi à (?P<unit>\d+)|Valeur de la donne)$"), None),
    "taker": (
        re.compile(r"^Preneur (?P<player>.+) \((?P<factor>\d+) × U\)$"),
        "Preneur %(player)s (%(factor)s × U)",
    ),
    "partner": (re.compile(r"^Appelé (?P<player>.+) \(U\)$"), "Appelé %(player)s (U)"),
    "defender": (re.compile(r"^Défenseur (?P<player>.+) \(−U\)$"), "Défenseur %(player)s (−U)"),
    "misere": (
        re.compile(r"^Misère (?:de |d')(?P<player>.+) \((?P<value>\d+) × (?P<others>\d+)\)$"),
        "Misère de %(player)s (%(value)s × %(others)s)",
    ),
    "chelem": (re.compile(r"^(?P<label>Chelem .+)$"), None),
}


def term_label(term):
    """A computation term's label in the active language (as the engine wrote it in French)."""
    if french_active():
        return term.label
    pattern, phrase = _TERM_PATTERNS.get(term.code, (None, None))
    match = pattern.match(term.label) if pattern is not None else None
    if match is None:
        return term.label
    values = match.groupdict()
    if term.code == "points_rounded":
        if values["raw"]:
            return gettext("Points de l'attaque (%(raw)s arrondis)") % values
        return gettext("Points de l'attaque")
    if term.code == "diff":
        return gettext("Écart (juste fait)") if values["just"] else gettext("Écart")
    if term.code == "poignee":
        return gettext("Poignée %(size)s (%(player)s)") % {"size": POIGNEE_SIZES[values["size"]], **values}
    if term.code == "unit":
        return gettext("Arrondi à %(unit)s") % values if values["unit"] else gettext("Valeur de la donne")
    if term.code == "chelem":
        return gettext(values["label"])
    if term.code == "petit_au_bout":
        values["side"] = gettext(values["side"])
    return gettext(phrase) % values


# Marked for makemessages: the engine's chelem terms, translated whole.
CHELEM_TERMS = (
    _("Chelem annoncé et réussi"),
    _("Chelem réussi sans annonce"),
    _("Chelem annoncé et chuté"),
    _("Chelem de la défense"),
)


# --- the season's awards (accessits, docs/regles.md §5.7) -------------------------------------------

AWARD_LABELS = {
    "record": _("Trophée du record"),
    "wooden_spoon": _("Cuillère de bois"),
    "best_taker": _("Meilleur preneur"),
    "wall": _("Mur de la défense"),
    "most_rounds": _("Le plus assidu"),
    "most_chelems": _("Roi du chelem"),
}


def award_label(award):
    """An award's title in the active language (as the engine names it for an unknown code)."""
    label = AWARD_LABELS.get(award.code)
    return str(label) if label is not None else award.label


def award_reason(reason):
    """Why an award goes where it goes (a `scoring.awards.Reason`), in the active language: in
    French the engine's own sentence, otherwise one of the catalogue from the same figures."""
    if french_active():
        return awards.french(reason)
    p = reason.params
    if reason.code == "record":
        best = {"best": french.num(p["best"])}
        return gettext("Plus haut total d'une manche de la saison : %(best)s") % best
    if reason.code == "wooden_spoon":
        place = english_ordinal(p["rank"]) + (gettext(" ex æquo") if p["tied"] else "")
        return gettext("Dernière place du classement final (%(place)s), %(points)s points") % {
            "place": place,
            "points": french.num(p["points"]),
        }
    if reason.code == "best_taker_nobody":
        return gettext("Non attribué (minimum %(minimum)s prises)") % p
    if reason.code == "best_taker":
        text = (
            gettext(
                "%(made)s contrats réussis sur %(takes)s prises (%(rate)s %%), minimum %(minimum)s prises"
            )
            % p
        )
        if p["by_rate"]:
            text += gettext(" ; égalité de contrats réussis départagée au taux de réussite")
        return text
    count = {"count": french.num(p.get("count", 0))}
    if reason.code == "wall":
        return (
            ngettext(
                "%(count)s contrat mis en échec en défense",
                "%(count)s contrats mis en échec en défense",
                p["count"],
            )
            % count
        )
    if reason.code == "most_rounds":
        return ngettext("%(count)s manche jouée", "%(count)s manches jouées", p["count"]) % count
    if reason.code == "most_chelems":
        return ngettext("%(count)s chelem réussi", "%(count)s chelems réussis", p["count"]) % count
    return gettext("Non attribué")
