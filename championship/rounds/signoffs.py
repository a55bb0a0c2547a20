"""The table's word on a round's sheet: for each seated player, his confirmation or dispute (of
which version of the round), or nothing yet. Read by the live view, the round page for the
officials and the homologation page. Reads only: the writes are `championship.services.signoff`'s.
"""

from dataclasses import dataclass

from django.utils.translation import gettext

from championship.models import Signoff


@dataclass(frozen=True)
class SignoffRow:
    player_id: int
    name: str
    verdict: str  # "confirmed", "disputed", or "" (not signed yet)
    comment: str
    version: int | None  # the round's version it was given at
    signed_at: object  # a datetime, or None
    current: bool  # given at the round's present version

    @property
    def label(self):
        if not self.verdict:
            return gettext("pas encore signée")
        if self.verdict == Signoff.CONFIRMED:
            if self.current:
                return gettext("confirmée")
            return gettext("confirmée à la version %(version)s (la manche a changé depuis)") % {
                "version": self.version
            }
        if self.current:
            return gettext("contestée")
        return gettext("contestée à la version %(version)s") % {"version": self.version}

    @property
    def disputed(self):
        """A dispute stands until the player confirms the sheet again, whatever changed since."""
        return self.verdict == Signoff.DISPUTED


@dataclass(frozen=True)
class TableSignoffs:
    version: int  # the round's version the rows were compared with
    rows: tuple  # one SignoffRow per seat, in seat order

    @property
    def confirmed(self):
        """How many seated players confirmed the round as it is now."""
        return sum(1 for row in self.rows if row.verdict == Signoff.CONFIRMED and row.current)

    @property
    def disputes(self):
        return tuple(row for row in self.rows if row.disputed)

    @property
    def signed(self):
        return any(row.verdict for row in self.rows)

    def of(self, player_id):
        return next((row for row in self.rows if row.player_id == player_id), None)


def table_signoffs(round_, seats=None):
    """Each seated player's word on `round_` (one query, two without `seats`: its seats with
    their players, in order)."""
    if seats is None:
        seats = list(round_.seats.select_related("player").order_by("position"))
    given = {signoff.player_id: signoff for signoff in Signoff.objects.filter(round=round_)}
    rows = []
    for seat in seats:
        signoff = given.get(seat.player_id)
        rows.append(
            SignoffRow(
                player_id=seat.player_id,
                name=seat.player.name,
                verdict=signoff.verdict if signoff else "",
                comment=signoff.comment if signoff else "",
                version=signoff.version if signoff else None,
                signed_at=signoff.signed_at if signoff else None,
                current=bool(signoff) and signoff.version == round_.version,
            )
        )
    return TableSignoffs(round_.version, tuple(rows))


def has_open_dispute(round_):
    """Whether a seated player disputes the sheet (and has not confirmed it since)."""
    return Signoff.objects.filter(round=round_, verdict=Signoff.DISPUTED).exists()
