"""The round sheet (docs/feuille.md) as pydantic v2 models: the one description of its structure.

Strict types (``true`` is not a number, ``"3"`` is not an integer), unknown keys refused at every
level. Each value rule is the entry forms' (``federation.validators``), raised as a
``PydanticCustomError`` of type ``sheet`` whose ``message`` is already French; pydantic's own
errors (types, missing or unknown keys) are put into French by ``championship.sheets.parse``.

Rules between fields of one sheet (table size, seated players, dates) are checked here too, from
the fields already validated (pydantic validates them in the order declared). What needs the
database (season, registered players, round number free, rights, catalogue) is in
``championship.sheets.checks``; the rules of the game are ``scoring``'s.

``sheet_json_schema()`` publishes the structure as a JSON Schema (``manage.py sheet_schema``,
committed as ``docs/sheet.schema.json``).
"""

import datetime
import re
from decimal import Decimal
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from championship import bounds
from championship.models import Round
from championship.reports.display import REPORT_TEXT_MAX_LENGTH
from federation import validators
from federation.models import SEASON_NAME
from scoring.deal import DealInput, Poignee
from scoring.french import num as french_number
from scoring.french import of_name
from scoring.rulebook import MAX_CARD_POINTS
from scoring.vocabulary import (
    CALLED_RANKS,
    CONTRACT_ALIASES,
    CONTRACTS,
    KINDS,
    MAX_PLAYERS,
    PLAYOFF_TABLES,
    POIGNEE_SIZES,
    SIDES,
    SUITS,
    TABLE_SIZES,
)
from scoring.vocabulary import COLOURS as COLOUR_CODES

STAGES = (Round.REGULAR, Round.PLAYOFF, Round.FINAL)
BOUTS = validators.Bounds(0, 3)
NAME_MAX_LENGTH = 80
PLACE_MAX_LENGTH = 120
NOTE_MAX_LENGTH = 200
SHEET_ERROR = "sheet"  # the error type of every rule of this module; ctx["message"] is French


# --- errors --------------------------------------------------------------------------------------


def fail(message):
    """Refuse the value being validated with a French message."""
    raise PydanticCustomError(SHEET_ERROR, "{message}", {"message": message})


def _line(loc, message, value=None):
    return InitErrorDetails(
        type=PydanticCustomError(SHEET_ERROR, "{message}", {"message": message}), loc=loc, input=value
    )


def _reraise(title, caught=None, problems=(), *, problems_first=False):
    """Raise the errors ``caught`` from pydantic (a ValidationError or None) together with
    ``problems``, [(loc relative to the value validated, French message)], after them or before
    them; nothing when there is none."""
    lines = []
    for error in caught.errors() if caught is not None else ():
        kind = error["type"]
        if kind == SHEET_ERROR:
            kind = PydanticCustomError(SHEET_ERROR, "{message}", error["ctx"])
        line = {"type": kind, "loc": error["loc"], "input": error.get("input")}
        if "ctx" in error and not isinstance(kind, PydanticCustomError):
            line["ctx"] = error["ctx"]
        lines.append(line)
    added = [_line(loc, message) for loc, message in problems]
    lines = added + lines if problems_first else lines + added
    if lines:
        raise ValidationError.from_exception_data(title, lines)


def json_type(value):
    """How a JSON value is named in an error: « un texte », « une liste », « null »…"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "un booléen"
    if isinstance(value, int | float):
        return "un nombre"
    if isinstance(value, str):
        return "un texte"
    if isinstance(value, list):
        return "une liste"
    return "un objet"


# --- value types ---------------------------------------------------------------------------------


def _text_rule(*, max_length=None, empty=True, formula=False, multiline=False):
    """A text: one line unless ``multiline``; ``formula`` for a name or a place, which an export
    may put in a spreadsheet. The rules are the entry forms' (federation.validators)."""

    def check(value):
        if not empty and not value.strip():
            fail("ne doit pas être vide")
        if max_length is not None and len(value) > max_length:
            fail(f"{max_length} caractères au plus (ici {len(value)})")
        if formula:
            problem = validators.name_problem(value)
        else:
            problem = validators.text_problem(value, multiline=multiline)
        if problem:
            fail(problem)
        return value

    return AfterValidator(check)


def _text_schema(description, **schema):
    return WithJsonSchema({"type": "string", **schema, "description": description})


