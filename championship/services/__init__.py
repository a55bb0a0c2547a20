"""Every write of the competition: rounds, deals, bonuses and maluses, reports, a season's rulebook.

Forms, views, commands, the demo and the test factories validate their input and call these; no
other code saves, updates or deletes a round, a seat, a deal, an adjustment, a report or a
championship line (a test reads the source to keep it so). Each service runs in one
transaction: it locks the round (`locking.lock_round`) and re-checks its status and version
there, writes every row with its history record (author and reason), rescores the round, and
raises `RoundError` (a stable `code`, a French message naming the field) when it refuses.
"""

from championship.services.adjustments import add_adjustment, delete_adjustment
from championship.services.deals import DEAL_FIELDS, add_deal, change_deal, delete_deal
from championship.services.errors import RoundError
from championship.services.federation import (
    appoint_official,
    close_season,
    create_account,
    create_season,
    register_player,
    set_remaining_rounds,
)
from championship.services.locking import last_change, lock_round
from championship.services.paper import set_paper_totals
from championship.services.reports import save_report
from championship.services.rounds import (
    COLOURS,
    CREATION_REASON,
    REASON_MAX_LENGTH,
    RoundData,
    ScoredRound,
    check_complete,
    counts_for_championship,
    create_round,
    deal_input,
    delete_draft_round,
    homologate_round,
    next_deal_number,
    next_round_number,
    read_round_data,
    reopen_round,
    required_reason,
    rescore_round,
    rescore_season,
    score_stored_round,
    seats_in_order,
    set_seat_colours,
    set_seat_totals,
    store_championship_lines,
    submit_round,
)
from championship.services.rulebook import update_season_rulebook

__all__ = [
    "RoundData",
    "read_round_data",
    "COLOURS",
    "CREATION_REASON",
    "DEAL_FIELDS",
    "REASON_MAX_LENGTH",
    "RoundError",
    "ScoredRound",
    "add_adjustment",
    "add_deal",
    "appoint_official",
    "change_deal",
    "check_complete",
    "close_season",
    "counts_for_championship",
    "create_account",
    "create_round",
    "create_season",
    "deal_input",
    "delete_adjustment",
    "delete_deal",
    "delete_draft_round",
    "homologate_round",
    "last_change",
    "lock_round",
    "next_deal_number",
    "next_round_number",
    "register_player",
    "reopen_round",
    "required_reason",
    "rescore_round",
    "rescore_season",
    "save_report",
    "score_stored_round",
    "seats_in_order",
    "set_remaining_rounds",
    "set_paper_totals",
    "set_seat_colours",
    "set_seat_totals",
    "store_championship_lines",
    "submit_round",
    "update_season_rulebook",
]
