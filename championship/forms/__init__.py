"""The competition's forms, one module each: a round (rounds), a deal (deals), a bonus or malus
(adjustments), a round's seat totals and colours (seats), the motif of a deletion (deletions),
a report (reports), a season's rulebook (rulebook), the table's sign-off (signoffs), a sheet
upload and a past season's totals table (sheets); what they share in fields. Forms validate
input and write nothing: views hand their cleaned data to a service."""

from championship.forms.adjustments import AdjustmentForm
from championship.forms.deals import DealForm
from championship.forms.deletions import MotifForm
from championship.forms.reports import BoardReportForm, ReportForm
from championship.forms.rounds import STAGE_CHOICES, HomologateForm, RoundCreateForm, RoundDeleteForm
from championship.forms.rulebook import RulebookForm, refused
from championship.forms.seats import PaperTotalsForm, SeatColoursForm, SeatTotalsForm
from championship.forms.sheets import SeasonConfirmForm, SeasonImportForm, SheetConfirmForm, SheetUploadForm
from championship.forms.signoffs import CodeSignoffForm, SignoffForm
from championship.forms.widgets import parse_points

__all__ = [
    "STAGE_CHOICES",
    "AdjustmentForm",
    "BoardReportForm",
    "CodeSignoffForm",
    "DealForm",
    "HomologateForm",
    "MotifForm",
    "PaperTotalsForm",
    "ReportForm",
    "RoundCreateForm",
    "RoundDeleteForm",
    "RulebookForm",
    "SeatColoursForm",
    "SeasonConfirmForm",
    "SeasonImportForm",
    "SeatTotalsForm",
    "SheetConfirmForm",
    "SheetUploadForm",
    "SignoffForm",
    "parse_points",
    "refused",
]
