"""The entry desk: a game night entered at the table or after it (phone first): a new round,
its deals, seats, bonuses and maluses, the paper check, submit, back to draft, delete a draft.

Who may do what (federation.roles): the secretary and the board of the season create rounds, enter
deals, bonuses and maluses and submit; the board alone corrects a homologated round, always with a
motif kept in the history. Views check rights and forms, then call a `championship.services`
write; its `RoundError` is shown in French (a form sent twice stores once; a stale one is
refused, the other change shown)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST
from django_htmx.http import replace_url, reswap, retarget

from championship import services
from championship.forms import (
    AdjustmentForm,
    DealForm,
    MotifForm,
    PaperTotalsForm,
    RoundCreateForm,
    RoundDeleteForm,
    SeatColoursForm,
    SeatTotalsForm,
)
from championship.labels import of_player
from championship.models import Adjustment, Round, SubmissionKey
from championship.rounds import data as round_data
from championship.rounds.display import round_display
from championship.rounds.preview import deal_preview as score_preview
from championship.services import RoundError
from championship.views.access import (
    attempt,
    edit_url,
    get_deal_for_editing,
    get_round_for_editing,
    get_season_for_entry,
    written,
)
from federation.roles import is_board


@login_required
def round_create(request, season_name):
    season = get_season_for_entry(request, season_name)
    form = RoundCreateForm(season, request.POST or None, initial=RoundCreateForm.prefill(request.GET))
    if request.method == "POST" and form.is_valid():
        try:
            round_ = services.create_round(**form.creation(), user=request.user)
        except RoundError as error:
            if error.code != "duplicate":
                form.add_error(None, error.message)
                return render(request, "championship/rounds/create.html", {"season": season, "form": form})
            round_ = SubmissionKey.objects.select_related("round").get(key=form.cleaned_data["key"]).round
            messages.info(request, error.message)
            return redirect("championship:round_edit", round_.pk)
        messages.success(request, gettext("%(round)s créée.") % {"round": round_})
        return redirect("championship:round_edit", round_.pk)
    return render(request, "championship/rounds/create.html", {"season": season, "form": form})


@login_required
def round_edit(request, pk):
    """The entry page: seats, deals so far, the next deal, bonuses and maluses, lifecycle.

    Posting a deal: without JS, redirect to the page with the new deal highlighted; with htmx,
    answer the part of the page that changed (or the form with its errors) to swap in place.
    """
    round_ = get_round_for_editing(request, pk)
    # The round read once for the form, the write and the page (adjustments: the page only).
    data = round_data.read_round_data(round_, adjustments=request.method != "POST")
    deal_form = None
    if not round_.totals_only:
        deal_form = DealForm(round_, request.POST or None, data=data)
        deal = (
            _add_deal(request, round_, deal_form, data)
            if request.method == "POST" and deal_form.is_valid()
            else None
        )
        if deal is not None:
            done = gettext("Donne %(number)s enregistrée.") % {"number": deal.number}
            if request.htmx:
                if data.version != round_.version:  # changed by another write meanwhile
                    data = round_data.read_round_data(round_, adjustments=False)
                return _render_entry_update(request, round_, deal.number, done, data)
            messages.success(request, done)
            return redirect(edit_url(round_, deal.number))
        if request.method == "POST" and request.htmx:
            return _render_deal_errors(request, round_, deal_form)
    elif request.method == "POST":
        raise Http404(gettext("Cette manche n'a que des totaux."))
    highlight = request.GET.get("donne", "")
    if deal_form is not None and not deal_form.is_bound and "comme" in request.GET:
        deal_form.initial.update(deal_form.like_initial(request.GET["comme"]))  # « Comme la précédente »
    return _render_entry(
        request,
        round_,
        deal_form=deal_form,
        highlight=int(highlight) if highlight.isdigit() else None,
        data=data,
    )


@login_required
@require_POST
def deal_preview(request, pk, number=None):
    """htmx, as the deal form is filled: the next deal (or the correction of deal `number`)
    scored by the form's own validation (the scoring engine, as saving does), its shares and the
    new totals, or what is still missing. Nothing is written (the form's one-time key is not
    claimed)."""
    if number is None:
        round_, deal = get_round_for_editing(request, pk), None
        if round_.totals_only:
            raise Http404(gettext("Cette manche n'a que des totaux."))
    else:
        round_, deal = get_deal_for_editing(request, pk, number)
    data = round_data.read_round_data(round_, adjustments=False)
    form = DealForm(round_, request.POST, deal=deal, data=data, preview=True)
    preview = score_preview(form.scored, form.candidate, form.seats) if form.is_valid() else None
    problems = [] if preview else [error for errors in form.errors.values() for error in errors]
    return render(
        request, "championship/rounds/_deal_preview.html", {"preview": preview, "problems": problems}
    )


def store_deal(request, round_, form, data):
    """The valid deal form's deal stored by the service (its one-time key, the round's version it
    was entered at), or the service's RoundError: the entry page's and the phone queue's write."""
    return services.add_deal(
        round_,
        form.deal_fields(),
        number=form.number,
        key=form.key,
        version=form.version,
        reason=form.reason,
        user=request.user,
        data=data,
        scored=getattr(form, "scored", None),  # the form scored the round with this deal: once
    )


