"""Who may do what: one place that answers for every view.

Anonymous visitors read published pages; a player writes his own reports; a secretary enters
rounds; the président and vice-président (the board) homologate, correct homologated rounds,
edit the season's rulebook, grant discretionary bonuses and maluses and name the season's
officials (in the admin). A Django superuser counts as board of every season.

A session opened by a member's private link (`by_link`, federation.private_links) is the member's
only: no role of any season, not the board, not a superuser, whoever the account is; an
official's acts need the password.

A session of an account with a second factor that did not pass its code has no official role
(`federation.second_factor.unverified_holder`), read with the roles where they are read.
"""

from django.db.models import Exists, OuterRef

from federation import second_factor
from federation.models import Official, Season


def player_of(user):
    if not user.is_authenticated:
        return None
    return getattr(user, "player", None)


def by_link(user):
    """Whether `user` is the account of a session opened by a private link."""
    return getattr(user, "by_link", False)


def _roles(user, season):
    if not user.is_authenticated or season is None or by_link(user):
        return set()
    cache = user.__dict__.setdefault("_tarot_roles", {})
    if season.pk not in cache:
        rows = Official.objects.filter(season=season, player__user=user)
        if second_factor.needs_check(user):  # whether he has a device, in the same query
            found = list(
                rows.annotate(device=second_factor.device_exists(user)).values_list("role", "device")
            )
            if found:
                second_factor.remember(user, found[0][1])
            cache[season.pk] = {role for role, _device in found}
        else:
            cache[season.pk] = set(rows.values_list("role", flat=True))
    if cache[season.pk] and second_factor.unverified_holder(user):
        return set()
    return cache[season.pk]


def with_roles(queryset, user, season="season"):
    """`queryset` (rows that belong to a season, through the field `season`) annotated with the
    roles of `user` in that season, one EXISTS per role: the row and the roles in one query.
    `remember_roles` then spares `is_board` and `can_enter_rounds` their query."""
    if not user.is_authenticated or by_link(user):
        return queryset
    device = {"_second_factor": second_factor.device_exists(user)} if second_factor.needs_check(user) else {}
    return queryset.annotate(
        **{
            f"_role_{role}": Exists(
                Official.objects.filter(season=OuterRef(season), player__user=user, role=role)
            )
            for role, _label in Official.ROLES
        },
        **device,
    )


def remember_roles(user, season, row):
    """Keep the roles read by `with_roles` on `row` for the rest of the request."""
    if user.is_authenticated and hasattr(row, f"_role_{Official.SECRETARY}"):
        cache = user.__dict__.setdefault("_tarot_roles", {})
        cache[season.pk] = {role for role, _label in Official.ROLES if getattr(row, f"_role_{role}")}
        if hasattr(row, "_second_factor"):
            second_factor.remember(user, row._second_factor)


def acts_as_superuser(user):
    """A Django superuser's rights: in a password session (never a private link's) that passed
    his second factor if he has one."""
    return (
        user.is_authenticated
        and user.is_superuser
        and not by_link(user)
        and not second_factor.unverified_holder(user)
    )


def is_board(user, season):
    return user.is_authenticated and (
        acts_as_superuser(user) or bool(_roles(user, season) & set(Official.BOARD_ROLES))
    )


def can_enter_rounds(user, season):
    return is_board(user, season) or Official.SECRETARY in _roles(user, season)


def board_seasons(user):
    """The seasons whose board `user` sits on (every season for a superuser)."""
    if not user.is_authenticated or by_link(user):
        return Season.objects.none()
    if user.is_superuser:
        return Season.objects.all() if acts_as_superuser(user) else Season.objects.none()
    seasons = Season.objects.filter(officials__player__user=user, officials__role__in=Official.BOARD_ROLES)
    return second_factor.without_unverified_holder(seasons, user).distinct()
