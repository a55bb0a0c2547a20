"""Writes of the federation that an import makes: a new season, a new player.

Each is saved with its history record, `reason` and `user` as its author.
"""

from django.core.exceptions import ValidationError
from django.db import transaction

from championship.services.errors import RoundError
from championship.services.rounds import _author
from federation.models import Player, Season


@transaction.atomic
def create_season(name, start_date, end_date, *, reason, user=None):
    """A season with a copy of the default rulebook (the model makes it)."""
    season = Season(name=name, start_date=start_date, end_date=end_date)
    try:
        season.full_clean()
    except ValidationError as error:
        raise RoundError("season", f"Saison : {' '.join(error.messages)}") from error
    season._change_reason = reason
    with _author(user):
        season.save()
    return season


@transaction.atomic
def register_player(name, *, reason, user=None):
    """A new player, checked by the same rules as in the admin (name, no formula, no control)."""
    player = Player(name=name)
    try:
        player.full_clean()
    except ValidationError as error:
        raise RoundError("player", f"Joueur « {name} » : {' '.join(error.messages)}") from error
    player._change_reason = reason
    with _author(user):
        player.save()
    return player
