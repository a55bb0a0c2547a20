"""The account page (his address, reminder choices, the member's own calendar feed and its
renewal) and the one-click unsubscribe link of the reminders (RFC 8058). The address's own pages
are in ``notifications.email_views``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from federation.models import Player
from federation.roles import player_of
from gamenights import links as night_links
from gamenights import services as night_services
from notifications import email_views, links, services
from notifications.forms import PreferencesForm
from notifications.models import KINDS, PushSubscription
from notifications.plan import preference


def saved_message(user):
    """What saving the choices did: they take effect only if a reminder can reach the account."""
    if user.email:
        return gettext("Vos choix de rappels sont enregistrés.")
    return gettext("Vos choix sont enregistrés ; ils prendront effet quand votre adresse sera confirmée.")


@login_required
@require_http_methods(["GET", "POST"])
def account(request):
    player = player_of(request.user)
    context = {"player": player, **email_views.account_context(request.user)}
    if player is not None:
        current = preference(player)
        if current.pk is None:  # first visit: the e-mails in the language of the site as seen
            current.language = get_language() or current.language
        form = PreferencesForm(request.POST or None, instance=current)
        if request.method == "POST" and form.is_valid():
            services.set_preferences(player, user=request.user, **form.values())
            messages.success(request, saved_message(request.user))
            return redirect("notifications:account")
        context.update(
            form=form,
            news_phones=PushSubscription.objects.filter(user=request.user),
            **night_links.feed_addresses(request, player),
        )
    return render(
        request, "notifications/account.html", context, status=400 if request.method == "POST" else 200
    )


@login_required
@require_POST
def feed_renew(request):
    """« Renouveler l'adresse »: a new address for the member's own calendar, the old one closed."""
    player = player_of(request.user)
    if player is None:
        raise PermissionDenied(gettext("Ce compte n'est lié à aucun joueur : pas de calendrier personnel."))
    night_services.renew_feed_key(player, user=request.user)
    messages.success(
        request,
        gettext(
            "Nouvelle adresse de votre calendrier : l'ancienne ne s'ouvre plus. Abonnez de nouveau "
            "vos agendas à celle-ci."
        ),
    )
    return redirect("notifications:account")  # its message on top: the old address is closed


@csrf_exempt  # the one-click POST of a mail client carries no CSRF token: the signature is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    """GET: a page with a button (a link opened, or fetched by a mail scanner, changes nothing);
    POST (the button, or the mail client's one-click): that kind of reminder turned off."""
    found = links.of_unsubscribe_token(token)
    if found is None:
        return render(request, "notifications/link_invalid.html", status=404)
    player = get_object_or_404(Player, pk=found[0])
    kind = found[1]
    context = {"player": player, "kind": kind, "label": dict(KINDS)[kind]}
    if request.method == "POST":
        services.unsubscribe(player, kind)
        return render(request, "notifications/unsubscribed.html", context)
    return render(request, "notifications/unsubscribe.html", context)
