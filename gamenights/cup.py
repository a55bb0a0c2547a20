"""The cup's nights (docs/calendrier.md, « Les soirées de la Coupe »): once the cup's seeding is
known, a night for each play-off table with its seeded players, then the final's once its
finalists are known. Reads only: the writes are `gamenights.services.schedule_cup_night`.

The seeding is known when the cup has seeds and no regular round remains (none on the
calendar, none awaiting homologation: `CupState.provisional`); the finalists once the play-off
tables are played and homologated (or at once, for a cup without play-offs)."""

from dataclasses import dataclass

from championship.cup.state import NO_CUP, cup_state
from gamenights.models import GameNight
from scoring.vocabulary import FINAL, PLAYOFF


@dataclass(frozen=True)
class CupNight:
    """A night of the cup to schedule or scheduled: its stage and table, who plays it (empty
    while not known) and the night once scheduled (not cancelled)."""

    stage: str
    table: str
    players: list
    night: GameNight | None
    played: object = None  # its latest round once entered (a night played needs no scheduling)

    @property
    def key(self):
        return self.table or FINAL

    @property
    def ready(self):
        return bool(self.players) and self.night is None and self.played is None


@dataclass(frozen=True)
class CupNights:
    seeding_known: bool
    nights: list  # CupNight: the play-off tables, then the final


def scheduled(season, stage, table=""):
    return (
        GameNight.objects.filter(season=season, stage=stage, table=table, cancelled=False)
        .order_by("date", "time", "pk")
        .first()
    )


def cup_nights(season, state=None):
    state = state or cup_state(season)
    known = state.kind != NO_CUP and not state.provisional
    nights = [
        CupNight(
            PLAYOFF,
            table.name,
            list(table.players) if known else [],
            scheduled(season, PLAYOFF, table.name),
            table.rounds[-1] if table.rounds else None,
        )
        for table in state.tables
    ]
    finalists = list(state.finalists) if known and state.qualification.complete else []
    final = state.final_rounds[-1] if state.final_rounds else None
    nights.append(CupNight(FINAL, "", finalists, scheduled(season, FINAL), final))
    return CupNights(known, nights)


def players_of(night):
    """The players the cup sends to `night` (a play-off table's seeds, the finalists), in seed
    order; empty for a regular night or while they are not known."""
    if night.stage == GameNight.REGULAR:
        return []
    for cup_night in cup_nights(night.season).nights:
        if (cup_night.stage, cup_night.table) == (night.stage, night.table):
            return cup_night.players
    return []
