"""A member's own e-mail address (issue 31): he types a new one on « Mon compte »; a link mailed
to it (off the request, ``federation.outbox``; throttled, ``federation.accounts.email_change_allowed``)
confirms it: GET shows a page with a button (a mail scanner that fetches the link changes
nothing), POST changes the account's address, then the old address is told. Reminders only go to
the account's address, hence only to a confirmed one. The threat model of the link:
docs/exploitation.md, « Comptes et sécurité »; the pages: docs/utiliser.md, « Mon compte »."""

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from federation import outbox
from federation.accounts import email_change_allowed
from notifications import links, mail, services
from notifications.forms import EmailChangeForm


def account_context(user):
    """What « Mon compte » shows of the address (templates/notifications/_account_email.html)."""
    return {"email_form": EmailChangeForm(user), "pending_email": links.pending_change(user)}


def throttled_error():
    minutes = int(settings.EMAIL_CHANGE_WINDOW.total_seconds() // 60)
    return gettext(
        "Adresse électronique : trop de demandes de confirmation ; "
        "réessayez dans %(minutes)s minutes au plus."
    ) % {"minutes": minutes}


@login_required
@require_http_methods(["GET", "POST"])
def email_change(request):
    """The form (on « Mon compte », or alone here with its errors): a valid new address asked
    within the limits is recorded and its link mailed; the account's address is unchanged."""
    user = request.user
    form = EmailChangeForm(user, request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid() and not email_change_allowed(user, get_client_ip_address(request) or "inconnu"):
            form.add_error("email", throttled_error())
            status = 429
        elif form.is_valid():
            try:
                change = services.request_email_change(user, form.cleaned_data["email"])
            except ValidationError as error:
                form.add_error("email", error)
            else:
                url = request.build_absolute_uri(links.email_confirmation_path(change))
                outbox.send_later(mail.deliver, mail.address_confirmation(change, url))
                messages.success(
                    request,
                    gettext("Lien envoyé à %(email)s : ouvrez-le pour confirmer votre adresse.")
                    % {"email": change.address},
                )
                return redirect("notifications:account")
    context = {"email_form": form, "pending_email": links.pending_change(user)}
    return render(request, "notifications/email_change.html", context, status=status)


def refused(request, other_account=False):
    """The page of a link refused: invalid (404), or another account's (403)."""
    context = {"other_account": other_account}
    return render(
        request, "notifications/email_link_refused.html", context, status=403 if other_account else 404
    )


@require_http_methods(["GET", "POST"])
def email_confirm(request, token):
    """The link mailed to the new address. No login needed (the link is the proof; confirming logs
    nobody in), but another account's session is refused."""
    change = links.email_change_of_token(token)
    if change is None:
        return refused(request)
    if request.user.is_authenticated and request.user.pk != change.user_id:
        return refused(request, other_account=True)
    context = {"change": change}
    if request.method == "POST":
        try:
            change = services.confirm_email_change(change)
        except ValidationError as error:
            context["errors"] = error.messages
            return render(request, "notifications/email_confirm.html", context, status=400)
        if change.previous:
            account_url = request.build_absolute_uri(reverse("notifications:account"))
            outbox.send_later(mail.deliver, mail.address_replaced(change, account_url))
        return render(request, "notifications/email_confirmed.html", context)
    return render(request, "notifications/email_confirm.html", context)