def _add_deal(request, round_, form, data):
    """The deal stored by the service, or None with the service's refusal on the form. A form
    sent twice is stored once: the second answer shows the round with the deal stored."""
    try:
        return store_deal(request, round_, form, data)
    except RoundError as error:
        if error.code == "duplicate":
            round_.refresh_from_db()
            return round_.deals.order_by("-number").first()
        form.add_error(None, error.message)
        return None


def _entry_context(
    request,
    round_,
    *,
    highlight=None,
    deal_form=None,
    adjustment_form=None,
    colours_form=None,
    totals_form=None,
    paper_form=None,
    data=None,
):
    board = is_board(request.user, round_.season)
    display = round_display(round_, data=data)
    seats = data.seats if data is not None else None
    last_deal = next((deal for deal in display.deals if deal.number == highlight), None)
    return {
        "round": round_,
        "display": display,
        "deal_form": deal_form,
        "adjustment_form": adjustment_form or AdjustmentForm(round_, board=board, prefix="adj"),
        "colours_form": colours_form or SeatColoursForm(round_, prefix="seats", seats=seats),
        "totals_form": (totals_form or SeatTotalsForm(round_, prefix="totals", seats=seats))
        if round_.totals_only
        else None,
        "motif_form": MotifForm(round_, prefix="del"),
        "paper_form": paper_form or PaperTotalsForm(round_, prefix="paper", seats=seats),
        "board": board,
        "date_ahead": round_.date > timezone.localdate(),  # a warning: a mistyped date?
        "highlight": last_deal.number if last_deal else None,
        "last_deal": last_deal,
        "seat_running": list(zip(display.seats, last_deal.running, last_deal.shares, strict=True))
        if last_deal
        else [],
        "undo": _undoable(round_, display, last_deal),
    }


def _undoable(round_, display, last_deal):
    """The deal just saved that « Annuler » may remove: the round's last, in a draft."""
    if last_deal is None or round_.status != Round.DRAFT or display.deals[-1].number != last_deal.number:
        return None
    return last_deal


def _render_entry(request, round_, *, highlight=None, data=None, **forms):
    context = _entry_context(request, round_, highlight=highlight, data=data, **forms)
    return render(request, "championship/rounds/edit.html", context)


