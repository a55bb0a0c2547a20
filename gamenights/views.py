"""The calendar's pages: the calendar (next night first), a season's, a night's page with its
answers, tables and proposals; the board's scheduling forms; answering from a signed link."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from championship import services as championship_services
from championship.models import Round
from championship.services.errors import RoundError
from federation.models import Player, Season
from federation.roles import can_enter_rounds, is_board, player_of
from gamenights import cup, ical, links, proposals, schedule, services
from gamenights.forms import AnswerForm, BoardAnswerForm, CancelForm, CupNightForm, NightForm, ProposalForm
from gamenights.models import GameNight, Rsvp
from gamenights.services import NightError


def _night(pk):
    return get_object_or_404(GameNight.objects.select_related("season", "host"), pk=pk)


def _board_only(request, season):
    if not is_board(request.user, season):
        raise PermissionDenied(gettext("Réservé à la Direction de la saison."))


def _member_feed(request):
    """A logged-in member's own feed, shown on the calendar pages."""
    me = player_of(request.user)
    return links.feed_addresses(request, me) if me is not None else {}


@require_GET
def calendar(request):
    nights = GameNight.objects.all()
    context = {
        **_member_feed(request),
        "upcoming": schedule.upcoming(nights),
        "past": schedule.past(nights)[:10],
        "season": None,
        "board_seasons": [s for s in Season.objects.filter(is_open=True) if is_board(request.user, s)],
    }
    return render(request, "gamenights/calendar.html", context)


@require_GET
def season_calendar(request, name):
    season = get_object_or_404(Season, name=name)
    nights = GameNight.objects.filter(season=season)
    context = {
        **_member_feed(request),
        "upcoming": schedule.upcoming(nights),
        "past": schedule.past(nights),
        "season": season,
        "remaining": schedule.remaining_regular_rounds(season),
        "board_seasons": [season] if is_board(request.user, season) else [],
    }
    return render(request, "gamenights/calendar.html", context)


def _night_context(request, night, **forms):
    answers = schedule.answers(night)
    seating = schedule.seating(night, answers)
    board = is_board(request.user, night.season)
    me = player_of(request.user)
    context = {
        "night": night,
        "answers": answers,
        "board": board,
        "me": me,
        "mine": answers.of(me) if me else None,
        "seating": seating,
        "my_place": seating.place_of(me),
        "can_enter": can_enter_rounds(request.user, night.season),
        **forms,
    }
    rounds = night.rounds().order_by("number")
    if not context["can_enter"]:  # the others see a round once homologated (as its page)
        rounds = rounds.filter(status=Round.HOMOLOGATED)
    context["rounds"] = list(rounds)
    # A night whose round is entered is played: no answer is offered any more (the board may
    # still answer for a member, its own form).
    context["played"] = night.rounds().exists()
    context["open"] = night.answers_open() and not context["played"]
    if me is not None and not me.active:  # an inactive player does not answer (services.answer)
        context["inactive"] = True
    elif me is not None and "answer_form" not in forms:
        mine = context["mine"]
        context["answer_form"] = AnswerForm(
            initial={"answer": mine.answer, "reason": mine.reason} if mine else None
        )
    if board:
        context.setdefault("board_form", BoardAnswerForm(prefix="for"))
        context.setdefault("cancel_form", CancelForm(prefix="cancel"))
        context["proposals"] = [
            (proposal, ProposalForm(initial={"player": proposal.player.pk, "code": proposal.code}))
            for proposal in proposals.adjustments(night, answers)
        ]
    context["past"] = night.date < timezone.localdate()
    context["cup_players"] = cup.players_of(night)
    if context["can_enter"] and not night.cancelled and context["cup_players"]:
        context["tables"], context["entry_url"] = [], proposals.entry_url(night, context["cup_players"])
        context["entry_open"] = not context["rounds"]
    elif context["can_enter"] and not night.cancelled:
        comers = proposals.comers(answers)
        context["tables"], context["sitting_out"] = proposals.tables(night, comers)
        if not context["tables"]:
            context["entry_url"] = proposals.entry_url(night, comers)
        # Once entered, a round is entered again only while tables are still to come.
        context["entry_open"] = len(context["rounds"]) < max(len(context["tables"]), 1)
    return context


