"""A sheet from bytes to the model: the file (size, UTF-8, JSON, nesting), then its structure
(``schema.Sheet``), every error in French naming the file, the deal and the field.

Pydantic's error types are translated by the table below (``TYPE_MESSAGES``); the rules of
``schema`` raise errors that are French already. Pydantic's English text is never shown.
"""

import json
import re
import sys
from dataclasses import dataclass, field
from typing import get_args

from pydantic import BaseModel, ValidationError

from championship.sheets.errors import SheetError, SheetImportError
from championship.sheets.schema import SHEET_ERROR, Sheet, french_number, json_type, validate

MAX_SHEET_BYTES = 1_000_000
MAX_JSON_DEPTH = 20  # a sheet needs 5: sheet, deals, deal, poignees, poignee

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

# Pydantic's error types, in French; {got} names what the file gives (« un texte », « 12,5 »).
TYPE_MESSAGES = {
    "missing": "champ obligatoire manquant",
    "string_type": "un texte est attendu, pas {got}",
    "int_type": "un nombre entier est attendu, pas {got}",
    "bool_type": "true ou false est attendu, pas {got}",
    "list_type": "une liste est attendue, pas {got}",
    "model_type": "un objet {{…}} est attendu, pas {got}",
    "model_attributes_type": "un objet {{…}} est attendu, pas {got}",
    "dict_type": "un objet {{joueur: total}} est attendu, pas {got}",
}
# A list or an object named more precisely where the sheet has one (the last key of its path).
LIST_MESSAGES = {
    "players": "une liste de joueurs est attendue, pas {got}",
    "deals": "une liste de donnes est attendue, pas {got}",
    "miseres": "une liste de joueurs est attendue, pas {got}",
}
SHEET_TYPE_MESSAGE = "la feuille doit être un objet JSON {{…}}, pas {got}"
DEAL_TYPE_MESSAGE = "une donne est un objet {{…}}, pas {got}"
UNKNOWN_KEY_MESSAGE = "clé inconnue (clés possibles : {keys})"
OTHER_MESSAGE = "valeur refusée"

# The sheet's keys in the order of docs/feuille.md; errors are reported in that order.
SHEET_KEYS = tuple(Sheet.model_fields)


@dataclass
class Parsed:
    """A sheet after the structure step: the model when valid, the parsed JSON and its errors."""

    file: str
    raw: object
    sheet: Sheet | None
    errors: list = field(default_factory=list)
    bad: list = field(default_factory=list)  # the paths (tuples) with a structure error

    def valid(self, *path):
        """True when nothing at, inside or around ``path`` was refused: its raw value is then the
        model's (strict types), usable by the database checks even when another part failed."""
        if not isinstance(self.raw, dict):
            return False
        for bad in self.bad:
            shorter = min(len(bad), len(path))
            if bad[:shorter] == path[:shorter]:
                return False
        return True

    def get(self, *path, default=None):
        value = self.raw
        for part in path:
            if isinstance(part, int) or part in value:
                value = value[part]
            else:
                return default
        return value


# --- the file -------------------------------------------------------------------------------------


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
    too_deep = f"JSON refusé : imbrication trop profonde ({MAX_JSON_DEPTH} niveaux au plus)"
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
        raise SheetImportError([SheetError(file, f"JSON refusé : {error}")]) from None
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


# --- the structure ---------------------------------------------------------------------------------


def parse_sheet(file, data):
    """Bytes, text or parsed JSON → ``Parsed``: the model, or the French errors of its structure.

    A file that is not JSON raises SheetImportError at once (nothing else can be read)."""
    raw = parse_json(file, data) if isinstance(data, bytes | str) else data
    try:
        return Parsed(file, raw, validate(raw))
    except ValidationError as error:
        details = error.errors(include_url=False)
        errors = [translate(file, detail) for detail in details]
        return Parsed(file, raw, None, errors, [tuple(detail["loc"]) for detail in details])


def translate(file, detail):
    """One pydantic error as a SheetError: file, deal (1-based), field as the sheet spells it."""
    loc = tuple(detail["loc"])
    kind = detail["type"]
    got = detail.get("input")
    shown = french_number(got) if isinstance(got, float) else json_type(got)
    if kind == SHEET_ERROR:
        message = detail["ctx"]["message"]
    elif kind == "extra_forbidden":
        message = UNKNOWN_KEY_MESSAGE.format(keys=", ".join(_model_at(loc[:-1]).model_fields))
    elif not loc and kind in ("model_type", "model_attributes_type"):
        message = SHEET_TYPE_MESSAGE.format(got=shown)
    elif len(loc) == 2 and loc[0] == "deals" and kind in ("model_type", "model_attributes_type"):
        return SheetError(file, DEAL_TYPE_MESSAGE.format(got=shown), deal=loc[1] + 1, field="deals")
    elif kind == "list_type" and loc and loc[-1] in LIST_MESSAGES:
        message = LIST_MESSAGES[loc[-1]].format(got=shown)
    else:
        message = TYPE_MESSAGES.get(kind, OTHER_MESSAGE).format(got=shown)
    deal = None
    if len(loc) >= 2 and loc[0] == "deals" and isinstance(loc[1], int):
        deal, loc = loc[1] + 1, loc[2:]
    return SheetError(file, message, deal=deal, field=field_name(loc) or ("deals" if deal else None))


def field_name(loc):
    """("players", 4, "name") → ``players[5].name``; ("totals", "Alice") → ``totals.Alice``."""
    name = ""
    for part in loc:
        name += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if name else part)
    return name or None


def _model_at(path):
    """The model class of the object at ``path`` (whose keys an unknown key is told)."""
    model = Sheet
    for part in path:
        if isinstance(part, str):
            model = _inner_model(model.model_fields[part].annotation)
    return model


def _inner_model(annotation):
    nested = [inner for outer in get_args(annotation) for inner in get_args(outer)]
    for candidate in (annotation, *get_args(annotation), *nested):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None


def error_rank(error):
    """Errors are listed in the order of the sheet's keys (deals by number), as the format reads."""
    root = "deals" if error.deal is not None else re.split(r"[.\[]", error.field or "")[0]
    rank = SHEET_KEYS.index(root) if root in SHEET_KEYS else -1
    return (rank, error.deal or 0)
