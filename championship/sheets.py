"""The round sheet (feuille de marque) as JSON: read, check, import and export (docs/feuille.md).

A sheet goes through four steps, each refusing with French errors that name the file, the deal
(1-based) and the field as the sheet spells it:

1. JSON → Python (a malformed file gives its line and column);
2. structure: keys and types, checked here, with every error of the file collected;
3. the rules: each deal is scored by ``scoring``, whose field names are mapped back to the
   sheet's (``chelem_made_by`` → ``chelem.made_by``), then the round and ``expected_totals``;
4. the database: season, players, round, seats, deals, adjustments, report, then
   ``services.rescore_round`` (and ``homologate_round``) store every figure.

``import_sheets`` runs all the files of one import in a single transaction: one bad file and
nothing is written. ``export_sheet`` gives the sheet back with its ``results``.
"""

import datetime
import difflib
import json
import re
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import PurePath

from django.db import IntegrityError, transaction
from django.utils import translation

from championship.models import COLOURS, Adjustment, ChampionshipLine, Deal, Report, Round, Seat
from championship.reports import REPORT_TEXT_MAX_LENGTH, round_late_report_line
from championship.services import RoundError, homologate_round, rescore_round
from federation import validators
from federation.models import SEASON_NAME, Player, Season
from federation.roles import can_enter_rounds, is_board
from scoring.championship import ITEM_ORDER
from scoring.deal import CALLED_RANKS, CONTRACT_ALIASES, KINDS, SIDES, SUITS, DealInput, Poignee, score_deal
from scoring.errors import ScoringError
from scoring.round import score_round, totals_only_round
from scoring.rulebook import CONTRACTS, MAX_CARD_POINTS, POIGNEE_SIZES, load_default_rulebook

SHEET_KEYS = (
    "season",
    "number",
    "date",
    "place",
    "stage",
    "table",
    "players",
    "deals",
    "totals",
    "adjustments",
    "report",
    "expected_totals",
    "results",
)
PLAYER_KEYS = ("name", "colour")
DEAL_KEYS = (
    "dealer",
    "kind",
    "taker",
    "contract",
    "called",
    "called_rank",
    "partner",
    "bouts",
    "points",
    "poignees",
    "miseres",
    "petit_au_bout",
    "chelem",
)
POIGNEE_KEYS = ("player", "size")
CHELEM_KEYS = ("announced", "made_by")
ADJUSTMENT_KEYS = ("player", "code", "points", "note")
REPORT_KEYS = ("author", "filed", "text")
STAGES = (Round.REGULAR, Round.PLAYOFF, Round.FINAL)
PLAYOFF_TABLES = ("A", "B")
COLOUR_CODES = tuple(code for code, _label in COLOURS)
MAX_SHEET_BYTES = 1_000_000
MAX_JSON_DEPTH = 20  # a sheet needs 5: sheet, deals, deal, poignees, poignee
BOUTS = validators.Bounds(0, 3)

DEAL_CHOICES = {
    "contract": ((*CONTRACTS, *CONTRACT_ALIASES), "contrat inconnu"),
    "called": (SUITS, "couleur inconnue"),
    "called_rank": (CALLED_RANKS, "carte appelée inconnue"),
    "petit_au_bout": (SIDES, "camp inconnu"),
}

# Field names of the scoring engine that the sheet spells differently.
ENGINE_FIELDS = {"chelem_made_by": "chelem.made_by", "chelem_announced": "chelem.announced"}

JSON_MESSAGES = {
    "Expecting value": "valeur attendue",
    "Expecting ',' delimiter": "virgule attendue",
    "Expecting ':' delimiter": "deux-points attendu",
    "Expecting property name enclosed in double quotes": "nom de clé entre guillemets doubles attendu",
    "Unterminated string starting at": "texte sans guillemet fermant",
    "Extra data": "contenu en trop après la fin du JSON",
    "Invalid control character at": "caractère de contrôle dans un texte",
    "Invalid \\escape": "séquence d'échappement invalide",
    "Illegal trailing comma before end of object": "virgule en trop avant la fin de l'objet",
    "Illegal trailing comma before end of array": "virgule en trop avant la fin de la liste",
}

CREATE_PLAYERS_HINT = "l'option --create-players l'inscrit"
IMPORT_REASON = "importée depuis la feuille {file}"
HOMOLOGATION_REASON = "importée et homologuée"
REASON_MAX_LENGTH = 100  # what django-simple-history keeps of a change reason


class SheetError(Exception):
    """One error of one sheet: ``demo.json, donne 3, champ « points » : 92 n'est pas entre 0 et 91``."""

    def __init__(self, file, message, *, deal=None, field=None):
        self.file = file
        self.message = message
        self.deal = deal
        self.field = field
        super().__init__(str(self))

    @property
    def where(self):
        """``demo.json, donne 3, champ « points »``: the file, then the deal and field when known."""
        where = [self.file]
        if self.deal is not None:
            where.append(f"donne {self.deal}")
        if self.field is not None:
            where.append(f"champ « {self.field} »")
        return ", ".join(where)

    def __str__(self):
        return f"{self.where} : {self.message}"


