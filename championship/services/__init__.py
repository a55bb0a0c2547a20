"""Every write of the competition: rounds, deals, bonuses and maluses, reports, a season's rulebook.

Forms, views, commands, the demo and the test factories validate their input and call these; no
other code saves, updates or deletes a round, a seat, a deal, an adjustment, a report or a
championship line (a test reads the source to keep it so). Each service runs in one
transaction: it locks the round (`locking.lock_round`) and re-checks its status and version
there, writes every row with its history record (`federation.history.audited`: author and
reason), rescores the round, and raises `RoundError` (a stable `code`, a French message naming
the field) when it refuses. One module per job; reading a round is `championship.rounds.data`'s.
"""

from championship.services.adjustments import add_adjustment, delete_adjustment
from championship.services.creation import CREATION_REASON, create_round
from championship.services.deals import add_deal, change_deal, delete_deal
from championship.services.errors import RoundError
from championship.services.federation import (
    appoint_official,
    close_season,
    create_account,
    create_season,
    register_player,
    set_remaining_rounds,
)
from championship.services.lifecycle import (
    check_complete,
    delete_draft_round,
    homologate_round,
    reopen_round,
    submit_round,
)
from championship.services.locking import last_change, lock_round
from championship.services.paper import set_paper_totals
from championship.services.reports import save_report
from championship.services.rulebook import update_season_rulebook
from championship.services.scores import (
    required_reason,
    rescore_round,
    rescore_season,
    store_championship_lines,
)
from championship.services.seats import set_seat_colours, set_seat_totals
from championship.services.signoff import sign_sheet, sign_sheet_by_code

__all__ = [
    "CREATION_REASON",
    "RoundError",
    "add_adjustment",
    "add_deal",
    "appoint_official",
    "change_deal",
    "check_complete",
    "close_season",
    "create_account",
    "create_round",
    "create_season",
    "delete_adjustment",
    "delete_deal",
    "delete_draft_round",
    "homologate_round",
    "last_change",
    "lock_round",
    "register_player",
    "reopen_round",
    "required_reason",
    "rescore_round",
    "rescore_season",
    "save_report",
    "set_paper_totals",
    "set_remaining_rounds",
    "set_seat_colours",
    "set_seat_totals",
    "sign_sheet",
    "sign_sheet_by_code",
    "store_championship_lines",
    "submit_round",
    "update_season_rulebook",
]
