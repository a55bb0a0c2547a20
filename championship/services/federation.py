"""Writes of the federation: a new season, a new player (what an import makes), an account, an
official, a season closed (what `generate_federation` makes).

Each is saved with its history record, `reason` and `user` as its author.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from championship.services.errors import RoundError
from championship.services.rounds import _author
from federation.models import Official, Player, Season


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
def register_player(name, *, reason, user=None, nickname="", account=None):
    """A new player, checked by the same rules as in the admin (name, no formula, no control);
    `account`: the login he uses, if he has one already."""
    player = Player(name=name, nickname=nickname, user=account)
    try:
        player.full_clean()
    except ValidationError as error:
        raise RoundError("player", f"Joueur « {name} » : {' '.join(error.messages)}") from error
    player._change_reason = reason
    with _author(user):
        player.save()
    return player


@transaction.atomic
def create_account(player, username, *, reason, user=None):
    """A login for `player` (no usable password: it is set by « mot de passe oublié » or the admin)."""
    account = get_user_model()(username=username)
    account.set_unusable_password()
    try:
        account.full_clean()
    except ValidationError as error:
        raise RoundError("username", f"Identifiant « {username} » : {' '.join(error.messages)}") from error
    account.save()
    player.user = account
    player._change_reason = reason
    with _author(user):
        player.save(update_fields=["user"])
    return account


@transaction.atomic
def appoint_official(season, player, role, *, reason, user=None):
    """`player` takes `role` (a board role or secretary) in `season`, with its history record."""
    official = Official(season=season, player=player, role=role)
    try:
        official.full_clean()
    except ValidationError as error:
        raise RoundError("official", f"Officiel : {' '.join(error.messages)}") from error
    official._change_reason = reason
    with _author(user):
        official.save()
    return official


@transaction.atomic
def close_season(season, *, reason, user=None):
    """Mark a finished season closed (its rulebook and rounds are left as they are)."""
    season.is_open = False
    season._change_reason = reason
    with _author(user):
        season.save(update_fields=["is_open"])
    return season


@transaction.atomic
def set_remaining_rounds(season, count, *, reason, user=None):
    """The regular rounds still on the calendar (the cup's qualification statuses rest on it)."""
    season.remaining_rounds = count
    try:
        season.full_clean(exclude=["rulebook_text"])
    except ValidationError as error:
        raise RoundError("remaining_rounds", f"Manches restantes : {' '.join(error.messages)}") from error
    season._change_reason = reason
    with _author(user):
        season.save(update_fields=["remaining_rounds"])
    return season