def _render_entry_update(request, round_, number, done, data):
    """htmx, deal saved: scoreboard, grid with the new deal highlighted and the next deal's form.

    The address becomes the one the redirect gives without JS, and the next deal's form is
    scrolled to the top of the screen (one deal, one screen: docs/utiliser.md). `number`: the
    deal saved (None: a deal undone).
    """
    # The service left `round_` and `data` as stored (locked, rescored, the deal appended): no
    # need to read them again. The fragment shows the scoreboard, the grid and the next deal's
    # form, not the adjustments; of the other forms of the page, only the colours' version is
    # refreshed (out of band).
    display = round_display(round_, data=data, adjustments=False)
    last_deal = next((deal for deal in display.deals if deal.number == number), None)
    context = {
        "round": round_,
        "display": display,
        "deal_form": DealForm(round_, data=data),
        "colours_form": SeatColoursForm(round_, prefix="seats", seats=data.seats),
        "highlight": last_deal.number if last_deal else None,
        "last_deal": last_deal,
        "seat_running": list(zip(display.seats, last_deal.running, last_deal.shares, strict=True))
        if last_deal
        else [],
        "undo": _undoable(round_, display, last_deal),
    }
    response = render(
        request, "championship/rounds/_entry_live.html", {**context, "done": done, "oob_versions": True}
    )
    replace_url(response, edit_url(round_, number))
    return reswap(response, "outerHTML show:#saisie:top")


def _render_deal_errors(request, round_, deal_form):
    """htmx, deal refused: the form again with its errors next to the fields, in place of the form."""
    response = render(
        request, "championship/rounds/_deal_entry.html", {"round": round_, "deal_form": deal_form}
    )
    retarget(response, "#saisie")
    return reswap(response, "outerHTML show:#saisie:top")


@login_required
def deal_edit(request, pk, number):
    round_, deal = get_deal_for_editing(request, pk, number)
    form = DealForm(round_, request.POST or None, deal=deal)
    if request.method == "POST" and form.is_valid():
        return written(
            request,
            lambda: services.change_deal(
                deal, form.deal_fields(), version=form.version, reason=form.reason, user=request.user
            ),
            gettext("Donne %(number)s corrigée.") % {"number": deal.number},
            edit_url(round_, deal.number),
            reverse("championship:deal_edit", args=[round_.pk, number]),
        )
    return _render_deal_edit(request, round_, deal, form, MotifForm(round_, prefix="del", versioned=True))


def _render_deal_edit(request, round_, deal, form, delete_form):
    return render(
        request,
        "championship/rounds/deal_edit.html",
        {"round": round_, "deal": deal, "form": form, "delete_form": delete_form},
    )


@login_required
@require_POST
def deal_delete(request, pk, number):
    round_, deal = get_deal_for_editing(request, pk, number)
    form = MotifForm(round_, request.POST, prefix="del", versioned=True)
    if not form.is_valid():
        return _render_deal_edit(request, round_, deal, DealForm(round_, deal=deal), form)
    return written(
        request,
        lambda: services.delete_deal(deal, form.reason, version=form.version, user=request.user),
        gettext("Donne %(number)s supprimée ; les donnes suivantes sont renumérotées.") % {"number": number},
        edit_url(round_),
        reverse("championship:deal_edit", args=[round_.pk, number]),
    )


@login_required
@require_POST
def deal_undo(request, pk, number):
    """« Annuler » just after a deal is saved: the round's last deal deleted by the service (its
    history says so), at the round's version the saving left; refused if anything changed since."""
    round_, deal = get_deal_for_editing(request, pk, number)
    form = MotifForm(round_, request.POST, versioned=True)
    if round_.status != Round.DRAFT or round_.deals.filter(number__gt=number).exists() or not form.is_valid():
        messages.error(
            request,
            gettext("La donne %(number)s n'est plus la dernière saisie : corrigez-la depuis la grille.")
            % {"number": number},
        )
        return redirect(edit_url(round_))
    done = gettext("Donne %(number)s annulée.") % {"number": number}
    reason = gettext("annulée juste après sa saisie")
    if not attempt(
        request, lambda: services.delete_deal(deal, reason, version=form.version, user=request.user), done
    ):
        return redirect(edit_url(round_))
    if not request.htmx:
        return redirect(edit_url(round_, anchor="#saisie"))
    list(messages.get_messages(request))  # said in place, not again on the next page
    round_.refresh_from_db()  # the version the delete left (the page's offline queue reads it)
    data = round_data.read_round_data(round_, adjustments=False)
    return _render_entry_update(request, round_, None, done, data)