def _choice(choices, unknown, description):
    """One of ``choices``; ``unknown`` names a wrong value, e.g. « phase inconnue »."""

    def check(value):
        if problem := validators.text_problem(value):
            fail(problem)
        if value not in choices:
            fail(f"{unknown} « {value} » (possibles : {', '.join(choices)})")
        return value

    return Annotated[str, AfterValidator(check), _text_schema(description, enum=list(choices))]


def _integral(value):
    """12.0 is the integer 12, as JSON Schema has it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _integer(bounds, description):
    """An integer within ``bounds`` (federation.validators): what the database holds and a game
    night makes sense of."""

    def check(value):
        if problem := validators.bounds_problem(value, bounds):
            fail(problem)
        return value

    schema = {"type": "integer", "minimum": bounds.low, "maximum": bounds.high, "description": description}
    return Annotated[int, BeforeValidator(_integral), AfterValidator(check), WithJsonSchema(schema)]


def _points(value):
    """Card points: a number within 0–91, halves allowed (44.5), as a Decimal."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        fail(f"un nombre est attendu (demis permis), pas {json_type(value)}")
    shown = french_number(value)
    if not 0 <= value <= MAX_CARD_POINTS:
        fail(f"{shown} n'est pas entre 0 et {MAX_CARD_POINTS}")
    if (value * 2) % 1 != 0:
        fail(f"{shown} n'est pas un multiple de 0,5")
    return Decimal(str(value))


def _date(value):
    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            raise ValueError
        return datetime.date.fromisoformat(value)
    except ValueError:
        fail(f"« {value} » n'est pas une date AAAA-MM-JJ valide")


def _season_name(value):
    if not SEASON_NAME.match(value) or int(value[5:]) != int(value[:4]) + 1:
        fail(f"« {value} » n'est pas un nom de saison (par exemple « 2010-2011 »)")
    return value


def _name(description):
    return Annotated[
        str,
        _text_rule(max_length=NAME_MAX_LENGTH, empty=False, formula=True),
        _text_schema(description, minLength=1, maxLength=NAME_MAX_LENGTH),
    ]


def _date_type(description):
    return Annotated[
        str, AfterValidator(_date), _text_schema(description, format="date", pattern=r"^\d{4}-\d{2}-\d{2}$")
    ]


PlayerName = _name("nom d'un joueur inscrit")
Points = Annotated[
    Any,
    PlainValidator(_points),
    WithJsonSchema(
        {
            "type": "number",
            "minimum": 0,
            "maximum": MAX_CARD_POINTS,
            "multipleOf": 0.5,
            "description": f"points de cartes de l'attaque, de 0 à {MAX_CARD_POINTS}, demis permis (44.5)",
        }
    ),
]
RoundTotal = _integer(bounds.ROUND_TOTAL, "total de manche d'un joueur")


def _no_default(schema):
    """For a key that may be absent but not null: no ``"default": null`` in the JSON Schema."""
    schema.pop("default", None)


def _deals_schema(schema):
    schema.update(minItems=1, maxItems=bounds.DEAL_NUMBER.high)
    _no_default(schema)


# --- the models ----------------------------------------------------------------------------------


class _Part(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="forbid", allow_inf_nan=False, field_title_generator=lambda name, _info: name
    )


class PlayerEntry(_Part):
    """Un joueur assis, dans l'ordre de la table (l'ordre des donneurs)."""

    model_config = ConfigDict(title="Joueur")

    name: PlayerName = Field(description="le joueur ; deux fois le même nom est refusé")
    colour: _choice(COLOUR_CODES, "couleur inconnue", "couleur des jetons, une par joueur") | None = Field(
        None, description="couleur des jetons, une par joueur"
    )


class PoigneeEntry(_Part):
    """Une poignée montrée."""

    model_config = ConfigDict(title="Poignée")

    player: _name("le joueur qui la montre, assis") = Field(description="le joueur qui la montre, assis")
    size: _choice(POIGNEE_SIZES, "taille de poignée inconnue", "taille de la poignée") = Field(
        description="taille de la poignée"
    )


class ChelemEntry(_Part):
    """Le chelem d'une donne."""

    model_config = ConfigDict(title="Chelem")

    announced: bool = Field(False, description="chelem annoncé par le preneur")
    made_by: _choice(SIDES, "camp inconnu", "camp qui a fait le chelem") | None = Field(
        None, description="camp qui a fait le chelem, null : aucun"
    )


