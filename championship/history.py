"""A round's history in French: what changed, by whom, when and why.

`round_history(round_)` reads the stored history of the round, its seats, deals and
adjustments and returns `HistoryEntry` items, most recent first; records written together are
one entry.
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from championship.choices import COLOUR_LABELS
from championship.models import Adjustment, Deal, Round, Seat
from federation.models import Player
from scoring.french import num, of_name, signed
from scoring.vocabulary import KIND_LABELS, poignee_name

# Fields written by the scoring (and the version every write raises), left out of the history.
COMPUTED_FIELDS = {
    Round: ["warnings", "pot_left", "homologated_at", "homologated_by", "created_at", "version"],
    Seat: ["rank", "tied"],
    Deal: ["unit", "made", "shares", "pot_after"],
    Adjustment: ["created_at", "entered_by"],
}


@dataclass(frozen=True)
class HistoryEntry:
    when: datetime
    who: str
    why: str
    changes: tuple  # French lines


def who(user, nobody="—"):
    """The name of the user who did something: the player's, else the account's (`nobody` when
    no one is recorded)."""
    if user is None:
        return nobody
    player = getattr(user, "player", None)
    return player.name if player is not None else user.get_username()


class _Describer:
    """French lines describing historical records of one round."""

    def __init__(self, round_):
        self.catalogue = {entry.code: entry for entry in round_.season.rulebook.championship.catalogue}
        self.players = {}

    def load_players(self, ids):
        missing = {pk for pk in ids if pk is not None and pk not in self.players}
        if missing:
            self.players.update(Player.objects.in_bulk(missing))

    def player(self, pk):
        player = self.players.get(pk)
        return player.name if player is not None else "—"

    def value(self, model, name, value):
        if value in (None, "", [], {}):
            return "—"
        if name in ("dealer", "taker", "partner", "player"):
            return self.player(value)
        if name == "poignees":
            return ", ".join(f"{poignee_name(i['size'])} {of_name(self.player(i['player']))}" for i in value)
        if name == "miseres":
            return ", ".join(self.player(pk) for pk in value)
        if name == "position":
            return str(value + 1)
        if isinstance(value, bool):
            return "oui" if value else "non"
        model_field = model._meta.get_field(name)
        if model_field.choices:
            return str(dict(model_field.flatchoices).get(value, value))
        if isinstance(value, int | Decimal):
            return num(value)
        return str(value)

    def subject(self, model, record):
        if model is Deal:
            return f"Donne {record.number}"
        if model is Seat:
            return self.player(record.player_id)
        if model is Adjustment:
            entry = self.catalogue.get(record.code)
            label = entry.label if entry else record.code
            return f"{label} ({signed(record.points)}) pour {self.player(record.player_id)}"
        return "Manche"

    def created(self, model, record):
        subject = self.subject(model, record)
        if model is Round:
            return "Manche créée" + (" (totaux seuls)" if record.totals_only else "")
        if model is Deal:
            return f"{subject} ajoutée ({KIND_LABELS.get(record.kind, record.kind)})"
        if model is Seat:
            colour = f", jetons {COLOUR_LABELS[record.colour]}" if record.colour else ""
            total = f", total {num(record.total)}" if record.total is not None else ""
            return f"{subject} assis à la place {record.position + 1}{colour}{total}"
        note = f" — {record.note}" if record.note else ""
        return f"Bonus/malus ajouté : {subject}{note}"

    def deleted(self, model, record):
        if model is Deal:
            return f"{self.subject(model, record)} supprimée"
        if model is Adjustment:
            return f"Bonus/malus supprimé : {self.subject(model, record)}"
        if model is Seat:
            return f"{self.subject(model, record)} retiré de la table"
        return "Manche supprimée"

    def changed(self, model, record, previous):
        """(text or None, total change or None) for an update of a record."""
        delta = record.diff_against(previous, excluded_fields=COMPUTED_FIELDS[model])
        parts, total = [], None
        for change in delta.changes:
            if model is Seat and change.field == "total":
                total = (self.player(record.player_id), change.old, change.new)
                continue
            label = str(model._meta.get_field(change.field).verbose_name)
            old = self.value(model, change.field, change.old)
            new = self.value(model, change.field, change.new)
            parts.append(f"{label} {old} → {new}")
        text = f"{self.subject(model, record)} : " + " ; ".join(parts) if parts else None
        return text, total


def _records(round_):
    models = [
        (Round, Round.history.filter(id=round_.pk)),
        (Seat, Seat.history.filter(round_id=round_.pk)),
        (Deal, Deal.history.filter(round_id=round_.pk)),
        (Adjustment, Adjustment.history.filter(round_id=round_.pk)),
    ]
    for model, queryset in models:
        records = queryset.select_related("history_user__player").order_by("id", "history_date", "history_id")
        yield model, list(records)


def _player_ids(records):
    ids = set()
    for record in records:
        for name in ("dealer_id", "taker_id", "partner_id", "player_id"):
            ids.add(getattr(record, name, None))
        for item in getattr(record, "poignees", None) or []:
            ids.add(item.get("player"))
        ids.update(getattr(record, "miseres", None) or [])
    return ids


def _history_lines(round_):
    """(when, user, why, text, total change) per meaningful historical record."""
    describer = _Describer(round_)
    loaded = list(_records(round_))
    describer.load_players(set().union(*(_player_ids(records) for _model, records in loaded)))
    lines = []
    for model, records in loaded:
        previous = None
        for record in records:
            text, total = None, None
            if record.history_type == "+":
                text = describer.created(model, record)
            elif record.history_type == "-":
                text = describer.deleted(model, record)
            elif previous is not None and previous.id == record.id:
                text, total = describer.changed(model, record, previous)
            if text or total:
                why = record.history_change_reason or ""
                lines.append((record.history_date, record.history_user, why, text, total))
            previous = record
    lines.sort(key=lambda line: line[0])
    return lines


def round_history(round_, window_seconds=10):
    """History entries of a round, most recent first: who, when, what changed, why.

    Records saved together (same user, a few seconds apart, same reason or an automatic
    "recalcul") form one entry; the seat totals they changed are summed up in one line.
    """
    entries = []
    for when, user, why, text, total in _history_lines(round_):
        last = entries[-1] if entries else None
        joins = (
            last is not None
            and last["user"] == user
            and (why == last["why"] or why == "recalcul")
            and (when - last["when"]).total_seconds() <= window_seconds
        )
        if not joins:
            last = {"when": when, "user": user, "why": why, "changes": [], "totals": {}}
            entries.append(last)
        last["when"] = when
        if text:
            last["changes"].append(text)
        if total:
            name, old, new = total
            first_old = last["totals"].get(name, (old, new))[0]
            last["totals"][name] = (first_old, new)
    result = []
    for entry in reversed(entries):
        changes = list(entry["changes"])
        moved = [(name, old, new) for name, (old, new) in entry["totals"].items() if old != new]
        if moved:
            changes.append(
                "Totaux : " + ", ".join(f"{name} {num(old) or '—'} → {num(new)}" for name, old, new in moved)
            )
        if changes:
            result.append(HistoryEntry(entry["when"], who(entry["user"]), entry["why"], tuple(changes)))
    return result