@login_required
@require_POST
def adjustment_add(request, pk):
    round_ = get_round_for_editing(request, pk)
    form = AdjustmentForm(round_, request.POST, board=is_board(request.user, round_.season), prefix="adj")
    if not form.is_valid():
        if request.htmx:
            return _render_bonus(request, round_, adjustment_form=form)
        return _render_entry(request, round_, deal_form=_blank_deal_form(round_), adjustment_form=form)
    try:
        adjustment = services.add_adjustment(round_, **form.addition(), entered_by=request.user)
    except RoundError as error:
        if error.code == "duplicate":
            return _bonus_answer(request, round_, error.message)
        form.add_error(None, error.message)
        if request.htmx:
            return _render_bonus(request, round_, adjustment_form=form)
        return _render_entry(request, round_, deal_form=_blank_deal_form(round_), adjustment_form=form)
    done = gettext("%(player)s : %(label)s.") % {
        "player": adjustment.player,
        "label": form.entry_label(form.catalogue[adjustment.code]),
    }
    if request.htmx:
        return _render_bonus(request, round_, bonus_done=done)
    messages.success(request, done)
    return redirect(reverse("championship:round_edit", args=[round_.pk]) + "#bonus")


@login_required
@require_POST
def adjustment_delete(request, pk, adjustment_pk):
    round_ = get_round_for_editing(request, pk)
    adjustment = get_object_or_404(Adjustment, round=round_, pk=adjustment_pk)
    form = MotifForm(round_, request.POST, prefix="del")
    if not form.is_valid():
        error = " ".join(form.errors.get("motif", []))
        if request.htmx:
            return _render_bonus(request, round_, bonus_error=error)
        messages.error(request, error)
        return redirect(reverse("championship:round_edit", args=[round_.pk]) + "#bonus")
    try:
        services.delete_adjustment(adjustment, form.reason, user=request.user)
    except RoundError as error:
        if request.htmx:
            return _render_bonus(request, round_, bonus_error=error.message)
        messages.error(request, error.message)
        return redirect(reverse("championship:round_edit", args=[round_.pk]) + "#bonus")
    # « d'Alice », « de Bruno »: the name elided as French wants it
    done = gettext("Bonus/malus %(of_player)s supprimé.") % {
        "of_player": of_player(adjustment.player.name, "of")
    }
    return _bonus_answer(request, round_, done)


def _bonus_answer(request, round_, done):
    if request.htmx:
        return _render_bonus(request, round_, bonus_done=done)
    messages.success(request, done)
    return redirect(reverse("championship:round_edit", args=[round_.pk]) + "#bonus")


def _render_bonus(request, round_, *, adjustment_form=None, **message):
    """htmx: the bonus and malus section alone, with `bonus_done` or `bonus_error`, to swap in place."""
    context = _entry_context(request, round_, adjustment_form=adjustment_form)
    return render(request, "championship/rounds/_bonus.html", {**context, **message, "oob_versions": True})


@login_required
@require_POST
def seat_colours(request, pk):
    round_ = get_round_for_editing(request, pk)
    form = SeatColoursForm(round_, request.POST, prefix="seats")
    if not form.is_valid():
        return _render_entry(request, round_, deal_form=_blank_deal_form(round_), colours_form=form)
    return written(
        request,
        lambda: services.set_seat_colours(
            round_, form.colours(), version=form.version, reason=form.reason, user=request.user
        ),
        gettext("Couleurs des jetons enregistrées."),
        edit_url(round_),
        edit_url(round_, anchor="#couleurs"),
    )


