"""Writes of the federation: a new season, a new player (what an import makes), an account, an
official, a season closed (what `generate_federation` makes).

Each is saved with its history record, `reason` and `user` as its author.
"""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from championship.services.errors import RoundError
from federation.history import audited
from federation.models import Official, Player, Season


def _check(obj, code, label, exclude=None):
    """The model's own validation (as the admin runs it), refused as a RoundError naming `label`."""
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as error:
        raise RoundError(code, f"{label} : {' '.join(error.messages)}") from error


def _save(obj, reason, user, **options):
    """Save `obj` with its history record: `reason`, and `user` as its author."""
    with audited(user, reason) as audit:
        return audit.save(obj, **options)


@transaction.atomic
def create_season(name, start_date, end_date, *, reason, user=None):
    """A season with a copy of the default rulebook (the model makes it)."""
    season = Season(name=name, start_date=start_date, end_date=end_date)
    _check(season, "season", "Saison")
    return _save(season, reason, user)


@transaction.atomic
def register_player(name, *, reason, user=None, nickname="", account=None):
    """A new player, checked by the same rules as in the admin (name, no formula, no control);
    `account`: the login he uses, if he has one already."""
    player = Player(name=name, nickname=nickname, user=account)
    _check(player, "player", f"Joueur « {name} »")
    return _save(player, reason, user)


@transaction.atomic
def create_account(player, username, *, reason, user=None):
    """A login for `player` (no usable password: it is set by « mot de passe oublié » or the admin)."""
    account = get_user_model()(username=username)
    account.set_unusable_password()
    _check(account, "username", f"Identifiant « {username} »")
    account.save()
    player.user = account
    _save(player, reason, user, update_fields=["user"])
    return account


@transaction.atomic
def appoint_official(season, player, role, *, reason, user=None):
    """`player` takes `role` (a board role or secretary) in `season`, with its history record."""
    official = Official(season=season, player=player, role=role)
    _check(official, "official", "Officiel")
    return _save(official, reason, user)


@transaction.atomic
def close_season(season, *, reason, user=None):
    """Mark a finished season closed (its rulebook and rounds are left as they are)."""
    season.is_open = False
    return _save(season, reason, user, update_fields=["is_open"])


@transaction.atomic
def set_remaining_rounds(season, count, *, reason, user=None):
    """The regular rounds still on the calendar (the cup's qualification statuses rest on it)."""
    season.remaining_rounds = count
    _check(season, "remaining_rounds", "Manches restantes", exclude=["rulebook_text"])
    return _save(season, reason, user, update_fields=["remaining_rounds"])