class DealEntry(_Part):
    """Une donne, numérotée à partir de 1 dans l'ordre de la liste (regles.md §1)."""

    model_config = ConfigDict(title="Donne")

    dealer: _name("le donneur, assis") = Field(description="le donneur, assis")
    kind: _choice(KINDS, "type de donne inconnu", "type de donne") = Field(
        None,
        description="type de donne ; « played » par défaut quand « taker » est renseigné, sinon obligatoire",
        json_schema_extra=_no_default,
    )
    taker: _name("le preneur, assis") | None = Field(None, description="le preneur, assis")
    contract: _choice((*CONTRACTS, *CONTRACT_ALIASES), "contrat inconnu", "contrat") | None = Field(
        None, description="contrat ; « petite » vaut « prise »"
    )
    called: _choice(SUITS, "couleur inconnue", "couleur appelée, à 5 joueurs") | None = Field(
        None, description="couleur appelée, à 5 joueurs"
    )
    called_rank: _choice(CALLED_RANKS, "carte appelée inconnue", "carte appelée") = Field(
        "roi", description="carte appelée"
    )
    partner: _name("l'appelé, assis") | None = Field(
        None,
        description="l'appelé, assis, ou null quand le preneur joue seul ; à 5 joueurs, obligatoire pour une "
        "donne jouée",
    )
    bouts: _integer(BOUTS, "bouts de l'attaque") | None = Field(
        None, description="bouts de l'attaque, de 0 à 3"
    )
    points: Points | None = Field(None, description="points de cartes de l'attaque")
    poignees: list[PoigneeEntry] | None = Field(None, description="poignées montrées")
    miseres: list[_name("un joueur assis qui annonce une misère")] | None = Field(
        None, description="joueurs qui annoncent une misère"
    )
    petit_au_bout: _choice(SIDES, "camp inconnu", "camp qui mène le petit au bout") | None = Field(
        None, description="camp qui mène le petit au bout"
    )
    chelem: ChelemEntry | None = Field(None, description="chelem annoncé ou réalisé")

    @model_validator(mode="wrap")
    @classmethod
    def _kind(cls, data, handler):
        """A deal with a taker is played; without one, its kind is required (reported with the
        deal's other errors)."""
        problems = []
        if isinstance(data, dict) and "kind" not in data and data.get("taker") is None:
            missing = (
                "type de donne manquant : indiquer le preneur (« taker ») d'une donne jouée, ou « kind »"
            )
            problems.append((("kind",), f"{missing} ({', '.join(KINDS[1:])})"))
        try:
            deal = handler(data)
        except ValidationError as error:
            _reraise(cls.__name__, error, problems, problems_first=True)
            raise
        _reraise(cls.__name__, problems=problems)
        if deal.kind is None:
            deal.kind = KINDS[0]
        return deal

    @model_validator(mode="after")
    def _partner(self, info):
        """At 5 players, a played deal names its partner (or null). The table size comes from the
        sheet's players, once they are valid (through the validation context)."""
        table_size = (info.context or {}).get("table_size")
        if table_size == MAX_PLAYERS and self.kind == KINDS[0] and "partner" not in self.model_fields_set:
            _reraise(
                "DealEntry",
                problems=[
                    (("partner",), "à 5 joueurs, indiquer l'appelé, ou null quand le preneur joue seul")
                ],
            )
        return self

    def to_input(self):
        """The deal as the scoring engine takes it."""
        chelem = self.chelem or ChelemEntry()
        return DealInput(
            dealer=self.dealer,
            kind=self.kind,
            taker=self.taker,
            contract=self.contract,
            called=self.called,
            called_rank=self.called_rank,
            partner=self.partner,
            bouts=self.bouts,
            points=self.points,
            poignees=tuple(Poignee(item.player, item.size) for item in self.poignees or ()),
            miseres=tuple(self.miseres or ()),
            petit_au_bout=self.petit_au_bout,
            chelem_announced=chelem.announced,
            chelem_made_by=chelem.made_by,
        )


class AdjustmentEntry(_Part):
    """Un bonus ou malus du catalogue de la saison (regles.md §5.4, §5.5)."""

    model_config = ConfigDict(title="Bonus ou malus")

    player: _name("un joueur assis, ou un autre joueur inscrit") = Field(
        description="un joueur assis, ou un autre joueur inscrit (une absence, par exemple)"
    )
    code: Annotated[str, _text_rule(), _text_schema("code du catalogue de la saison")] = Field(
        description="code du catalogue de la saison"
    )
    points: _integer(bounds.ADJUSTMENT_POINTS, "points, à la place de ceux du catalogue") | None = Field(
        None, description="points, à la place de ceux du catalogue (Direction seulement, sur le site)"
    )
    note: (
        Annotated[
            str, _text_rule(max_length=NOTE_MAX_LENGTH), _text_schema("la raison", maxLength=NOTE_MAX_LENGTH)
        ]
        | None
    ) = Field(None, description=f"la raison, {NOTE_MAX_LENGTH} caractères au plus")


