"""Rules a write checks whatever path it comes from (a form, a sheet, the demo): a bonus or malus
of the season's catalogue within its bounds, a report's text."""

from django.core.exceptions import ValidationError

from championship import bounds
from championship.models import Adjustment, Report
from championship.services.errors import RoundError
from federation import validators

NOTE_MAX_LENGTH = Adjustment._meta.get_field("note").max_length


def checked_adjustment(round_, player, code, points, note, entered_by):
    """An unsaved Adjustment of `round_`'s catalogue (`points` None: the catalogue's), or RoundError."""
    try:
        entry = round_.season.rulebook.championship.catalogue_entry(code)
    except KeyError:
        raise RoundError(
            "catalogue", f"Bonus ou malus : « {code} » n'est pas dans le catalogue de la saison."
        ) from None
    if points is None:
        points = entry.points
    problem = validators.bounds_problem(points, bounds.ADJUSTMENT_POINTS)
    if problem:
        raise RoundError("points", validators.field_message("Points", problem))
    note = note or ""
    problem = validators.text_problem(note) if note else None
    if problem is None and len(note) > NOTE_MAX_LENGTH:
        problem = f"{NOTE_MAX_LENGTH} caractères au plus"
    if problem:
        raise RoundError("note", validators.field_message("Raison", problem))
    return Adjustment(
        round=round_,
        player=player,
        code=entry.code,
        points=points,
        note=note,
        entered_by=entered_by if entered_by is not None and entered_by.is_authenticated else None,
    )


def check_text(text):
    """A report's narrative: RoundError `text` naming the field (« Récit : … ») if refused."""
    try:
        Report._meta.get_field("text").run_validators(text)
    except ValidationError as error:
        raise RoundError("text", " ".join(error.messages)) from error
