"""What each player needs for the play-offs, exactly (docs/regles.md §6.4): the fewest
championship points he must take over the remaining regular rounds to be certain of a place
whatever the others do, and whether a place is still within reach at all.

The model is the one of the play-off statuses (`scoring.playoff_race.playoff_status`), stated once:

- ``remaining`` regular rounds still count, and every player listed may play each of them;
- each round changes each player's points by any whole number between ``loss`` (≤ 0) and
  ``gain`` (≥ 0), the season's round floor and cap (`scoring.playoff_race.round_bounds`), whatever it
  gives the others (the catalogue's bonuses and maluses make any value reachable); sitting a
  round out gives 0 and does not count as played;
- a player's late-report malus still to come lies anywhere between 0 and his bound (the malus
  every round still to count may reach, ``round_late``, plus what his missing reports may still
  add, ``late``), independently of the others';
- a player is ranked with ``minimum_rounds`` rounds; a tie on points may go either way (the
  tie-breaks of rounds still to play are not known), so it counts against certainty and for
  reachability.

Under this model the figures are exact (`tests/scoring/test_needs.py` checks them against every
outcome of small seasons):

- **needed**: the fewest points his remaining rounds must bring him so that, with his malus at
  its worst and every other player at his best, fewer than ``places`` other ranked players reach
  or tie him. He must beat the ``places``-th highest of the others who can still be ranked.
- **reachable**: his best (every round at ``gain``, no malus) against the others' worst leaves
  fewer than ``places`` ranked players strictly ahead of him.

``needed`` is never below ``least`` (every round at ``loss``): a player who is safe even so
needs nothing. The play-off race writes its « en course » sentence from these figures.

>>> from scoring.ranking import PlayerSeason
>>> field = [PlayerSeason("Igor", 40, 3, 0, 0, 0), PlayerSeason("Léa", 45, 3, 0, 0, 0),
...          PlayerSeason("Marc", 30, 3, 0, 0, 0)]
>>> need = needs(field, 2, places=2, minimum_rounds=3, loss=-5, gain=10)["Igor"]
>>> need.code, need.needed, need.most
('secure', 11, 20)
>>> french(need)
'Igor : place assurée avec 11 points de plus en 2 manches'

With 2 rounds at +10 at most, Léa can reach 65 and Marc 50: Igor is certain of one of the 2
places once fewer than 2 others can reach or tie him, that is above 50: 51, 11 more than his 40.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.french import num, plural
from scoring.ranking import PlayerSeason

ASSURED = "assured"  # ranked and safe whatever happens: needs nothing
SECURE = "secure"  # can make his place certain by himself: ``needed`` points (or more)
HELP = "help"  # a place is still reachable, but not certain even at his best: others must falter
OUT = "out"  # no place reachable any more (or he cannot play enough rounds to be ranked)
FINAL = "final"  # no round left: the final ranking decides (`scoring.playoff_race.playoff_status`)


@dataclass(frozen=True)
class Need:
    player: str
    code: str  # ASSURED, SECURE, HELP, OUT or FINAL
    remaining: int  # the rounds still to count
    needed: int | None  # fewest points over them that make him certain (> most: none would);
    # None when he cannot be ranked or no round is left
    least: int  # what they bring him at worst (every round at the floor)
    most: int  # what they bring him at best (every round at the cap)
    to_play: int  # rounds he must still play to be ranked (0 when ranked)
    reachable: bool  # a place is still possible (no round left: the final ranking's word,
    # which `scoring.playoff_race.playoff_race` gives; here only whether he is ranked)

    @property
    def gap(self) -> int | None:
        """How far ``needed`` is beyond his best (> 0 for HELP), None when nothing would do."""
        return None if self.needed is None else self.needed - self.most


def threshold(highests: Sequence[int], places: int) -> int | None:
    """The final points a player must pass to be certain of a place: the ``places``-th highest
    of what the others who may be ranked can reach (None when fewer of them than places)."""
    if len(highests) < places:
        return None
    return sorted(highests, reverse=True)[places - 1]


def needs(
    current: Sequence[PlayerSeason],
    remaining: int,
    *,
    places: int,
    minimum_rounds: int,
    loss: int,
    gain: int,
    round_late: Sequence[int] = (),
    late: Mapping[str, int] | None = None,
) -> dict[str, Need]:
    """``{player: Need}`` for every player of ``current`` (see the module's model)."""
    if remaining < 0:
        raise ValueError("Le nombre de manches restantes ne peut pas être négatif")
    if loss > 0 or gain < 0:
        raise ValueError("Une manche peut toujours ne rien donner : plancher ≤ 0 ≤ plafond")
    late = dict(late or {})
    coming = sum(round_late)
    least, most = loss * remaining, gain * remaining
    result = {}
    for me in current:
        others = [p for p in current if p.player != me.player]
        to_play = max(minimum_rounds - me.rounds, 0)
        if remaining == 0:
            result[me.player] = Need(me.player, FINAL, 0, None, 0, 0, to_play, to_play == 0)
            continue
        if to_play > remaining:
            result[me.player] = Need(me.player, OUT, remaining, None, least, most, to_play, False)
            continue
        malus = coming + late.get(me.player, 0)  # his worst late-report malus still to come
        rankable = [p.points + most for p in others if p.rounds + remaining >= minimum_rounds]
        line = threshold(rankable, places)
        needed = least if line is None else max(line + 1 - me.points - malus, least)
        # his best against the others' worst: the ranked others' lowest, their malus at its worst
        best = me.points + most
        ahead = sum(
            1
            for p in others
            if p.rounds >= minimum_rounds and p.points + least + coming + late.get(p.player, 0) > best
        )
        reachable = ahead < places
        if not reachable:
            code = OUT
        elif needed <= least and to_play == 0:
            code = ASSURED
        elif needed <= most:
            code = SECURE
        else:
            code = HELP
        result[me.player] = Need(me.player, code, remaining, needed, least, most, to_play, reachable)
    return result


# --- in French ------------------------------------------------------------------------------------


def _in_rounds(count: int) -> str:
    return "en 1 manche" if count == 1 else f"en {count} manches"


def french(need: Need) -> str:
    """The sentence of the qualification page, the player named and no agreement with him
    (« Igor : place assurée avec 12 points de plus en 3 manches »)."""
    name, rounds = need.player, _in_rounds(need.remaining)
    play = f", à condition d'en jouer au moins {need.to_play}" if need.to_play else ""
    if need.code == FINAL:
        return f"{name} : plus aucune manche régulière, le classement final décide"
    if need.code == OUT:
        if need.to_play > need.remaining:
            return (
                f"{name} : ne peut plus entrer au classement (il faudrait encore "
                f"{plural(need.to_play, 'manche')}, il en reste {need.remaining})"
            )
        return f"{name} : plus aucune place à sa portée, même avec {plural(need.most, 'point')} {rounds}"
    if need.code == ASSURED:
        return f"{name} : place assurée quoi qu'il arrive"
    if need.code == SECURE:
        if need.needed <= need.least:
            return f"{name} : place assurée quels que soient ses points {rounds}{play}"
        if need.needed > 0:
            return f"{name} : place assurée avec {plural(need.needed, 'point')} de plus {rounds}{play}"
        if need.needed == 0:
            return f"{name} : place assurée en ne perdant aucun point {rounds}{play}"
        return (
            f"{name} : place assurée en ne perdant pas plus de {plural(-need.needed, 'point')} {rounds}{play}"
        )
    return (
        f"{name} : une place reste possible{play}, mais pas certaine même au mieux : il faudrait "
        f"{plural(need.needed, 'point')} {rounds} pour qu'elle soit assurée, {num(need.most)} au plus"
    )