class SheetImportError(Exception):
    """An import refused: ``errors`` lists every ``SheetError`` found; nothing was written."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("\n".join(self.messages))

    @property
    def messages(self):
        return [str(error) for error in self.errors]


@dataclass
class ImportedRound:
    file: str
    round: Round
    warnings: list = field(default_factory=list)


@dataclass
class _Sheet:
    """A checked sheet, ready to be written: names everywhere, players not yet created."""

    file: str
    season_name: str
    season: Season | None
    rulebook: object
    number: int
    date: datetime.date
    place: str
    stage: str
    table: str
    players: list  # [(name, colour)] in seating order
    known: dict  # name -> Player for the players already registered (seated or adjusted)
    deals: list | None  # [DealInput]
    totals: dict | None
    adjustments: list  # [(name, code, points or None, note)]
    report: dict | None  # {"author", "filed", "text"}
    result: object  # scoring.round.RoundResult


# --- small helpers -------------------------------------------------------------------------------


def _json_type(value):
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


def _french_number(value):
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace(".", ",")


def season_dates(name):
    """Sept 1 of the first year to June 30 of the second: ``2010-2011`` → 2010-09-01, 2011-06-30."""
    first, second = (int(part) for part in name.split("-"))
    return datetime.date(first, 9, 1), datetime.date(second, 6, 30)


def card_points(value):
    """Card points for JSON: 49 as an int, 44.5 as a float."""
    if value is None:
        return None
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def _rights(user, season):
    """(may enter rounds, is board) for ``user`` in ``season``; ``None`` is the command line."""
    if user is None:
        return True, True
    if season is None:
        return user.is_superuser, user.is_superuser
    return can_enter_rounds(user, season), is_board(user, season)


def _stage_phrase(stage, table, number):
    if stage == Round.PLAYOFF:
        return f"la manche {number} de la table {table} des play-offs"
    if stage == Round.FINAL:
        return f"la manche {number} de la finale"
    return f"la manche {number}"


# --- step 1: JSON ----------------------------------------------------------------------------------


def _no_duplicate_keys(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(f"la clé « {key} » apparaît deux fois dans le même objet")
        result[key] = value
    return result


def _no_constant(name):
    raise ValueError(f"{name} n'est pas un nombre JSON")


def parse_json(file, data):
    """The sheet's JSON as Python, or a SheetImportError giving line and column."""
    if isinstance(data, bytes):
        if len(data) > MAX_SHEET_BYTES:
            raise SheetImportError([SheetError(file, "fichier trop gros pour une feuille de manche")])
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise SheetImportError([SheetError(file, "le fichier n'est pas un texte UTF-8")]) from None
    too_deep = f"JSON refusé : imbrication trop profonde ({MAX_JSON_DEPTH} niveaux au plus)"
    try:
        parsed = json.loads(data, object_pairs_hook=_no_duplicate_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        detail = JSON_MESSAGES.get(error.msg, error.msg)
        message = f"JSON illisible à la ligne {error.lineno}, colonne {error.colno} ({detail})"
        raise SheetImportError([SheetError(file, message)]) from None
    except RecursionError:
        raise SheetImportError([SheetError(file, too_deep)]) from None
    except ValueError as error:
        if "integer string conversion" in str(error):
            error = f"nombre trop long ({sys.get_int_max_str_digits()} chiffres au plus)"
        raise SheetImportError([SheetError(file, f"JSON refusé : {error}")]) from None
    if _depth(parsed) > MAX_JSON_DEPTH:
        raise SheetImportError([SheetError(file, too_deep)])
    return parsed


def _depth(value):
    """How deeply lists and objects nest in parsed JSON (iteratively: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= MAX_JSON_DEPTH:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


# --- step 2 and 3: structure and rules --------------------------------------------------------------

_BAD = object()


class _Reader:
    """Checks one parsed sheet; collects every error instead of stopping at the first."""

    def __init__(self, file, create_players=False, homologate=False, user=None, players_hint=None):
        self.file = file
        self.players_hint = players_hint or CREATE_PLAYERS_HINT
        self.create_players = create_players
        self.homologate = homologate
        self.user = user
        self.errors = []

    def fail(self, field_, message, deal=None):
        self.errors.append(SheetError(self.file, message, deal=deal, field=field_))
        return _BAD

    # value checks: each returns the value, or _BAD after recording the error

    def keys(self, value, allowed, prefix="", deal=None, required=()):
        if not isinstance(value, dict):
            name = prefix.rstrip(".") or None
            self.fail(name, f"un objet {{…}} est attendu, pas {_json_type(value)}", deal)
            return False
        ok = True
        for key in value:
            if key not in allowed:
                ok = False
                self.fail(f"{prefix}{key}", f"clé inconnue (clés possibles : {', '.join(allowed)})", deal)
        for key in required:
            if key not in value:
                ok = False
                self.fail(f"{prefix}{key}", "champ obligatoire manquant", deal)
        return ok

    def text(self, value, field_, deal=None, *, null=False, max_length=None, empty=True, **rules):
        """A text: one line unless ``multiline=True``; ``formula=True`` for a name or a place, which
        an export may put in a spreadsheet. The rules are the entry forms' (federation.validators)."""
        if value is None and null:
            return None
        if not isinstance(value, str):
            return self.fail(field_, f"un texte est attendu, pas {_json_type(value)}", deal)
        if not empty and not value.strip():
            return self.fail(field_, "ne doit pas être vide", deal)
        if max_length is not None and len(value) > max_length:
            return self.fail(field_, f"{max_length} caractères au plus (ici {len(value)})", deal)
        if rules.get("formula"):
            problem = validators.name_problem(value)
        else:
            problem = validators.text_problem(value, multiline=rules.get("multiline", False))
        if problem:
            return self.fail(field_, problem, deal)
        return value

    def choice(self, value, field_, choices, unknown, deal=None, *, null=False):
        """One of ``choices``; ``unknown`` names a wrong value, e.g. « phase inconnue »."""
        value = self.text(value, field_, deal, null=null)
        if value is None or value is _BAD:
            return value
        if value not in choices:
            return self.fail(field_, f"{unknown} « {value} » (possibles : {', '.join(choices)})", deal)
        return value

    def integer(self, value, field_, deal=None, *, bounds, null=False):
        """An integer within `bounds` (federation.validators): what the database holds and a
        game night makes sense of."""
        if value is None and null:
            return None
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            shown = _french_number(value) if isinstance(value, float) else _json_type(value)
            return self.fail(field_, f"un nombre entier est attendu, pas {shown}", deal)
        if problem := validators.bounds_problem(value, bounds):
            return self.fail(field_, problem, deal)
        return value

    def date(self, value, field_, deal=None, *, null=False):
        value = self.text(value, field_, deal, null=null)
        if value is None or value is _BAD:
            return value
        try:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise ValueError
            return datetime.date.fromisoformat(value)
        except ValueError:
            return self.fail(field_, f"« {value} » n'est pas une date AAAA-MM-JJ valide", deal)

    def name(self, value, field_, deal=None, *, null=False):
        return self.text(value, field_, deal, null=null, max_length=80, empty=False, formula=True)

    def score_map(self, value, field_, seated):
        """An object {player: integer total}, one entry per seated player."""
        if not isinstance(value, dict):
            self.fail(field_, f"un objet {{joueur: total}} est attendu, pas {_json_type(value)}")
            return None
        result = {}
        for name, total in value.items():
            if name not in seated:
                self.fail(f"{field_}.{name}", f"{name} n'est pas assis à cette table")
                continue
            total = self.integer(total, f"{field_}.{name}", bounds=validators.ROUND_TOTAL)
            if total is not _BAD:
                result[name] = total
        for name in seated:
            if name not in value:
                self.fail(field_, f"il manque le total de {name}")
        return result if len(result) == len(seated) else None

    # the sheet

    def read(self, sheet):
        if not isinstance(sheet, dict):
            self.fail(None, f"la feuille doit être un objet JSON {{…}}, pas {_json_type(sheet)}")
            return None
        self.keys(sheet, SHEET_KEYS, required=("season", "number", "date", "players"))
        if "deals" in sheet and "totals" in sheet:
            self.fail("totals", "une feuille donne soit « deals », soit « totals », pas les deux")
        elif "deals" not in sheet and "totals" not in sheet:
            self.fail("deals", "champ obligatoire manquant (ou « totals » pour une soirée sans donnes)")

        season_name, season, rulebook = self.read_season(sheet.get("season"))
        number = _BAD
        if "number" in sheet:
            number = self.integer(sheet["number"], "number", bounds=validators.ROUND_NUMBER)
        date = self.date(sheet["date"], "date") if "date" in sheet else _BAD
        place = self.text(sheet.get("place"), "place", null=True, max_length=120, formula=True)
        stage, table = self.read_stage(sheet)
        if season_name is not _BAD and date is not _BAD:
            self.check_date(season_name, season, date)
        if _BAD not in (number, stage, table):
            self.check_round_is_new(season, season_name, stage, table, number)
        if self.homologate and season_name is not _BAD and not _rights(self.user, season)[1]:
            self.fail("season", f"seule la Direction de la saison {season_name} peut homologuer une manche")
        players = self.read_players(sheet["players"]) if "players" in sheet else None
        if players is None:
            self.read_deal_keys(sheet.get("deals"))
            return None

        seated = [name for name, _colour in players]
        known = self.resolve_players(seated)
        checked_rules = rulebook or load_default_rulebook()
        deals = totals = None
        if "deals" in sheet and "totals" not in sheet:
            deals = self.read_deals(sheet["deals"], len(seated))
        elif "totals" in sheet and "deals" not in sheet:
            totals = self.score_map(sheet["totals"], "totals", seated)
        adjustments = self.read_adjustments(sheet.get("adjustments"), seated, known, checked_rules, season)
        report = self.read_report(sheet.get("report"), seated, date)
        expected = None
        if sheet.get("expected_totals") is not None:
            expected = self.score_map(sheet["expected_totals"], "expected_totals", seated)
        result = self.score(seated, deals, totals, checked_rules) if deals or totals else None
        if self.errors:
            return None
        if expected is not None:
            for name in seated:
                if expected[name] != result.totals[name]:
                    message = f"{name} : attendu {expected[name]}, calculé {result.totals[name]}"
                    self.fail("expected_totals", message)
        if self.errors:
            return None
        return _Sheet(
            file=self.file,
            season_name=season_name,
            season=season,
            rulebook=rulebook,
            number=number,
            date=date,
            place=place or "",
            stage=stage,
            table=table,
            players=players,
            known=known,
            deals=deals,
            totals=totals,
            adjustments=adjustments,
            report=report,
            result=result,
        )

    def check_round_is_new(self, season, season_name, stage, table, number):
        if season is None:
            return
        if Round.objects.filter(season=season, stage=stage, table=table, number=number).exists():
            what = _stage_phrase(stage, table, number)
            self.fail("number", f"{what} de la saison {season_name} existe déjà")

    def read_deal_keys(self, deals):
        """Without valid players the deals cannot be checked; their keys at least can."""
        if isinstance(deals, list):
            for number, raw in enumerate(deals, start=1):
                if isinstance(raw, dict):
                    self.keys(raw, DEAL_KEYS, deal=number)

    def read_season(self, value):
        if value is None:
            return _BAD, None, None
        name = self.text(value, "season")
        if name is _BAD:
            return _BAD, None, None
        if not SEASON_NAME.match(name) or int(name[5:]) != int(name[:4]) + 1:
            self.fail("season", f"« {name} » n'est pas un nom de saison (par exemple « 2010-2011 »)")
            return _BAD, None, None
        season = Season.objects.filter(name=name).first()
        may_enter, _board = _rights(self.user, season)
        if not may_enter:
            if season is None:
                message = (
                    f"la saison {name} n'existe pas (seul un administrateur peut la créer par un import)"
                )
            else:
                message = f"seuls le secrétaire et la Direction de la saison {name} importent ses manches"
            self.fail("season", message)
            return _BAD, None, None
        rulebook = season.rulebook if season is not None else load_default_rulebook()
        return name, season, rulebook

    def check_date(self, season_name, season, date):
        start, end = (season.start_date, season.end_date) if season else season_dates(season_name)
        if problem := validators.round_date_problem(date, season_name, start, end):
            self.fail("date", problem)

    def read_stage(self, sheet):
        stage = self.choice(sheet.get("stage", Round.REGULAR), "stage", STAGES, "phase inconnue")
        table = sheet.get("table")
        if stage == Round.PLAYOFF:
            if table is None:
                return stage, self.fail("table", "la table des play-offs (« A » ou « B ») est obligatoire")
            return stage, self.choice(table, "table", PLAYOFF_TABLES, "table inconnue")
        if table not in (None, "") and stage is not _BAD:
            return stage, self.fail("table", "une table (A ou B) ne se donne que pour les play-offs")
        return stage, ""

    def read_players(self, value):
        if not isinstance(value, list):
            self.fail("players", f"une liste de joueurs est attendue, pas {_json_type(value)}")
            return None
        errors = len(self.errors)
        if len(value) not in (4, 5):
            self.fail("players", f"une table compte 4 ou 5 joueurs, pas {len(value)}")
        players = []
        for index, raw in enumerate(value, start=1):
            prefix = f"players[{index}]."
            if not self.keys(raw, PLAYER_KEYS, prefix, required=("name",)):
                continue
            name = self.name(raw["name"], f"{prefix}name")
            colour = self.choice(
                raw.get("colour"), f"{prefix}colour", COLOUR_CODES, "couleur inconnue", null=True
            )
            if name is _BAD or colour is _BAD:
                continue
            if name in [seated for seated, _colour in players]:
                self.fail(f"{prefix}name", f"{name} est assis deux fois")
            elif colour and colour in [taken for _name, taken in players]:
                self.fail(f"{prefix}colour", f"la couleur {colour} est déjà prise")
            players.append((name, colour or ""))
        return players if len(self.errors) == errors else None

    def resolve_players(self, seated):
        known = {player.name: player for player in Player.objects.filter(name__in=seated)}
        if self.create_players:
            return known
        registered = None
        for index, name in enumerate(seated, start=1):
            if name in known:
                continue
            if registered is None:
                registered = list(Player.objects.values_list("name", flat=True))
            close = difflib.get_close_matches(name, registered, n=1, cutoff=0.75)
            hint = f" ; vouliez-vous dire « {close[0]} » ?" if close else ""
            self.fail(
                f"players[{index}].name",
                f"« {name} » n'est pas un joueur inscrit ({self.players_hint}){hint}",
            )
        return known

    def read_deals(self, value, table_size):
        if not isinstance(value, list):
            self.fail("deals", f"une liste de donnes est attendue, pas {_json_type(value)}")
            return None
        if not value:
            self.fail("deals", "au moins une donne est attendue (ou « totals » pour une soirée sans donnes)")
            return None
        if problem := validators.deal_number_problem(len(value)):
            self.fail("deals", f"{problem} (ici {len(value)})")
            return None
        deals = [self.read_deal(number, raw, table_size) for number, raw in enumerate(value, start=1)]
        return None if _BAD in deals else deals

    def read_deal(self, number, raw, table_size):
        errors = len(self.errors)
        if not isinstance(raw, dict):
            return self.fail("deals", f"une donne est un objet {{…}}, pas {_json_type(raw)}", number)
        self.keys(raw, DEAL_KEYS, deal=number, required=("dealer",))
        values = {"dealer": self.name(raw.get("dealer"), "dealer", number) if "dealer" in raw else _BAD}
        if "kind" in raw:
            values["kind"] = self.choice(raw["kind"], "kind", KINDS, "type de donne inconnu", number)
        elif raw.get("taker") is not None:
            values["kind"] = Deal.PLAYED
        else:
            values["kind"] = self.fail(
                "kind",
                f"type de donne manquant : indiquer le preneur (« taker ») d'une donne jouée, "
                f"ou « kind » ({', '.join(KINDS[1:])})",
                number,
            )
        for key in ("taker", "partner"):
            if key in raw:
                values[key] = self.name(raw[key], key, number, null=True)
        for key, (choices, unknown) in DEAL_CHOICES.items():
            if key in raw:
                values[key] = self.choice(raw[key], key, choices, unknown, number, null=key != "called_rank")
        if "bouts" in raw:
            values["bouts"] = self.integer(raw["bouts"], "bouts", number, bounds=BOUTS, null=True)
        if "points" in raw:
            values["points"] = self.read_points(raw["points"], number)
        if "poignees" in raw:
            values["poignees"] = self.read_poignees(raw["poignees"], number)
        if "miseres" in raw:
            values["miseres"] = self.read_miseres(raw["miseres"], number)
        if "chelem" in raw:
            values.update(self.read_chelem(raw["chelem"], number))
        if (
            table_size == 5
            and values.get("kind") == Deal.PLAYED
            and "partner" not in raw
            and len(self.errors) == errors
        ):
            self.fail("partner", "à 5 joueurs, indiquer l'appelé, ou null quand le preneur joue seul", number)
        if len(self.errors) > errors or _BAD in values.values():
            return _BAD
        return DealInput(**values)

    def read_points(self, value, number):
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return self.fail(
                "points", f"un nombre est attendu (demis permis), pas {_json_type(value)}", number
            )
        shown = _french_number(value)
        if not 0 <= value <= MAX_CARD_POINTS:
            return self.fail("points", f"{shown} n'est pas entre 0 et {MAX_CARD_POINTS}", number)
        if (value * 2) % 1 != 0:
            return self.fail("points", f"{shown} n'est pas un multiple de 0,5", number)
        return Decimal(str(value))

    def read_poignees(self, value, number):
        if value is None:
            return ()
        if not isinstance(value, list):
            return self.fail("poignees", f"une liste est attendue, pas {_json_type(value)}", number)
        poignees = []
        for index, raw in enumerate(value, start=1):
            prefix = f"poignees[{index}]."
            if not self.keys(raw, POIGNEE_KEYS, prefix, number, required=POIGNEE_KEYS):
                continue
            player = self.name(raw["player"], f"{prefix}player", number)
            size = self.choice(
                raw["size"], f"{prefix}size", POIGNEE_SIZES, "taille de poignée inconnue", number
            )
            if _BAD not in (player, size):
                poignees.append(Poignee(player, size))
        return tuple(poignees) if len(poignees) == len(value) else _BAD

    def read_miseres(self, value, number):
        if value is None:
            return ()
        if not isinstance(value, list):
            return self.fail("miseres", f"une liste de joueurs est attendue, pas {_json_type(value)}", number)
        names = [self.name(name, f"miseres[{index}]", number) for index, name in enumerate(value, start=1)]
        return _BAD if _BAD in names else tuple(names)

    def read_chelem(self, value, number):
        if value is None:
            return {}
        if not self.keys(value, CHELEM_KEYS, "chelem.", number):
            return {"chelem_announced": _BAD}
        values = {}
        if "announced" in value:
            announced = value["announced"]
            if not isinstance(announced, bool):
                announced = self.fail(
                    "chelem.announced", f"true ou false est attendu, pas {_json_type(announced)}", number
                )
            values["chelem_announced"] = announced
        if "made_by" in value:
            values["chelem_made_by"] = self.choice(
                value["made_by"], "chelem.made_by", SIDES, "camp inconnu", number, null=True
            )
        return values

    def read_adjustments(self, value, seated, known, rulebook, season):
        """Bonuses and maluses; one may name a player off the table (an absence, for instance)."""
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail("adjustments", f"une liste est attendue, pas {_json_type(value)}")
            return []
        board = _rights(self.user, season)[1]
        adjustments = []
        for index, raw in enumerate(value, start=1):
            prefix = f"adjustments[{index}]."
            if not self.keys(raw, ADJUSTMENT_KEYS, prefix, required=("player", "code")):
                continue
            name = self.name(raw["player"], f"{prefix}player")
            if name is not _BAD and name not in seated:
                name = self.registered(name, f"{prefix}player", known)
            code = self.text(raw["code"], f"{prefix}code")
            entry = None
            if code is not _BAD:
                try:
                    entry = rulebook.championship.catalogue_entry(code)
                except KeyError:
                    codes = ", ".join(item.code for item in rulebook.championship.catalogue)
                    code = self.fail(
                        f"{prefix}code", f"« {code} » n'est pas dans le catalogue de la saison ({codes})"
                    )
            if entry is not None and entry.board_only and not board:
                code = self.fail(f"{prefix}code", f"« {entry.label} » est réservé à la Direction")
            points = self.integer(
                raw.get("points"), f"{prefix}points", bounds=validators.ADJUSTMENT_POINTS, null=True
            )
            if points not in (None, _BAD) and not board:
                points = self.fail(f"{prefix}points", "seule la Direction fixe des points hors catalogue")
            note = self.text(raw.get("note"), f"{prefix}note", null=True, max_length=200) or ""
            if _BAD not in (name, code, points, note):
                adjustments.append((name, code, points, note))
        return adjustments

    def registered(self, name, field_, known):
        """A registered player's name (added to ``known``), or with --create-players any name
        (the player is created on saving unless registered)."""
        if name in known:
            return name
        player = Player.objects.filter(name=name).first()
        if player is not None:
            known[name] = player
        elif not self.create_players:
            return self.fail(field_, f"« {name} » n'est pas un joueur inscrit ({self.players_hint})")
        return name

    def read_report(self, value, seated, date):
        if value is None:
            return None
        if not self.keys(value, REPORT_KEYS, "report.", required=("author",)):
            return None
        author = self.name(value["author"], "report.author")
        if author is not _BAD and author not in seated:
            author = self.fail("report.author", f"{author} n'est pas assis à cette table")
        filed = self.date(value.get("filed"), "report.filed", null=True)
        if filed not in (None, _BAD) and date is not _BAD and filed < date:
            filed = self.fail(
                "report.filed", f"rendu le {filed:%d/%m/%Y}, avant la manche du {date:%d/%m/%Y}"
            )
        text = self.text(
            value.get("text"), "report.text", null=True, multiline=True, max_length=REPORT_TEXT_MAX_LENGTH
        )
        text = text or ""
        if _BAD in (author, filed, text):
            return None
        return {"author": author, "filed": filed, "text": text}

    def score(self, seated, deals, totals, rulebook):
        """The round scored by the engine, or None after recording each deal's first error."""
        if totals is not None:
            try:
                return totals_only_round(seated, totals)
            except ScoringError as error:
                self.engine_error(error)
                return None
        for number, deal in enumerate(deals, start=1):
            try:
                score_deal(deal, seated, rulebook, number)
            except ScoringError as error:
                self.engine_error(error)
        if self.errors:
            return None
        try:
            return score_round(seated, deals, rulebook)
        except ScoringError as error:
            self.engine_error(error)
            return None

    def engine_error(self, error):
        self.fail(ENGINE_FIELDS.get(error.field, error.field), error.message, error.deal_number)


def read_sheet(file, data, *, create_players=False, homologate=False, user=None, players_hint=None):
    """Check one sheet (bytes, text or parsed JSON) without writing: a ``_Sheet`` or SheetImportError."""
    sheet = parse_json(file, data) if isinstance(data, bytes | str) else data
    reader = _Reader(file, create_players, homologate, user, players_hint)
    with translation.override("fr"):  # a sheet's errors are French, the shared rules' included
        checked = reader.read(sheet)
    if reader.errors:
        raise SheetImportError(reader.errors)
    return checked


# --- step 4: the database ----------------------------------------------------------------------------


def _save(sheet, *, homologate, user):
    reason = IMPORT_REASON.format(file=PurePath(sheet.file).name)[:REASON_MAX_LENGTH]
    season = sheet.season
    if season is None:
        start, end = season_dates(sheet.season_name)
        season = Season(name=sheet.season_name, start_date=start, end_date=end)
        season._change_reason = reason
        season.save()
    players = dict(sheet.known)
    names = [name for name, _colour in sheet.players] + [name for name, *_rest in sheet.adjustments]
    for name in names:
        if name not in players:
            players[name] = Player.objects.create(name=name)
    round_ = Round(
        season=season,
        stage=sheet.stage,
        table=sheet.table,
        number=sheet.number,
        date=sheet.date,
        place=sheet.place,
        totals_only=sheet.totals is not None,
    )
    round_._change_reason = reason
    round_.save()
    for position, (name, colour) in enumerate(sheet.players):
        seat = Seat(
            round=round_,
            player=players[name],
            position=position,
            colour=colour,
            total=sheet.totals[name] if sheet.totals is not None else None,
        )
        seat._change_reason = reason
        seat.save()
    for number, deal in enumerate(sheet.deals or [], start=1):
        row = _deal_row(round_, number, deal, players)
        row._change_reason = reason
        row.save()
    for name, code, points, note in sheet.adjustments:
        if points is None:
            points = sheet.rulebook.championship.catalogue_entry(code).points
        adjustment = Adjustment(
            round=round_, player=players[name], code=code, points=points, note=note, entered_by=user
        )
        adjustment._change_reason = reason
        adjustment.save()
    if sheet.report is not None:
        report = Report(
            round=round_,
            author=players[sheet.report["author"]],
            filed_on=sheet.report["filed"],
            text=sheet.report["text"],
        )
        report._change_reason = reason
        report.save()
    scored = rescore_round(round_, reason=reason)
    if scored.result.totals != sheet.result.totals:  # the stored inputs must give the checked figures
        raise SheetImportError([SheetError(sheet.file, "les totaux enregistrés diffèrent du calcul")])
    if homologate:
        homologate_round(round_, user)
        latest = round_.history.order_by("-history_date", "-history_id").first()
        latest.history_change_reason = HOMOLOGATION_REASON
        latest.save(update_fields=["history_change_reason"])
    round_.refresh_from_db()
    return round_


def _deal_row(round_, number, deal, players):
    def pk(name):
        return players[name].pk

    def player(name):
        return players[name] if name is not None else None

    return Deal(
        round=round_,
        number=number,
        dealer=players[deal.dealer],
        kind=deal.kind,
        taker=player(deal.taker),
        contract=CONTRACT_ALIASES.get(deal.contract, deal.contract) or "",
        called=deal.called or "",
        called_rank=deal.called_rank or "roi",
        partner=player(deal.partner),
        bouts=deal.bouts,
        points=deal.points,
        poignees=[{"player": pk(item.player), "size": item.size} for item in deal.poignees],
        miseres=[pk(name) for name in deal.miseres],
        petit_au_bout=deal.petit_au_bout or "",
        chelem_announced=deal.chelem_announced,
        chelem_made_by=deal.chelem_made_by or "",
    )


def import_sheets(sources, *, create_players=False, homologate=False, user=None, players_hint=None):
    """Import sheets in order, all or nothing: ``sources`` is a list of (file name, bytes or text).

    ``user`` is the person importing through the site (``None`` on the command line: every right);
    ``players_hint`` tells how to register unknown players (the form has a checkbox).
    Returns an ``ImportedRound`` per file; raises ``SheetImportError`` listing every error found,
    in which case the database is left exactly as it was.
    """
    errors, imported = [], []
    with transaction.atomic():
        for file, data in sources:
            try:
                with transaction.atomic():
                    sheet = read_sheet(
                        file,
                        data,
                        create_players=create_players,
                        homologate=homologate,
                        user=user,
                        players_hint=players_hint,
                    )
                    round_ = _save(sheet, homologate=homologate, user=user)
            except SheetImportError as error:
                errors.extend(error.errors)
            except RoundError as error:
                errors.append(SheetError(file, error.message))
            except IntegrityError as error:
                errors.append(SheetError(file, f"refusée par la base de données ({error})"))
            else:
                imported.append(ImportedRound(file, round_, list(round_.warnings)))
        if errors:
            raise SheetImportError(errors)
    return imported


# --- export ----------------------------------------------------------------------------------------


def find_round(season_name, number, stage=Round.REGULAR, table=""):
    """The round of a season by stage, table and number; a SheetError (French) when missing."""
    season = Season.objects.filter(name=season_name).first()
    if season is None:
        raise SheetError(season_name, "cette saison n'existe pas", field="season")
    if stage not in STAGES:
        raise SheetError(season_name, f"phase inconnue « {stage} » (possibles : {', '.join(STAGES)})")
    if stage == Round.PLAYOFF and table not in PLAYOFF_TABLES:
        raise SheetError(season_name, "une manche de play-off se désigne avec sa table (--table A ou B)")
    if stage != Round.PLAYOFF:
        table = ""
    round_ = Round.objects.filter(season=season, stage=stage, table=table, number=number).first()
    if round_ is None:
        raise SheetError(season_name, f"{_stage_phrase(stage, table, number)} n'existe pas")
    return round_


def sheet_filename(round_):
    """``manche-2010-2011-12.json``; play-offs ``manche-2010-2011-playoff-A-1.json``."""
    stage = {Round.PLAYOFF: f"-playoff-{round_.table}", Round.FINAL: "-finale"}.get(round_.stage, "")
    return f"manche-{round_.season.name}{stage}-{round_.number}.json"


def export_sheet(round_):
    """The round as a sheet (keys in docs/feuille.md's order) plus its stored ``results``."""
    seats = list(round_.seats.select_related("player").order_by("position"))
    names = {seat.player_id: seat.player.name for seat in seats}
    sheet = {
        "season": round_.season.name,
        "number": round_.number,
        "date": round_.date.isoformat(),
        "place": round_.place,
        "stage": round_.stage,
    }
    if round_.stage == Round.PLAYOFF:
        sheet["table"] = round_.table
    sheet["players"] = [
        {"name": seat.player.name, **({"colour": seat.colour} if seat.colour else {})} for seat in seats
    ]
    deals = list(round_.deals.order_by("number"))
    totals = {seat.player.name: seat.total for seat in seats}
    if round_.totals_only:
        sheet["totals"] = totals
    else:
        sheet["deals"] = [_export_deal(deal, names, len(seats)) for deal in deals]
    rulebook = round_.season.rulebook
    sheet["adjustments"] = [
        _export_adjustment(adjustment, rulebook)
        for adjustment in round_.adjustments.select_related("player").order_by("created_at", "pk")
    ]
    report = Report.objects.filter(round=round_).select_related("author").first()
    sheet["report"] = (
        {
            "author": report.author.name,
            "filed": report.filed_on.isoformat() if report.filed_on else None,
            "text": report.text,
        }
        if report
        else None
    )
    sheet["expected_totals"] = dict(totals)
    championship = {seat.player.name: [] for seat in seats}
    lines = ChampionshipLine.objects.filter(round=round_).select_related("player").order_by("order", "pk")
    for line in lines:
        championship.setdefault(line.player.name, []).append({"code": line.code, "points": line.points})
    late = round_late_report_line(round_)
    if late is not None:
        items = championship.setdefault(late.player, [])
        items.append({"code": late.code, "points": late.points})
        items.sort(key=lambda item: _code_order(item["code"]))
    sheet["results"] = {
        "totals": totals,
        "deals": [
            {"shares": {names[seat.player_id]: deal.share_of(seat.player_id) for seat in seats}}
            for deal in deals
        ],
        "championship": championship,
    }
    return sheet


def _code_order(code):
    """§5.8 codes first, in their order, then the catalogue codes as entered."""
    return ITEM_ORDER.index(code) if code in ITEM_ORDER else len(ITEM_ORDER)


def _export_deal(deal, names, table_size):
    entry = {"dealer": names[deal.dealer_id]}
    if deal.kind != Deal.PLAYED:
        entry["kind"] = deal.kind
        return entry
    entry["taker"] = names[deal.taker_id]
    entry["contract"] = deal.contract
    if deal.called:
        entry["called"] = deal.called
    if deal.called_rank and deal.called_rank != "roi":
        entry["called_rank"] = deal.called_rank
    if table_size == 5 or deal.partner_id:
        entry["partner"] = names.get(deal.partner_id)
    entry["bouts"] = deal.bouts
    entry["points"] = card_points(deal.points)
    if deal.poignees:
        entry["poignees"] = [
            {"player": names[item["player"]], "size": item["size"]} for item in deal.poignees
        ]
    if deal.miseres:
        entry["miseres"] = [names[player_id] for player_id in deal.miseres]
    if deal.petit_au_bout:
        entry["petit_au_bout"] = deal.petit_au_bout
    if deal.chelem_announced or deal.chelem_made_by:
        entry["chelem"] = {"announced": deal.chelem_announced, "made_by": deal.chelem_made_by or None}
    return entry


def _export_adjustment(adjustment, rulebook):
    entry = {"player": adjustment.player.name, "code": adjustment.code}
    try:
        catalogue_points = rulebook.championship.catalogue_entry(adjustment.code).points
    except KeyError:
        catalogue_points = None
    if adjustment.points != catalogue_points:
        entry["points"] = adjustment.points
    if adjustment.note:
        entry["note"] = adjustment.note
    return entry


def dumps_sheet(sheet, width=110):
    """JSON text of a sheet: one key per line, each deal, player… on one line of its own."""
    return _dump(sheet, 0, width, 0) + "\n"


def _dump(value, depth, width, used, inline=False):
    compact = json.dumps(value, ensure_ascii=False)
    if inline or not isinstance(value, dict | list) or not value or used + len(compact) + 1 <= width:
        return compact
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, list):
        items = [inner + _dump(item, depth + 1, width, 0, inline=True) for item in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    items = []
    for key, item in value.items():
        prefix = f"{inner}{json.dumps(key, ensure_ascii=False)}: "
        items.append(prefix + _dump(item, depth + 1, width, len(prefix)))
    return "{\n" + ",\n".join(items) + f"\n{pad}}}"
