"""What the competition reads of the calendar of nights, through one door (docs/architecture.md).

The calendar (`gamenights`) sits above the competition: it imports `championship`, and nothing
of `championship` imports it back. What the competition needs of it — the regular rounds still
to be played, with who may sit at each (the play-off outlook, docs/regles.md §6.4), and a
member's next night (« Moi ») — it reads here; `gamenights` registers its reader when the
applications start (`gamenights.apps`). Without the calendar application, a season's remaining
rounds are the count typed on the season (`Season.remaining_rounds`), each open to every active
player, and a member has no next night.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

from django.utils import timezone


@dataclass(frozen=True)
class ComingRound:
    """A regular round still to be played, as the calendar knows it."""

    size: int | None = None  # seats at its table; None: the rulebook's full table
    seats: frozenset | None = None  # pks of the players who may sit; None: every active player
    night: object = None  # the night it belongs to (its tables share it), None: a night of its own


class Reader(Protocol):
    def coming_rounds(self, season, today) -> list[ComingRound]: ...

    def next_night(self, season, player, today): ...


class _TypedCount:
    """The reader of a house without the calendar application."""

    def coming_rounds(self, season, today):
        return [ComingRound()] * season.remaining_rounds

    def next_night(self, season, player, today):
        return None


_reader: Reader = _TypedCount()


def register(reader: Reader) -> None:
    """Called once by the calendar application at start (`gamenights.apps`)."""
    global _reader
    _reader = reader


def coming_rounds(season, today=None) -> list[ComingRound]:
    """The regular rounds of ``season`` still to be played from ``today`` (default: today)."""
    return _reader.coming_rounds(season, _today(today))


def digest(rounds) -> str:
    """A short text that changes whenever ``rounds`` (`coming_rounds`) do: part of the key under
    which the outlook is kept (`championship.cup.outlook`), since an answer to a night changes
    no figure of the season."""
    text = repr([(r.size, sorted(r.seats or ()), r.night) for r in rounds])
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def next_night(season, player, today=None):
    """``player``'s next night of ``season`` (an object the « Moi » template reads: ``date``,
    ``time``, ``my_answer``, ``my_answer_label``, ``answers_open()``…), or None."""
    return _reader.next_night(season, player, _today(today))


def _today(today):
    return today if today is not None else timezone.localdate()
