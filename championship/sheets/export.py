"""A stored round as a sheet (keys in docs/feuille.md's order) with its ``results``, and the JSON
text of a sheet, one deal, player… per line."""

import json
from decimal import Decimal

from championship.models import ChampionshipLine, Deal, Report, Round
from championship.sheets.errors import SheetError, stage_phrase
from championship.sheets.schema import PLAYOFF_TABLES, STAGES
from championship.standings.lateness import round_late_report_line
from federation.models import Season
from scoring.championship import ITEM_ORDER
from scoring.vocabulary import MAX_PLAYERS


def card_points(value):
    """Card points for JSON: 49 as an int, 44.5 as a float."""
    if value is None:
        return None
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def find_round(season_name, number, stage=Round.REGULAR, table=""):
    """The round of a season by stage, table and number; a SheetError (French) when missing."""
    season = Season.objects.filter(name=season_name).first()
    if season is None:
        raise SheetError(season_name, "cette saison n'existe pas", field="season")
    if stage not in STAGES:
        raise SheetError(season_name, f"phase inconnue « {stage} » (possibles : {', '.join(STAGES)})")
    if stage == Round.PLAYOFF and table not in PLAYOFF_TABLES:
        raise SheetError(season_name, "une manche de play-off se désigne avec sa table (--table A ou B)")
    if stage != Round.PLAYOFF:
        table = ""
    round_ = Round.objects.filter(season=season, stage=stage, table=table, number=number).first()
    if round_ is None:
        raise SheetError(season_name, f"{stage_phrase(stage, table, number)} n'existe pas")
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
        sheet["deals"] = [export_deal(deal, names, len(seats)) for deal in deals]
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


def export_deal(deal, names, table_size):
    """A stored deal as a sheet's deal (players by name: `names`, id -> name)."""
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
    if table_size == MAX_PLAYERS or deal.partner_id:
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
