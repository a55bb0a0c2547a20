"""The season's rulebook: every number and choice of the rules that a season may change.

A season keeps its own copy as TOML text (see ``default_rulebook.toml``); ``load_rulebook`` parses
and validates it. Structure errors come from pydantic and consistency errors from the section
validators; both become a ``RulebookError`` naming the dotted field, with a French message.
"""

import functools
import re
import tomllib
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError, model_validator
from pydantic_core import PydanticCustomError

# The registries import nothing of this module: each is the only list of its keys.
from scoring.awards import AWARDS
from scoring.championship import AUTOMATIC_CODES
from scoring.ranking import TIEBREAKS
from scoring.vocabulary import CONTRACTS, PLAYOFF_TABLES, POIGNEE_SIZES, TABLE_SIZES

BOUTS = (0, 1, 2, 3)
AUTHOR_RULES = ("winner",)
# Settings that existed once and were removed, with what replaced them (a season's copy written
# before is refused with this message rather than a bare "paramètre inconnu").
RETIRED = {
    "cup.max_round_points": "paramètre supprimé : le plafond d'une manche se règle désormais dans "
    "championship.round_points_cap, appliqué au calcul de chaque manche",
    "cup.min_round_points": "paramètre supprimé : le plancher d'une manche se règle désormais dans "
    "championship.round_points_floor, appliqué au calcul de chaque manche",
}
MAX_CARD_POINTS = 91