@require_GET
def night_detail(request, pk):
    night = _night(pk)
    return render(request, "gamenights/night.html", _night_context(request, night))


def _answered(request, night, player, form, *, on_behalf=False):
    try:
        services.answer(
            night,
            player,
            form.cleaned_data["answer"],
            reason=form.cleaned_data.get("reason", ""),
            user=request.user,
            on_behalf=on_behalf,
        )
    except NightError as error:
        form.add_error(None, error.message)
        return False
    messages.success(
        request,
        gettext("Réponse enregistrée : %(player)s, « %(answer)s ».")
        % {
            "player": player,
            "answer": dict(Rsvp.ANSWERS)[form.cleaned_data["answer"]],
        },
    )
    return True


def _back_to(request, night):
    """Where an answer goes back to: the page it was given from when it says so (`next`, an
    address of this site: the home page's one-tap answer), else the night's page."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure()):
        return wanted
    return night


@login_required
@require_POST
def night_answer(request, pk):
    night = _night(pk)
    me = player_of(request.user)
    if me is None:
        raise PermissionDenied(gettext("Seul un joueur inscrit répond à une soirée."))
    form = AnswerForm(request.POST)
    if form.is_valid() and _answered(request, night, me, form):
        return redirect(_back_to(request, night))
    return render(
        request, "gamenights/night.html", _night_context(request, night, answer_form=form), status=400
    )


def night_answer_link(request, pk, token):
    """The link of an e-mail: the member answers without logging in."""
    night = _night(pk)
    player_pk = links.player_of_answer_token(night, token)
    if player_pk is None:
        return render(request, "gamenights/link_invalid.html", status=404)
    player = get_object_or_404(Player, pk=player_pk)
    form = AnswerForm(
        request.POST if request.method == "POST" else None, initial={"answer": request.GET.get("reponse")}
    )
    if request.method == "POST" and form.is_valid() and _answered(request, night, player, form):
        return redirect(night)
    context = {
        "night": night,
        "player": player,
        "form": form,
        "open": night.answers_open() and player.active,
        "inactive": not player.active,
    }
    return render(request, "gamenights/answer_link.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def night_answer_for(request, pk):
    night = _night(pk)
    _board_only(request, night.season)
    form = BoardAnswerForm(request.POST, prefix="for")
    if form.is_valid() and _answered(request, night, form.cleaned_data["player"], form, on_behalf=True):
        return redirect(night)
    return render(
        request, "gamenights/night.html", _night_context(request, night, board_form=form), status=400
    )


def _scheduled(request, night):
    """Back to the night just scheduled, saying so."""
    messages.success(request, gettext("Soirée du %(date)s programmée.") % {"date": f"{night.date:%d/%m/%Y}"})
    return redirect(night)


@login_required
def night_create(request, name):
    season = get_object_or_404(Season, name=name)
    _board_only(request, season)
    form = NightForm(season, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            night = services.schedule_night(season, user=request.user, **form.fields_to_write())
        except NightError as error:
            form.add_error(None, error.message)
        else:
            return _scheduled(request, night)
    return render(request, "gamenights/night_form.html", {"season": season, "form": form, "night": None})


@login_required
def cup_nights(request, name):
    """The board schedules the nights of the cup (a play-off table's, the final's) once the cup
    knows who plays them."""
    season = get_object_or_404(Season, name=name)
    _board_only(request, season)
    plan = cup.cup_nights(season)
    posted = request.POST.get("soiree") if request.method == "POST" else None
    rows = []
    for cup_night in plan.nights:
        data = request.POST if posted == cup_night.key else None
        rows.append(
            (cup_night, CupNightForm(season, data, prefix=cup_night.key) if cup_night.ready else None)
        )
    for cup_night, form in rows:
        if form is None or not form.is_bound or not form.is_valid():
            continue
        try:
            night = services.schedule_cup_night(
                season, cup_night.stage, cup_night.table, user=request.user, **form.cleaned_data
            )
        except NightError as error:
            form.add_error(None, error.message)
        else:
            return _scheduled(request, night)
    status = 400 if posted and any(form is not None and form.errors for _n, form in rows) else 200
    context = {"season": season, "seeding_known": plan.seeding_known, "rows": rows}
    return render(request, "gamenights/cup_nights.html", context, status=status)


@login_required
def night_edit(request, pk):
    night = _night(pk)
    _board_only(request, night.season)
    form = NightForm(night.season, request.POST or None, night=night)
    if request.method == "POST" and form.is_valid():
        try:
            services.change_night(
                night, user=request.user, reason=form.cleaned_data.get("reason"), **form.fields_to_write()
            )
        except NightError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, gettext("Soirée modifiée."))
            return redirect(night)
    return render(
        request, "gamenights/night_form.html", {"season": night.season, "form": form, "night": night}
    )


@login_required
@require_POST
def night_cancel(request, pk):
    night = _night(pk)
    _board_only(request, night.season)
    form = CancelForm(request.POST, prefix="cancel")
    if form.is_valid():
        services.cancel_night(night, reason=form.cleaned_data["reason"], user=request.user)
        messages.success(request, gettext("Soirée annulée."))
        return redirect(night)
    return render(
        request, "gamenights/night.html", _night_context(request, night, cancel_form=form), status=400
    )


@login_required
@require_POST
def night_confirm(request, pk):
    """The board confirms a proposed `hote` bonus or `absence` malus, with a reason."""
    night = _night(pk)
    _board_only(request, night.season)
    form = ProposalForm(request.POST)
    if form.is_valid():
        answers = schedule.answers(night)
        wanted = (form.cleaned_data["player"].pk, form.cleaned_data["code"])
        found = [p for p in proposals.adjustments(night, answers) if (p.player.pk, p.code) == wanted]
        if not found:
            messages.info(request, gettext("Cette proposition n'est plus d'actualité."))
            return redirect(night)
        proposal, reason = found[0], form.cleaned_data["reason"]
        try:
            championship_services.add_adjustment(
                proposal.round,
                proposal.player,
                proposal.code,
                note=reason,
                entered_by=request.user,
                reason=reason,
            )
        except RoundError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, gettext("%(player)s : proposition confirmée.") % {"player": proposal.player}
            )
        return redirect(night)
    messages.error(request, gettext("Motif : obligatoire pour confirmer une proposition."))
    return redirect(night)


# --- iCal feeds ------------------------------------------------------------------------------------


def _ics(body, filename):
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@require_GET
def feed(request):
    nights = GameNight.objects.select_related("season")
    return _ics(ical.calendar(nights, gettext("Tarot-Bière : soirées")), "soirees.ics")


@require_GET
def season_feed(request, name):
    season = get_object_or_404(Season, name=name)
    nights = GameNight.objects.filter(season=season)
    name = gettext("Tarot-Bière : soirées %(season)s") % {"season": season.name}
    return _ics(ical.calendar(nights, name), f"soirees-{season.name}.ics")


@require_GET
def member_feed(request, token):
    """A member's own feed, to whoever holds its address (a bearer secret: links.feed_player)."""
    player = links.feed_player(token)
    if player is None:
        return render(request, "gamenights/link_invalid.html", status=404)
    name = gettext("Tarot-Bière : mes soirées (%(player)s)") % {"player": player}
    return _ics(ical.member_calendar(player, name), "mes-soirees.ics")
