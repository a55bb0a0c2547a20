"""A round's history in French: what changed, by whom, when and why.

`round_history(round_)` reads the stored history of the round, its seats, deals and
adjustments and returns `HistoryEntry` items, most recent first; records written together are
one entry. A correction of a counting round also says how each player's place in the round and
championship points moved (before → after). The lines are written in the active language (the
English catalogue has them), with no gendered agreement on a player's name (« Chloé prend la
place 3 »): the federation does not record its players' genders.
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.utils.translation import gettext

from championship.choices import CHIPS_LABELS
from championship.labels import kind, poignee_of
from championship.models import Adjustment, Deal, Round, Seat
from federation.models import Player
from scoring.french import num, ordinal, signed

# Fields written by the scoring (and the version every write raises), left out of the history.
COMPUTED_FIELDS = {
    Round: ["warnings", "pot_left", "homologated_at", "homologated_by", "created_at", "version"],
    Seat: ["rank", "tied", "championship_points"],
    Deal: ["unit", "made", "shares", "pot_after"],
    Adjustment: ["created_at", "entered_by"],
}


@dataclass(frozen=True)
class HistoryEntry:
    when: datetime
    who: str
    why: str
    changes: tuple  # lines in the active language


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
            return ", ".join(poignee_of(i["size"], self.player(i["player"])) for i in value)
        if name == "miseres":
            return ", ".join(self.player(pk) for pk in value)
        if name == "position":
            return str(value + 1)
        if isinstance(value, bool):
            return gettext("oui") if value else gettext("non")
        model_field = model._meta.get_field(name)
        if model_field.choices:
            return str(dict(model_field.flatchoices).get(value, value))
        if isinstance(value, int | Decimal):
            return num(value)
        return str(value)

    def subject(self, model, record):
        if model is Deal:
            return gettext("Donne %(number)s") % {"number": record.number}
        if model is Seat:
            return self.player(record.player_id)
        if model is Adjustment:
            entry = self.catalogue.get(record.code)
            label = gettext(entry.label) if entry else record.code
            return gettext("%(label)s (%(points)s) pour %(player)s") % {
                "label": label,
                "points": signed(record.points),
                "player": self.player(record.player_id),
            }
        return gettext("Manche")

    def created(self, model, record):
        subject = self.subject(model, record)
        if model is Round:
            return gettext("Manche créée (totaux seuls)") if record.totals_only else gettext("Manche créée")
        if model is Deal:
            return gettext("%(deal)s ajoutée (%(kind)s)") % {"deal": subject, "kind": kind(record.kind)}
        if model is Seat:
            text = gettext("%(player)s prend la place %(position)s") % {
                "player": subject,
                "position": record.position + 1,
            }
            if record.colour:
                text += ", " + str(CHIPS_LABELS[record.colour])
            if record.total is not None:
                text += gettext(", total %(total)s") % {"total": num(record.total)}
            return text
        text = gettext("Bonus/malus ajouté : %(adjustment)s") % {"adjustment": subject}
        return f"{text} — {record.note}" if record.note else text

    def deleted(self, model, record):
        if model is Deal:
            return gettext("%(deal)s supprimée") % {"deal": self.subject(model, record)}
        if model is Adjustment:
            subject = self.subject(model, record)
            return gettext("Bonus/malus supprimé : %(adjustment)s") % {"adjustment": subject}
        if model is Seat:
            return gettext("%(player)s quitte la table") % {"player": self.subject(model, record)}
        return gettext("Manche supprimée")

    def changed(self, model, record, previous):
        """(text or None, seat figures or None) for an update of a record; the seat figures:
        (name, (total, place, championship points) before, the same after)."""
        delta = record.diff_against(previous, excluded_fields=COMPUTED_FIELDS[model])
        parts, total = [], None
        if model is Seat:
            before = (previous.total, previous.rank, previous.championship_points)
            after = (record.total, record.rank, record.championship_points)
            if before != after:
                total = (self.player(record.player_id), before, after)
        for change in delta.changes:
            if model is Seat and change.field == "total":
                continue
            label = str(model._meta.get_field(change.field).verbose_name)
            old = self.value(model, change.field, change.old)
            new = self.value(model, change.field, change.new)
            parts.append(f"{label} {old} → {new}")
        text = f"{self.subject(model, record)}{gettext(' : ')}" + " ; ".join(parts) if parts else None
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
    "recalcul") form one entry; the seat totals they changed are summed up in one line, and,
    when the round already counted for the championship, each player's place and championship
    points before → after in another.
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
        figures = entry["totals"].items()
        moved = [(name, old[0], new[0]) for name, (old, new) in figures if old[0] != new[0]]
        if moved:
            changes.append(
                gettext("Totaux : %(totals)s")
                % {"totals": ", ".join(f"{name} {num(old) or '—'} → {num(new)}" for name, old, new in moved)}
            )
        standing = [(name, old, new) for name, (old, new) in figures if _standing_moved(old, new)]
        if standing:
            changes.append(
                gettext("Championnat (place dans la manche, points) : %(players)s")
                % {"players": " ; ".join(_standing_line(name, old, new) for name, old, new in standing)}
            )
        if changes:
            result.append(HistoryEntry(entry["when"], who(entry["user"]), entry["why"], tuple(changes)))
    return result


def _standing_moved(old, new):
    """Whether a correction moved a player's place or championship points in a round that
    already counted (its homologation, which gives the first points, is not a correction)."""
    return old[2] is not None and new[2] is not None and (old[1], old[2]) != (new[1], new[2])


def _place(rank):
    return gettext("%(ordinal)s place") % {"ordinal": ordinal(rank, feminine=True)} if rank else "—"


def _standing_line(name, old, new):
    """« Alice 2e place → 1re place, 8 → 10 pts »."""
    return gettext("%(player)s %(old_place)s → %(new_place)s, %(old_points)s → %(new_points)s pts") % {
        "player": name,
        "old_place": _place(old[1]),
        "new_place": _place(new[1]),
        "old_points": num(old[2]),
        "new_points": num(new[2]),
    }
