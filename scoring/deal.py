"""One deal (donne): validation and score, docs/regles.md §1–§3.

``score_deal`` checks a ``DealInput`` against the table and the season's rulebook, then returns
the shares of every seated player with the computation as French ``Term`` lines for the pages.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation

from scoring.errors import ScoringError
from scoring.french import of_name
from scoring.rulebook import MAX_CARD_POINTS, DealRules, Rulebook
from scoring.vocabulary import (
    ATTACK,
    CALLED_RANKS,
    CONTRACT_ALIASES,
    CONTRACTS,
    DEFENCE,
    KINDS,
    NOT_PLAYED_PHRASES,
    PLAYED,
    POIGNEE_SIZES,
    SIDE_LABELS,
    SIDES,
    SUITS,
    TABLE_SIZES,
    poignee_name,
)

VALUE_CODES = ("base", "petit_au_bout", "poignee", "chelem")  # the terms that add up to U


@dataclass(frozen=True)
class Poignee:
    player: str
    size: str


@dataclass(frozen=True)
class DealInput:
    dealer: str
    kind: str = PLAYED
    taker: str | None = None
    contract: str | None = None
    called: str | None = None
    called_rank: str = "roi"
    partner: str | None = None
    bouts: int | None = None
    points: Decimal | None = None
    poignees: tuple[Poignee, ...] = ()
    miseres: tuple[str, ...] = ()
    petit_au_bout: str | None = None
    chelem_announced: bool = False
    chelem_made_by: str | None = None

    def __post_init__(self):
        # Harmless normalisations only; anything doubtful is left for score_deal to refuse.
        if self.contract in CONTRACT_ALIASES:
            object.__setattr__(self, "contract", CONTRACT_ALIASES[self.contract])
        object.__setattr__(self, "points", _as_decimal(self.points))
        if isinstance(self.poignees, list | tuple):
            poignees = tuple(_as_poignee(item) for item in self.poignees)
            object.__setattr__(self, "poignees", poignees)
        if isinstance(self.miseres, list):
            object.__setattr__(self, "miseres", tuple(self.miseres))


def _as_decimal(value):
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return value
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return value


def _as_poignee(item):
    if isinstance(item, dict) and set(item) == {"player", "size"}:
        return Poignee(player=item["player"], size=item["size"])
    return item


@dataclass(frozen=True)
class Term:
    """One line of a deal's computation, e.g. Term("base", "Base (25 + 8) × 2", 66)."""

    code: str
    label: str
    value: int | str


@dataclass(frozen=True)
class DealResult:
    kind: str
    made: bool | None
    diff: int | None
    unit: int
    card_shares: dict[str, int]
    misere_shares: dict[str, int]
    shares: dict[str, int]
    terms: tuple[Term, ...]
    attack: tuple[str, ...]
    defence: tuple[str, ...]


# --- validation ----------------------------------------------------------------------------------


def _fail(field: str, message: str):
    raise ScoringError(field, message)