@login_required
@require_POST
def seat_totals(request, pk):
    round_ = get_round_for_editing(request, pk)
    if not round_.totals_only:
        raise Http404(gettext("Cette manche a ses donnes : ses totaux en découlent."))
    form = SeatTotalsForm(round_, request.POST, prefix="totals")
    if not form.is_valid():
        return _render_entry(request, round_, totals_form=form)
    return written(
        request,
        lambda: services.set_seat_totals(
            round_, form.totals(), version=form.version, reason=form.reason, user=request.user
        ),
        gettext("Totaux enregistrés."),
        edit_url(round_),
        edit_url(round_, anchor="#totaux"),
    )


@login_required
@require_POST
def paper_totals(request, pk):
    """The paper sheet's final totals, typed at the end of the round: stored with the round (its
    history keeps who typed them), then compared with the computed totals on the page."""
    round_ = get_round_for_editing(request, pk)
    form = PaperTotalsForm(round_, request.POST, prefix="paper")
    if not form.is_valid():
        return _render_entry(request, round_, deal_form=_blank_deal_form(round_), paper_form=form)
    return written(
        request,
        lambda: services.set_paper_totals(round_, form.totals(), reason=form.reason, user=request.user),
        gettext("Totaux de la feuille papier enregistrés."),
        edit_url(round_, anchor="#feuille"),
    )


def _blank_deal_form(round_):
    return None if round_.totals_only else DealForm(round_)


@login_required
@require_POST
def round_submit(request, pk):
    round_ = get_round_for_editing(request, pk)
    done = gettext("Manche soumise pour homologation.")
    return written(request, lambda: services.submit_round(round_, request.user), done, edit_url(round_))


@login_required
@require_POST
def round_reopen(request, pk):
    round_ = get_round_for_editing(request, pk)
    done = gettext("Manche remise en brouillon.")
    return written(request, lambda: services.reopen_round(round_, request.user), done, edit_url(round_))


@login_required
def round_delete(request, pk):
    """Delete a draft round entered by mistake, after a confirmation that asks for the reason."""
    round_ = get_round_for_editing(request, pk)
    if round_.status != Round.DRAFT:
        messages.error(request, gettext("Seule une manche en brouillon peut être supprimée."))
        return redirect("championship:round_edit", round_.pk)
    form = RoundDeleteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.delete_draft_round(round_, request.user, form.cleaned_data["motif"])
        except RoundError as error:
            messages.error(request, error.message)
            return redirect("championship:round_edit", round_.pk)
        messages.success(request, gettext("Manche supprimée : %(round)s.") % {"round": round_})
        return redirect("championship:round_list", round_.season.name)
    return render(request, "championship/rounds/delete.html", {"round": round_, "form": form})


urlpatterns = [
    path("saisons/<str:season_name>/manches/nouvelle/", round_create, name="round_create"),
    path("manches/<int:pk>/saisie/", round_edit, name="round_edit"),
    path("manches/<int:pk>/donnes/<int:number>/", deal_edit, name="deal_edit"),
    path("manches/<int:pk>/apercu/", deal_preview, name="deal_preview"),
    path("manches/<int:pk>/donnes/<int:number>/apercu/", deal_preview, name="deal_correction_preview"),
    path("manches/<int:pk>/donnes/<int:number>/supprimer/", deal_delete, name="deal_delete"),
    path("manches/<int:pk>/donnes/<int:number>/annuler/", deal_undo, name="deal_undo"),
    path("manches/<int:pk>/bonus/", adjustment_add, name="adjustment_add"),
    path(
        "manches/<int:pk>/bonus/<int:adjustment_pk>/supprimer/", adjustment_delete, name="adjustment_delete"
    ),
    path("manches/<int:pk>/couleurs/", seat_colours, name="seat_colours"),
    path("manches/<int:pk>/totaux/", seat_totals, name="seat_totals"),
    path("manches/<int:pk>/feuille-papier/", paper_totals, name="paper_totals"),
    path("manches/<int:pk>/soumettre/", round_submit, name="round_submit"),
    path("manches/<int:pk>/brouillon/", round_reopen, name="round_reopen"),
    path("manches/<int:pk>/supprimer/", round_delete, name="round_delete"),
]
