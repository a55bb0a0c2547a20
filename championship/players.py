"""A player's pages: every point of his season line by line, his ranking in each season he
played, and what he did in the deals of every homologated round."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from championship.models import ChampionshipLine, Deal, Round
from championship.standings import COUNTING, Row, Standings, UnrankedRow, season_standings, seasons_standings
from federation.models import Season
from scoring.vocabulary import ATTACK, DEFENCE, POIGNEE_LABELS

# --- one player's season, line by line -----------------------------------------------------------


@dataclass(frozen=True)
class RoundLines:
    round: object
    seat: object | None
    lines: list  # ChampionshipLine or LineItem-like dicts
    subtotal: int


@dataclass(frozen=True)
class PlayerSeasonDetail:
    standings: Standings
    player: object
    rounds: list  # RoundLines, by date then number
    total: int

    @property
    def row(self):
        return self.standings.row_of(self.player)

    @property
    def unranked_row(self):
        return self.standings.unranked_of(self.player)


def player_season_detail(season, player, as_of=None):
    """Every point of a player's season: stored lines and late-report maluses, per round."""
    standings = season_standings(season, as_of)
    lines = defaultdict(list)
    stored = ChampionshipLine.objects.filter(
        season=season, player=player, **{f"round__{k}": v for k, v in COUNTING.items()}
    ).order_by("round_id", "order")
    for line in stored:
        lines[line.round_id].append(
            {"code": line.code, "label": line.label, "points": line.points, "deal_number": line.deal_number}
        )
    for malus in standings.late:
        if malus.player.pk == player.pk:
            item = malus.item
            lines[malus.round.pk].append(
                {"code": item.code, "label": item.label, "points": item.points, "deal_number": None}
            )
    detail = []
    for round_ in standings.rounds:
        round_lines = lines.get(round_.pk)
        seat = next((s for s in standings.data.seats.get(round_.pk, []) if s.player_id == player.pk), None)
        if round_lines or seat is not None:
            round_lines = round_lines or []
            detail.append(RoundLines(round_, seat, round_lines, sum(line["points"] for line in round_lines)))
    return PlayerSeasonDetail(standings, player, detail, sum(r.subtotal for r in detail))


# --- a player across seasons --------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    season: object
    row: Row | None
    unranked: UnrankedRow | None

    @property
    def points(self):
        return (self.row or self.unranked).points

    @property
    def rounds(self):
        return (self.row or self.unranked).rounds


def player_history(player, as_of=None):
    """The player's final ranking in each season he played a counted round, latest first."""
    seasons = (
        Season.objects.filter(
            rounds__seats__player=player, **{f"rounds__{k}": v for k, v in COUNTING.items()}
        )
        .distinct()
        .order_by("-start_date")
    )
    seasons = list(seasons)
    standings = seasons_standings(seasons, as_of)
    return [
        HistoryRow(season, standings[season.pk].row_of(player), standings[season.pk].unranked_of(player))
        for season in seasons
    ]


def _rate(made, takes):
    return round(100 * made / takes) if takes else None


def player_statistics(player):
    """What a player did in the deals of every homologated round (one query)."""
    deals = Deal.objects.filter(round__status=Round.HOMOLOGATED, round__seats__player=player).values(
        "kind",
        "taker_id",
        "partner_id",
        "contract",
        "made",
        "petit_au_bout",
        "poignees",
        "miseres",
        "chelem_made_by",
    )
    me = player.pk
    takes, made = Counter(), Counter()
    stats = Counter()
    poignees = Counter()
    for deal in deals:
        stats["miseres"] += deal["miseres"].count(me)
        for poignee in deal["poignees"]:
            if poignee.get("player") == me:
                poignees[poignee.get("size")] += 1
        if deal["kind"] != Deal.PLAYED:
            continue
        attack = deal["taker_id"] == me or deal["partner_id"] == me
        if deal["taker_id"] == me:
            takes[deal["contract"]] += 1
            made[deal["contract"]] += deal["made"] is True
            stats["chelems"] += deal["chelem_made_by"] == ATTACK
        elif deal["partner_id"] == me:
            stats["called"] += 1
            stats["called_made"] += deal["made"] is True
        else:
            stats["defended"] += 1
            stats["defended_failed"] += deal["made"] is False
        if deal["petit_au_bout"]:
            won = (deal["petit_au_bout"] == ATTACK) == attack
            key = ATTACK if attack else DEFENCE
            stats[f"petit_{key}"] += won
    contracts = [
        {
            "code": code,
            "label": label,
            "takes": takes[code],
            "made": made[code],
            "rate": _rate(made[code], takes[code]),
        }
        for code, label in Deal.CONTRACTS
    ]
    all_takes, all_made = sum(takes.values()), sum(made.values())
    return {
        "contracts": contracts,
        "takes": all_takes,
        "made": all_made,
        "rate": _rate(all_made, all_takes),
        "called": stats["called"],
        "called_made": stats["called_made"],
        "defended": stats["defended"],
        "defended_failed": stats["defended_failed"],
        "chelems": stats["chelems"],
        "petit_attack": stats["petit_attack"],
        "petit_defence": stats["petit_defence"],
        "poignees": [f"{poignees[size]} {label}" for size, label in POIGNEE_LABELS.items() if poignees[size]],
        "poignees_total": sum(poignees.values()),
        "miseres": stats["miseres"],
    }