class ReportEntry(_Part):
    """Le compte-rendu de la manche."""

    model_config = ConfigDict(title="Compte-rendu")

    author: _name("l'auteur, assis") = Field(description="l'auteur, un joueur assis")
    filed: _date_type("date de dépôt") | None = Field(
        None, description="date de dépôt AAAA-MM-JJ, pas avant la manche ; null : pas encore rendu"
    )
    text: (
        Annotated[
            str,
            _text_rule(max_length=REPORT_TEXT_MAX_LENGTH, multiline=True),
            _text_schema("le récit en Markdown", maxLength=REPORT_TEXT_MAX_LENGTH),
        ]
        | None
    ) = Field(None, description="le récit en Markdown ; null vaut un texte vide")


TOTALS_DESCRIPTION = "un total entier par joueur assis, ni plus ni moins"


class Sheet(_Part):
    """La feuille de manche de Tarot-Bière (docs/feuille.md) : la feuille de marque d'une table
    pour une soirée. Donne soit « deals », soit « totals »."""

    model_config = ConfigDict(
        title="Feuille de manche",
        json_schema_extra={
            "oneOf": [{"required": ["deals"]}, {"required": ["totals"]}],
            "if": {"properties": {"stage": {"const": Round.PLAYOFF}}, "required": ["stage"]},
            "then": {"required": ["table"], "properties": {"table": {"enum": list(PLAYOFF_TABLES)}}},
        },
    )

    season: Annotated[
        str, AfterValidator(_season_name), _text_schema("la saison", pattern=r"^\d{4}-\d{4}$")
    ] = Field(description="la saison, deux années consécutives : « 2010-2011 »")
    number: _integer(bounds.ROUND_NUMBER, "numéro de la manche") = Field(
        description="numéro de la manche, nouveau pour la saison, la phase et la table"
    )
    date: _date_type("date de la manche") = Field(
        description="date de la manche AAAA-MM-JJ, dans la saison (du 1er septembre au 30 juin)"
    )
    place: (
        Annotated[
            str,
            _text_rule(max_length=PLACE_MAX_LENGTH, formula=True),
            _text_schema("le lieu", maxLength=PLACE_MAX_LENGTH),
        ]
        | None
    ) = Field(None, description=f"le lieu, {PLACE_MAX_LENGTH} caractères au plus")
    stage: _choice(STAGES, "phase inconnue", "phase") = Field(Round.REGULAR, description="phase de la saison")
    table: Annotated[str, _text_schema("table des play-offs", enum=[*PLAYOFF_TABLES, ""])] | None = Field(
        None,
        validate_default=True,
        description="table des play-offs (« A » ou « B »), obligatoire en play-off, interdite sinon",
    )
    players: list[PlayerEntry] = Field(
        description="les joueurs assis, 4 ou 5, dans l'ordre de la table",
        json_schema_extra={"minItems": min(TABLE_SIZES), "maxItems": max(TABLE_SIZES)},
    )
    deals: list[DealEntry] = Field(
        None,
        description="les donnes, dans l'ordre ; ou « totals »",
        json_schema_extra=_deals_schema,
    )
    totals: dict[str, RoundTotal] = Field(
        None,
        description=f"variante « totaux seuls », au lieu de « deals » : {TOTALS_DESCRIPTION}, de somme nulle",
        json_schema_extra=_no_default,
    )
    adjustments: list[AdjustmentEntry] | None = Field(None, description="bonus et malus du catalogue")
    report: ReportEntry | None = Field(None, description="le compte-rendu")
    expected_totals: dict[str, RoundTotal] | None = Field(
        None, description=f"totaux de la feuille papier, comparés au calcul : {TOTALS_DESCRIPTION}"
    )
    results: Any = Field(None, description="écrit par l'export, ignoré à l'import")

    @model_validator(mode="wrap")
    @classmethod
    def _deals_or_totals(cls, data, handler):
        """A sheet gives either ``deals`` or ``totals`` (when both, neither is read): reported
        with every other error."""
        problems = []
        if isinstance(data, dict):
            if "deals" in data and "totals" in data:
                data = {key: value for key, value in data.items() if key not in ("deals", "totals")}
                problems.append(
                    (("totals",), "une feuille donne soit « deals », soit « totals », pas les deux")
                )
            elif "deals" not in data and "totals" not in data:
                problems.append(
                    (("deals",), "champ obligatoire manquant (ou « totals » pour une soirée sans donnes)")
                )
        try:
            sheet = handler(data)
        except ValidationError as error:
            _reraise(cls.__name__, error, problems)
            raise
        _reraise(cls.__name__, problems=problems)
        return sheet

    @field_validator("table", mode="wrap")
    @classmethod
    def _table(cls, value, handler, info):
        if "stage" not in info.data:  # a wrong stage: the table means nothing yet
            return value
        if info.data["stage"] == Round.PLAYOFF:
            if value is None:
                fail("la table des play-offs (« A » ou « B ») est obligatoire")
            value = handler(value)
            if value not in PLAYOFF_TABLES:
                fail(f"table inconnue « {value} » (possibles : {', '.join(PLAYOFF_TABLES)})")
            return value
        if value not in (None, ""):
            fail("une table (A ou B) ne se donne que pour les play-offs")
        return ""

    @field_validator("players", mode="wrap")
    @classmethod
    def _players(cls, value, handler, info):
        """4 or 5 players, each seated once, each colour once; valid, they tell the deals the
        table size (through the validation context)."""
        problems = []
        if isinstance(value, list) and len(value) not in TABLE_SIZES:
            problems.append(((), f"une table compte 4 ou 5 joueurs, pas {len(value)}"))
        try:
            players = handler(value)
        except ValidationError as error:
            _reraise("players", error, problems, problems_first=True)
            raise
        names, colours = [], []
        for index, player in enumerate(players):
            if player.name in names:
                problems.append(((index, "name"), f"{player.name} est deux fois à la table"))
            elif player.colour and player.colour in colours:
                problems.append(((index, "colour"), f"la couleur {player.colour} est déjà prise"))
            names.append(player.name)
            colours.append(player.colour)
        _reraise("players", problems=problems)
        if info.context is not None:
            info.context["table_size"] = len(players)
        return players

    @field_validator("deals", mode="wrap")
    @classmethod
    def _deals(cls, value, handler):
        if isinstance(value, list):
            if not value:
                fail("au moins une donne est attendue (ou « totals » pour une soirée sans donnes)")
            if problem := bounds.deal_number_problem(len(value)):
                fail(f"{problem} (ici {len(value)})")
        return handler(value)

    @field_validator("totals", "expected_totals", mode="wrap")
    @classmethod
    def _totals(cls, value, handler, info):
        """One total per seated player, no more, no less (when the players are valid)."""
        problems = []
        if isinstance(value, dict) and "players" in info.data:
            seated = [player.name for player in info.data["players"]]
            problems += [((name,), f"{name} n'est pas à cette table") for name in value if name not in seated]
            problems += [((), f"il manque le total {of_name(name)}") for name in seated if name not in value]
        try:
            totals = handler(value)
        except ValidationError as error:
            _reraise("totals", error, problems)
            raise
        _reraise("totals", problems=problems)
        return totals

    @field_validator("report")
    @classmethod
    def _report(cls, report, info):
        """Its author sat at the table; it was not filed before the round."""
        problems = []
        seated = [player.name for player in info.data.get("players", ())]
        if report is not None and "players" in info.data and report.author not in seated:
            problems.append((("author",), f"{report.author} n'est pas à cette table"))
        if report is not None and report.filed is not None and "date" in info.data:
            date = info.data["date"]
            if report.filed < date:
                problems.append(
                    (("filed",), f"rendu le {report.filed:%d/%m/%Y}, avant la manche du {date:%d/%m/%Y}")
                )
        _reraise("report", problems=problems)
        return report

    @classmethod
    def model_validate(cls, obj, *, context=None, **options):
        """The players tell the deals the table size through the context: always give one."""
        return super().model_validate(obj, context={} if context is None else context, **options)

    @classmethod
    def model_validate_json(cls, json_data, *, context=None, **options):
        return super().model_validate_json(json_data, context={} if context is None else context, **options)

    @property
    def seated(self):
        return [player.name for player in self.players]


def validate(data):
    """The sheet model of parsed JSON, or pydantic's ValidationError (``parse`` translates it)."""
    return Sheet.model_validate(data, strict=True, context={})


def sheet_json_schema():
    """The JSON Schema of a sheet (draft 2020-12), with the French descriptions of the fields."""
    schema = Sheet.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