class RulebookError(ValueError):
    """A rulebook refused: ``field`` is the dotted path of the setting, ``message`` French."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.field} : {self.message}"


# --- value types: each refuses anything else with one French message --------------------------


def _checked(kind: type, check: Callable[[Any], bool], message: str):
    def validate(value: Any) -> Any:
        if type(value) is not kind or not check(value):
            raise PydanticCustomError("rulebook", message)
        return value

    return PlainValidator(validate)


def _int_key(allowed: tuple[int, ...], message: str):
    """A dict key given as an int or, as TOML keys always are, as a string of digits."""

    def validate(value: Any) -> int:
        if type(value) is str and value.isdigit():
            value = int(value)
        if type(value) is not int or value not in allowed:
            raise PydanticCustomError("rulebook", message)
        return value

    return PlainValidator(validate)


def _str_key(allowed: tuple[str, ...], message: str):
    return _checked(str, lambda v: v in allowed, message)


PositiveInt = Annotated[int, _checked(int, lambda v: v > 0, "doit être un entier positif")]
NaturalInt = Annotated[int, _checked(int, lambda v: v >= 0, "doit être un entier positif ou nul")]
NegativeInt = Annotated[int, _checked(int, lambda v: v <= 0, "doit être un entier négatif ou nul")]
SignedInt = Annotated[int, _checked(int, lambda v: True, "doit être un entier")]
CardPoints = Annotated[
    int,
    _checked(int, lambda v: 0 <= v <= MAX_CARD_POINTS, "doit être un entier entre 0 et 91"),
]
Text = Annotated[str, _checked(str, lambda v: v.strip() != "", "doit être un texte non vide")]
Code = Annotated[
    str,
    _checked(
        str,
        lambda v: re.fullmatch(r"[a-z][a-z0-9_]*", v) is not None,
        "doit être un code en minuscules (lettres, chiffres, « _ »)",
    ),
]
Flag = Annotated[bool, _checked(bool, lambda v: True, "doit valoir true ou false")]
TableSize = Annotated[int, _int_key(TABLE_SIZES, "la clé doit être 4 ou 5 (joueurs à la table)")]
Bouts = Annotated[int, _int_key(BOUTS, "la clé doit être un nombre de bouts de 0 à 3")]
Contract = Annotated[
    str, _str_key(CONTRACTS, "doit être un contrat : prise, garde, garde_sans ou garde_contre")
]
PoigneeSize = Annotated[str, _str_key(POIGNEE_SIZES, "doit être simple, double ou triple")]
AuthorRule = Annotated[str, _str_key(AUTHOR_RULES, "règle inconnue (valeur possible : winner)")]


def _refuse(field: str, message: str) -> PydanticCustomError:
    """A consistency error located at ``field`` inside the section being validated."""
    return PydanticCustomError("rulebook_field", "{message}", {"field": field, "message": message})


def _require_keys(mapping: Mapping, expected: tuple, field: str) -> None:
    if set(mapping) != set(expected):
        listed = ", ".join(str(key) for key in expected)
        raise _refuse(field, f"doit donner exactement les clés {listed}")


def _require_unique(values: list, field: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise _refuse(field, f"« {value} » apparaît deux fois")
        seen.add(value)


def _require_known(values: list, known: tuple[str, ...], field: str) -> None:
    for value in values:
        if value not in known:
            raise _refuse(field, f"clé inconnue « {value} » (possibles : {', '.join(known)})")
    _require_unique(values, field)


# --- sections ------------------------------------------------------------------------------------


class _Section(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChelemValues(_Section):
    announced_made: NaturalInt = 400
    unannounced_made: NaturalInt = 200
    announced_failed: NegativeInt = -200
    defence_made: NegativeInt = -200


class DealRules(_Section):
    chip_unit: PositiveInt = 10
    base: NaturalInt = 25
    targets: dict[Bouts, CardPoints] = Field(default_factory=lambda: {0: 56, 1: 51, 2: 41, 3: 36})
    multipliers: dict[Contract, PositiveInt] = Field(
        default_factory=lambda: {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
    )
    petit_au_bout: NaturalInt = 10
    poignee_thresholds: dict[TableSize, dict[PoigneeSize, PositiveInt]] = Field(
        default_factory=lambda: {
            5: {"simple": 8, "double": 10, "triple": 13},
            4: {"simple": 10, "double": 13, "triple": 15},
        }
    )
    poignee_values: dict[PoigneeSize, NaturalInt] = Field(
        default_factory=lambda: {"simple": 20, "double": 30, "triple": 40}
    )
    chelem: ChelemValues = Field(default_factory=ChelemValues)
    misere: NaturalInt = 10

    @model_validator(mode="after")
    def _consistent(self) -> "DealRules":
        _require_keys(self.targets, BOUTS, "targets")
        _require_keys(self.multipliers, CONTRACTS, "multipliers")
        _require_keys(self.poignee_values, POIGNEE_SIZES, "poignee_values")
        _require_keys(self.poignee_thresholds, TABLE_SIZES, "poignee_thresholds")
        for size, thresholds in self.poignee_thresholds.items():
            field = f"poignee_thresholds.{size}"
            _require_keys(thresholds, POIGNEE_SIZES, field)
            counts = [thresholds[name] for name in POIGNEE_SIZES]
            if counts != sorted(set(counts)):
                raise _refuse(field, "les seuils simple, double, triple doivent être croissants")
        return self


class PotRules(_Section):
    ante: NaturalInt = 10
    misdeal_penalty: NaturalInt = 10


class CatalogueEntry(_Section):
    code: Code
    label: Text
    points: SignedInt
    board_only: Flag = False


def _default_catalogue() -> list[CatalogueEntry]:
    entries = [
        ("hote", "Hôte de la soirée", 1, False),
        ("fair_play", "Fair-play", 1, False),
        ("compte_rendu_du_mois", "Compte-rendu du mois", 1, False),
        ("retard", "Retard", -1, False),
        ("absence", "Absence non excusée", -2, False),
        ("biere_renversee", "Bière renversée sur les cartes", -1, False),
        ("ethique", "Manquement à l'éthique", -3, True),
    ]
    return [
        CatalogueEntry(code=code, label=label, points=points, board_only=board_only)
        for code, label, points, board_only in entries
    ]


class ChampionshipRules(_Section):
    rank_points: dict[TableSize, list[NaturalInt]] = Field(
        default_factory=lambda: {5: [10, 7, 5, 3, 1], 4: [10, 6, 3, 1]}
    )
    big_win_margin: NaturalInt = 250
    big_win_points: NaturalInt = 1
    prestige_contracts: list[Contract] = Field(default_factory=lambda: ["garde_sans", "garde_contre"])
    prestige_points: NaturalInt = 1
    chelem_points: NaturalInt = 2
    close_loss_margin: NaturalInt = 100
    close_loss_points: NaturalInt = 1
    wall_points: NaturalInt = 1
    minimum_rounds: NaturalInt = 3
    tiebreaks: list[str] = Field(default_factory=lambda: list(TIEBREAKS))
    awards: list[str] = Field(default_factory=lambda: list(AWARDS))
    best_taker_min_takes: NaturalInt = 10
    catalogue: list[CatalogueEntry] = Field(default_factory=_default_catalogue)
    round_points_cap: PositiveInt = 30
    round_points_floor: NegativeInt = -30

    @model_validator(mode="after")
    def _consistent(self) -> "ChampionshipRules":
        _require_keys(self.rank_points, TABLE_SIZES, "rank_points")
        for size, points in self.rank_points.items():
            field = f"rank_points.{size}"
            if len(points) != size:
                raise _refuse(field, f"doit donner {size} valeurs, une par place")
            if any(better <= worse for better, worse in zip(points, points[1:], strict=False)):
                raise _refuse(field, "les points doivent être strictement décroissants")
        best = max(max(points) for points in self.rank_points.values())
        if self.round_points_cap < best:
            raise _refuse(
                "round_points_cap",
                f"doit être au moins {best}, les points de la 1re place (rank_points)",
            )
        _require_unique(self.prestige_contracts, "prestige_contracts")
        _require_known(self.tiebreaks, tuple(TIEBREAKS), "tiebreaks")
        _require_known(self.awards, tuple(AWARDS), "awards")
        seen = set()
        for index, entry in enumerate(self.catalogue):
            field = f"catalogue.{index}.code"
            if entry.code in AUTOMATIC_CODES:
                raise _refuse(field, f"le code « {entry.code} » est réservé au calcul automatique")
            if entry.code in seen:
                raise _refuse(field, f"le code « {entry.code} » apparaît deux fois")
            seen.add(entry.code)
        return self

    def catalogue_entry(self, code: str) -> CatalogueEntry:
        for entry in self.catalogue:
            if entry.code == code:
                return entry
        raise KeyError(code)


class ReportRules(_Section):
    author_rule: AuthorRule = "winner"
    deadline_days: NaturalInt = 7
    late_malus_per_week: NegativeInt = -1


class CupRules(_Section):
    playoff_players: NaturalInt = 10
    playoff_tables: list[Text] = Field(default_factory=lambda: list(PLAYOFF_TABLES))
    qualifiers_per_table: NaturalInt = 2
    best_thirds: NaturalInt = 1
    final_players: PositiveInt = 5
    minimum_players: PositiveInt = 4

    @model_validator(mode="after")
    def _consistent(self) -> "CupRules":
        if not self.playoff_tables:
            raise _refuse("playoff_tables", "au moins une table est nécessaire")
        _require_unique(self.playoff_tables, "playoff_tables")
        return self


class Rulebook(_Section):
    deal: DealRules = Field(default_factory=DealRules)
    pot: PotRules = Field(default_factory=PotRules)
    championship: ChampionshipRules = Field(default_factory=ChampionshipRules)
    reports: ReportRules = Field(default_factory=ReportRules)
    cup: CupRules = Field(default_factory=CupRules)


# --- loading -------------------------------------------------------------------------------------

_MESSAGES = {
    "missing": "paramètre manquant",
    "extra_forbidden": "paramètre inconnu",
    "model_type": "doit être une table TOML",
    "model_attributes_type": "doit être une table TOML",
    "dict_type": "doit être une table TOML",
    "list_type": "doit être une liste",
}


def _translate(error: ValidationError) -> RulebookError:
    first = error.errors()[0]
    path = [str(part) for part in first["loc"] if part != "[key]"]
    if first["type"] == "extra_forbidden" and ".".join(path) in RETIRED:
        return RulebookError(".".join(path), RETIRED[".".join(path)])
    if first["type"] == "rulebook_field":
        path.append(first["ctx"]["field"])
        message = first["ctx"]["message"]
    elif first["type"] == "rulebook":
        message = first["msg"]
    else:
        message = _MESSAGES.get(first["type"], "valeur invalide")
    return RulebookError(".".join(path) or "rulebook", message)


def load_rulebook_data(data: Mapping[str, Any]) -> Rulebook:
    """Validate an already parsed rulebook (a TOML document as a dict)."""
    try:
        return Rulebook.model_validate(data)
    except ValidationError as error:
        raise _translate(error) from None


# The shipped rulebook, comments included, is about 7,000 characters; no real one comes near this.
MAX_RULEBOOK_CHARS = 100_000


@functools.lru_cache(maxsize=16)
def _toml_document(text: str) -> dict:
    """The TOML document of a rulebook's text, parsed once per process: a page reads its season's
    rulebook at every request, and a season's text hardly ever changes. Never handed out: the
    rulebook validated from it is built of containers of its own (tests/scoring/test_rulebook.py)."""
    return tomllib.loads(text)


def load_rulebook(text: str) -> Rulebook:
    if len(text) > MAX_RULEBOOK_CHARS:
        raise RulebookError(
            "rulebook", f"fichier trop long ({len(text)} caractères, au plus {MAX_RULEBOOK_CHARS})"
        )
    try:
        return load_rulebook_data(_toml_document(text))
    except tomllib.TOMLDecodeError as error:
        where = re.search(r"line (\d+), column (\d+)", str(error))
        detail = f" à la ligne {where[1]}, colonne {where[2]}" if where else ""
        raise RulebookError("rulebook", f"fichier TOML illisible{detail}") from None
    except RecursionError:
        raise RulebookError("rulebook", "fichier TOML illisible : trop d'imbrication de tableaux") from None


def default_rulebook_text() -> str:
    return resources.files("scoring").joinpath("default_rulebook.toml").read_text("utf-8")


def load_default_rulebook() -> Rulebook:
    return load_rulebook(default_rulebook_text())