def validate_players(players: Sequence[str]) -> tuple[str, ...]:
    """The seated players as a tuple: 4 or 5 distinct non-empty names."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        _fail("players", "la liste des joueurs est attendue")
    seats = tuple(players)
    if any(not isinstance(name, str) or not name.strip() for name in seats):
        _fail("players", "chaque joueur doit avoir un nom")
    if len(seats) not in TABLE_SIZES:
        _fail("players", f"une table compte 4 ou 5 joueurs, pas {len(seats)}")
    for index, name in enumerate(seats):
        if name in seats[:index]:
            _fail("players", f"{name} est deux fois à la table")
    return seats


def _check_seated(field: str, name, seats: tuple[str, ...]) -> None:
    if name not in seats:
        _fail(field, f"{name} n'est pas à cette table")


def _check_choice(field: str, value, choices, what: str) -> None:
    if value not in choices:
        _fail(field, f"{what} inconnu « {value} » (possibles : {', '.join(choices)})")


def _check_not_played(deal: DealInput) -> None:
    phrase = NOT_PLAYED_PHRASES[deal.kind]
    for field in fields(DealInput):
        if field.name in ("dealer", "kind"):
            continue
        if getattr(deal, field.name) != field.default:
            _fail(field.name, f"sans objet pour {phrase}")


def _check_people(deal: DealInput, seats: tuple[str, ...]) -> None:
    if deal.taker is None:
        _fail("taker", "le preneur est obligatoire pour une donne jouée")
    _check_seated("taker", deal.taker, seats)
    if deal.partner is not None:
        if len(seats) == 4:
            _fail("partner", "pas d'appelé à 4 joueurs")
        _check_seated("partner", deal.partner, seats)
        if deal.partner == deal.taker:
            _fail("partner", "le preneur ne peut pas être son propre appelé (laisser vide)")


def _check_contract(deal: DealInput, seats: tuple[str, ...]) -> None:
    if deal.contract is None:
        _fail("contract", "le contrat est obligatoire pour une donne jouée")
    _check_choice("contract", deal.contract, CONTRACTS, "contrat")
    if deal.called is not None:
        if len(seats) == 4:
            _fail("called", "pas de roi appelé à 4 joueurs")
        _check_choice("called", deal.called, SUITS, "couleur")
    _check_choice("called_rank", deal.called_rank, CALLED_RANKS, "rang")


def _check_cards(deal: DealInput) -> None:
    bouts, points = deal.bouts, deal.points
    if type(bouts) is not int or not 0 <= bouts <= 3:
        _fail("bouts", "le nombre de bouts doit être un entier de 0 à 3")
    if not isinstance(points, Decimal) or not points.is_finite():
        _fail("points", "les points du preneur sont obligatoires (un nombre, demis permis)")
    if (points * 2) % 1 != 0 or not 0 <= points <= MAX_CARD_POINTS:
        _fail("points", "les points doivent être un multiple de 0,5 entre 0 et 91")
    low, high = Decimal("4.5") * bouts, MAX_CARD_POINTS - Decimal("4.5") * (3 - bouts)
    if not low <= points <= high:
        _fail(
            "points",
            f"avec {bouts} bout(s), le preneur a entre {_french(low)} et {_french(high)} points",
        )


def _check_announces(deal: DealInput, seats: tuple[str, ...], rules: DealRules) -> None:
    shown = set()
    for poignee in deal.poignees:
        if not isinstance(poignee, Poignee):
            _fail("poignees", "chaque poignée indique un joueur et une taille")
        _check_seated("poignees", poignee.player, seats)
        if poignee.size not in rules.poignee_thresholds[len(seats)]:
            _check_choice("poignees", poignee.size, POIGNEE_SIZES, "taille de poignée")
        if poignee.player in shown:
            _fail("poignees", f"{poignee.player} ne peut montrer qu'une poignée")
        shown.add(poignee.player)
    if deal.miseres and rules.misere == 0:
        _fail("miseres", "la misère n'est pas jouée cette saison")
    for index, name in enumerate(deal.miseres):
        _check_seated("miseres", name, seats)
        if name in deal.miseres[:index]:
            _fail("miseres", f"{name} ne peut annoncer qu'une misère")


def _check_ends(deal: DealInput) -> None:
    if deal.petit_au_bout is not None:
        _check_choice("petit_au_bout", deal.petit_au_bout, SIDES, "camp")
    if type(deal.chelem_announced) is not bool:
        _fail("chelem_announced", "doit être vrai ou faux")
    if deal.chelem_made_by is not None:
        _check_choice("chelem_made_by", deal.chelem_made_by, SIDES, "camp")
    if deal.chelem_made_by == ATTACK and deal.points < Decimal("86.5"):
        _fail("chelem_made_by", "un chelem de l'attaque demande au moins 86,5 points")
    if deal.chelem_made_by == DEFENCE and deal.points > Decimal("4.5"):
        _fail("chelem_made_by", "un chelem de la défense laisse au plus 4,5 points au preneur")


def validate_deal(deal: DealInput, seats: tuple[str, ...], rulebook: Rulebook) -> None:
    """Raise a ScoringError (no deal number) naming the first invalid field of the deal."""
    _check_choice("kind", deal.kind, KINDS, "type de donne")
    _check_seated("dealer", deal.dealer, seats)
    if deal.kind != PLAYED:
        _check_not_played(deal)
        return
    _check_people(deal, seats)
    _check_contract(deal, seats)
    _check_cards(deal)
    _check_announces(deal, seats, rulebook.deal)
    _check_ends(deal)


# --- score ---------------------------------------------------------------------------------------


def round_card_points(points: Decimal, target: int) -> int:
    """Half points go to the winning side: below the target round down, otherwise up."""
    return math.floor(points) if points < target else math.ceil(points)


def round_to_unit(value: int, unit: int) -> int:
    """Nearest multiple of ``unit``, half away from zero: 105 -> 110, -105 -> -110."""
    sign = -1 if value < 0 else 1
    quotient, remainder = divmod(abs(value), unit)
    if 2 * remainder >= unit:
        quotient += 1
    return sign * quotient * unit


def _french(number: Decimal) -> str:
    if number == number.to_integral_value():
        return str(int(number))
    return str(number).replace(".", ",")


def _card_terms(deal: DealInput, rules: DealRules) -> tuple[list[Term], bool, int]:
    target = rules.targets[deal.bouts]
    rounded = round_card_points(deal.points, target)
    diff = rounded - target
    made = diff >= 0
    multiplier = rules.multipliers[deal.contract]
    plural = "s" if deal.bouts > 1 else ""
    points_label = "Points de l'attaque"
    if rounded != deal.points:
        points_label += f" ({_french(deal.points)} arrondis)"
    base_label = f"({rules.base} + {abs(diff)}) × {multiplier}"
    terms = [
        Term("target", f"Objectif ({deal.bouts} bout{plural})", target),
        Term("points_rounded", points_label, rounded),
        Term("diff", "Écart (juste fait)" if diff == 0 else "Écart", diff),
        Term(
            "base",
            f"Base {base_label}" if made else f"Base −{base_label}",
            (1 if made else -1) * (rules.base + abs(diff)) * multiplier,
        ),
    ]
    if deal.petit_au_bout is not None:
        sign = 1 if deal.petit_au_bout == ATTACK else -1
        label = f"Petit au bout ({SIDE_LABELS[deal.petit_au_bout]})"
        terms.append(Term("petit_au_bout", label, sign * rules.petit_au_bout * multiplier))
    return terms, made, diff


def _poignee_terms(deal: DealInput, rules: DealRules, made: bool) -> list[Term]:
    sign = 1 if made else -1
    return [
        Term(
            "poignee",
            f"{poignee_name(poignee.size)} ({poignee.player})",
            sign * rules.poignee_values[poignee.size],
        )
        for poignee in deal.poignees
    ]


def _chelem_terms(deal: DealInput, rules: DealRules) -> list[Term]:
    values = rules.chelem
    terms = []
    if deal.chelem_made_by == ATTACK and deal.chelem_announced:
        terms.append(Term("chelem", "Chelem annoncé et réussi", values.announced_made))
    elif deal.chelem_made_by == ATTACK:
        terms.append(Term("chelem", "Chelem réussi sans annonce", values.unannounced_made))
    elif deal.chelem_announced:
        terms.append(Term("chelem", "Chelem annoncé et chuté", values.announced_failed))
    if deal.chelem_made_by == DEFENCE:
        terms.append(Term("chelem", "Chelem de la défense", values.defence_made))
    return terms


def _card_shares(deal: DealInput, seats: tuple[str, ...], unit: int) -> tuple[dict[str, int], list[Term]]:
    """Each defender pays U, the partner gets U, the taker the rest (2U, 4U alone, 3U at 4)."""
    defence = [name for name in seats if name not in (deal.taker, deal.partner)]
    shares = dict.fromkeys(seats, 0)
    taker_factor = len(defence) - (1 if deal.partner else 0)
    shares[deal.taker] = taker_factor * unit
    terms = [Term("taker", f"Preneur {deal.taker} ({taker_factor} × U)", shares[deal.taker])]
    if deal.partner:
        shares[deal.partner] = unit
        terms.append(Term("partner", f"Appelé {deal.partner} (U)", unit))
    for name in defence:
        shares[name] = -unit
        terms.append(Term("defender", f"Défenseur {name} (−U)", -unit))
    return shares, terms


def _misere_shares(
    deal: DealInput, seats: tuple[str, ...], rules: DealRules
) -> tuple[dict[str, int], list[Term]]:
    """Each announcer receives the misère value from every other player."""
    shares = dict.fromkeys(seats, 0)
    terms = []
    others = len(seats) - 1
    for announcer in deal.miseres:
        for name in seats:
            shares[name] += rules.misere * others if name == announcer else -rules.misere
        label = f"Misère {of_name(announcer)} ({rules.misere} × {others})"
        terms.append(Term("misere", label, rules.misere * others))
    return shares, terms


def _score_played(deal: DealInput, seats: tuple[str, ...], rules: DealRules) -> DealResult:
    terms, made, diff = _card_terms(deal, rules)
    terms += _poignee_terms(deal, rules, made)
    terms += _chelem_terms(deal, rules)
    raw = sum(term.value for term in terms if term.code in VALUE_CODES)
    unit = round_to_unit(raw, rules.chip_unit)
    terms.append(Term("unit_raw", "Total de la donne", raw))
    unit_label = f"Arrondi à {rules.chip_unit}" if rules.chip_unit > 1 else "Valeur de la donne"
    terms.append(Term("unit", unit_label, unit))
    card_shares, share_terms = _card_shares(deal, seats, unit)
    misere_shares, misere_terms = _misere_shares(deal, seats, rules)
    shares = {name: card_shares[name] + misere_shares[name] for name in seats}
    attack = (deal.taker, deal.partner) if deal.partner else (deal.taker,)
    return DealResult(
        kind=deal.kind,
        made=made,
        diff=diff,
        unit=unit,
        card_shares=card_shares,
        misere_shares=misere_shares,
        shares=shares,
        terms=tuple(terms + share_terms + misere_terms),
        attack=attack,
        defence=tuple(name for name in seats if name not in attack),
    )


def _not_played(kind: str, seats: tuple[str, ...]) -> DealResult:
    zeros = dict.fromkeys(seats, 0)
    return DealResult(
        kind=kind,
        made=None,
        diff=None,
        unit=0,
        card_shares=dict(zeros),
        misere_shares=dict(zeros),
        shares=dict(zeros),
        terms=(),
        attack=(),
        defence=(),
    )


def score_deal(
    deal: DealInput,
    players: Sequence[str],
    rulebook: Rulebook,
    deal_number: int | None = None,
) -> DealResult:
    """Validate and score one deal; errors carry ``deal_number`` when given."""
    try:
        seats = validate_players(players)
        validate_deal(deal, seats, rulebook)
    except ScoringError as error:
        if deal_number is None:
            raise
        raise error.in_deal(deal_number) from None
    if deal.kind != PLAYED:
        return _not_played(deal.kind, seats)
    result = _score_played(deal, seats, rulebook.deal)
    assert sum(result.shares.values()) == 0, result
    return result
