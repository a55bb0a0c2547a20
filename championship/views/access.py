"""What the views share: the season or round a request may read or change (federation.roles),
and the one skeleton of a write (POST → service → refusal or success → redirect)."""

import dataclasses

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.models import Deal, Round, Seat
from championship.rounds.live import with_stamp
from championship.services import RoundError
from federation.models import Season
from federation.roles import can_enter_rounds, is_board, player_of, remember_roles, with_roles

HOMOLOGATED_READ_ONLY = _("Cette manche est homologuée : seule la Direction peut la corriger.")


def get_season(name):
    return get_object_or_404(Season, name=name)


def get_season_for_entry(request, season_name):
    season = get_season(season_name)
    if not can_enter_rounds(request.user, season):
        raise PermissionDenied(gettext("Seuls le secrétaire et la Direction saisissent les manches."))
    return season


def get_round(pk):
    return get_object_or_404(Round.objects.select_related("season"), pk=pk)


def get_readable_round(request, pk):
    """A round to read (its page, its export): homologated for anyone, otherwise only for those
    who enter rounds (the secretary and the board)."""
    round_ = get_round(pk)
    if not round_.is_homologated and not can_enter_rounds(request.user, round_.season):
        raise Http404(gettext("Manche introuvable."))
    return round_


LIVE_REFUSED = _(
    "La page en direct d'une manche pas encore homologuée est réservée aux joueurs assis à sa "
    "table, au secrétaire et à la Direction."
)


def _seated(user, round_):
    """Whether `user`'s player sits at `round_` (read with the round by `get_live_round`)."""
    if not user.is_authenticated:
        return False
    if hasattr(round_, "user_seated"):
        return round_.user_seated
    return Seat.objects.filter(round=round_, player__user=user).exists()


TABLE_ROUNDS = "table_rounds"  # the session's rounds opened by their table link (views.table)


def holds_table_link(request, round_pk):
    """Whether the visitor's session opened round `round_pk`'s table link (an anonymous session
    holds it as well as a member's)."""
    return round_pk in request.session.get(TABLE_ROUNDS, [])


def remember_table_link(request, round_pk):
    rounds = request.session.get(TABLE_ROUNDS, [])
    if round_pk not in rounds:
        request.session[TABLE_ROUNDS] = [*rounds, round_pk]


def forget_table_link(request, round_pk):
    """Drop round `round_pk`'s table link from the session: True if it held it."""
    rounds = request.session.get(TABLE_ROUNDS, [])
    if round_pk not in rounds:
        return False
    request.session[TABLE_ROUNDS] = [pk for pk in rounds if pk != round_pk]
    return True


class TableLinkEnded(Exception):
    """The round whose table link the session held is homologated: the link is dead."""


def may_follow_live(request, round_):
    """Who reads the live view of `round_` and its poll (views.table): the one rule, for both.
    A homologated round, any logged-in member (it is published); before, the players seated at
    it, the secretary and the board of its season, and whoever opened its table link, with an
    account or without (docs/utiliser.md, « Suivre la manche en direct »)."""
    user = request.user
    if round_.is_homologated:
        return user.is_authenticated
    if can_enter_rounds(user, round_.season) or _seated(user, round_):
        return True
    return holds_table_link(request, round_.pk)


def get_live_round(request, pk):
    """Round `pk` for its live view, in one query with what its stamp depends on
    (`rounds.live.with_stamp`), the user's roles in its season and whether he sits at it (a
    light row: version, status, season); 404 if none, PermissionDenied unless
    `may_follow_live`, TableLinkEnded for a visitor whose table link ended with homologation
    (the session forgets it)."""
    user = request.user
    rows = with_stamp(
        with_roles(Round.objects.select_related("season").only("version", "status", "season"), user)
    )
    if user.is_authenticated:
        rows = rows.annotate(user_seated=Exists(Seat.objects.filter(round=OuterRef("pk"), player__user=user)))
    round_ = get_object_or_404(rows, pk=pk)
    remember_roles(user, round_.season, round_)
    if not may_follow_live(request, round_):
        if round_.is_homologated and forget_table_link(request, round_.pk):
            raise TableLinkEnded(round_.pk)
        raise PermissionDenied(LIVE_REFUSED)
    return round_


def readable_signoffs(user, round_, signoffs):
    """`signoffs` (rounds.signoffs.TableSignoffs) as `user` may read them: who confirmed or
    disputes, for all who see them; a dispute's comment, for the board and its author only."""
    if is_board(user, round_.season):
        return signoffs
    me = player_of(user)
    mine = me.pk if me is not None else None
    rows = tuple(
        row if row.player_id == mine or not row.comment else dataclasses.replace(row, comment="")
        for row in signoffs.rows
    )
    return dataclasses.replace(signoffs, rows=rows)


def get_round_for_editing(request, pk):
    """A round to change: secretary or board; a homologated one, board only (the round and the
    user's roles in its season read in one query)."""
    round_ = get_object_or_404(with_roles(Round.objects.select_related("season"), request.user), pk=pk)
    remember_roles(request.user, round_.season, round_)
    if not can_enter_rounds(request.user, round_.season):
        raise PermissionDenied(gettext("Seuls le secrétaire et la Direction saisissent les manches."))
    if round_.is_homologated and not is_board(request.user, round_.season):
        raise PermissionDenied(HOMOLOGATED_READ_ONLY)
    return round_


def get_deal_for_editing(request, pk, number):
    round_ = get_round_for_editing(request, pk)
    if round_.totals_only:
        raise Http404(gettext("Cette manche n'a que des totaux."))
    return round_, get_object_or_404(Deal, round=round_, number=number)


def edit_url(round_, number=None, anchor=""):
    """The entry page of `round_`, with deal `number` highlighted, or at `anchor` (« #bonus »)."""
    url = reverse("championship:round_edit", args=[round_.pk])
    return f"{url}?donne={number}#donne-{number}" if number else url + anchor


def attempt(request, write, done):
    """Run `write` (a service call); its refusal (RoundError) shown as an error, else `done` as
    a success. True if it was written."""
    try:
        write()
    except RoundError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, done)
    return True


def written(request, write, done, url, refused_url=None):
    """POST → service → refusal → redirect: the write's refusal on the page read afresh at
    `refused_url` (for a stale form, the message names the other change and the page shows it),
    else `done` and `url`."""
    return redirect(url if attempt(request, write, done) else (refused_url or url))
