"""A season's rulebook: change it and recompute every round of the season, all or nothing."""

from django.db import transaction

from championship.lib.summaries import season_written
from championship.services.scores import required_reason, rescore_season
from federation.history import audited
from federation.models import Season
from scoring.errors import ScoringError
from scoring.rulebook import RulebookError, load_rulebook


@transaction.atomic
def update_season_rulebook(season, text, user=None, reason=""):
    """Validate a season's new rulebook, save it and recompute the whole season, all or nothing.

    Raises `RulebookError` (naming the field, in French), or `RoundError` without a reason
    (it goes into the history of the season and of every round), and then nothing is saved.
    """
    load_rulebook(text)
    reason = required_reason(reason)
    Season.objects.select_for_update().filter(pk=season.pk).first()
    season_written(season)
    season.rulebook_text = text
    if getattr(user, "is_authenticated", False):
        season._history_user = user
    with audited(user, reason) as audit:
        audit.save(season)
    try:
        rescore_season(season, reason, user)
    except ScoringError as error:
        raise RulebookError("rulebook", f"une manche ne peut plus être calculée ({error})") from error
    return season
