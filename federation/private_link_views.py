"""The pages of the private links (federation.private_links): opening one on a phone, the board's
list of members to hand them out, a member renewing his own and logging a phone out (the list of
his phones is on « Mon compte », templates/notifications/_account_phones.html)."""

import logging
from urllib.parse import quote

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from federation import private_links
from federation.context_processors import current_season
from federation.models import Official, PhoneSession, Player
from federation.roles import by_link, is_board, player_of

logger = logging.getLogger(__name__)
TEMPLATES = "federation/links/"


@sensitive_post_parameters("secret")
@require_http_methods(["GET", "POST"])
def open_link(request):
    """GET: the page the link opens (its secret, in the fragment, never reaches the site), whose
    script posts the secret at once; without script, a field to paste it. POST: the member is
    logged in on this phone, or refused (unknown link, inactive member, too many guesses)."""
    if request.method == "GET":
        return render(request, TEMPLATES + "open.html")
    client = get_client_ip_address(request) or "inconnu"
    if not private_links.guesses_left(client):
        return throttled(request, client)
    player = private_links.player_of_secret(private_links.secret_of(request.POST.get("secret")))
    if player is None:
        private_links.count_failure(client)
        logger.warning("Lien privé inconnu essayé depuis %s", client)
        return render(request, TEMPLATES + "open.html", {"problem": "unknown"}, status=404)
    if not private_links.may_open(player):
        return render(request, TEMPLATES + "open.html", {"problem": "inactive"}, status=403)
    private_links.open_session(request, player)
    messages.success(
        request,
        gettext(
            "Bonjour %(name)s : ce téléphone vous reconnaît désormais. Ajoutez le site à l'écran "
            "d'accueil pour le retrouver."
        )
        % {"name": player.nickname or player.name},
    )
    if Official.objects.filter(player=player).exists():
        messages.info(
            request,
            gettext(
                "Par ce lien, vous agissez en membre : vos actes d'officiel (saisir, homologuer, "
                "l'administration) demandent votre mot de passe (« Connexion par mot de passe »)."
            ),
        )
    return redirect("federation:home")


def throttled(request, client):
    retry_at = private_links.retry_at(client)
    context = {
        "failure_limit": settings.PRIVATE_LINK_FAILURE_LIMIT,
        "retry_at": retry_at,
        "retry_today": timezone.localdate(retry_at) == timezone.localdate(),
    }
    return render(request, TEMPLATES + "throttled.html", context, status=429)


def _board_only(request):
    season = current_season(request)
    if not is_board(request.user, season):
        raise PermissionDenied(
            gettext(
                "Seule la Direction de la saison en cours, connectée par son mot de passe, donne les "
                "liens privés."
            )
        )
    return season


@login_required
@require_http_methods(["GET"])
def board(request):
    """The board's list of active members, to hand each his link (« envoyer », « afficher le QR »)."""
    season = _board_only(request)
    players = list(Player.objects.filter(active=True).select_related("member_key", "user"))
    phones = private_links.live_phones_of(players)
    rows = [
        (player, getattr(player, "member_key", None), len(phones.get(player.pk, []))) for player in players
    ]
    return render(request, TEMPLATES + "board.html", {"season": season, "rows": rows})


def _link(request, secret):
    return request.build_absolute_uri(reverse("links:open")) + "#" + secret


@login_required
@require_POST
def issue(request, pk):
    """The board issues a member's link (a renewal if he had one) and sees it once: to send
    (« envoyer ») or as a large QR code (« afficher le QR »)."""
    _board_only(request)
    player = get_object_or_404(Player, pk=pk, active=True)
    secret = private_links.issue(player, user=request.user)
    mode = "qr" if request.POST.get("show") == "qr" else "send"
    link = _link(request, secret)
    email = player.user.email if player.user is not None else ""
    context = {
        "player": player,
        "link": link,
        "mode": mode,
        "email": email,
        "mailto": _mailto(email, player, link),
    }
    return render(request, TEMPLATES + "issued.html", context)


def _mailto(email, player, link):
    """A mailto: address with the link in its body, for a member who has an e-mail address."""
    if not email:
        return ""
    subject = gettext("Tarot-Bière : votre lien privé")
    body = gettext(
        "Bonjour %(name)s, voici votre lien privé : ouvrez-le sur votre téléphone, il vous y "
        "reconnaîtra. Ne le donnez à personne."
    ) % {"name": player.name}
    return f"mailto:{quote(email, safe='@')}?subject={quote(subject)}&body={quote(body + ' ' + link)}"


@login_required
@require_POST
def renew(request):
    """« Renouveler mon lien »: a new link, shown once; the old one no longer opens and every
    phone it opened is logged out, but the phone the member renews from when his link opened it
    (he holds it)."""
    player = player_of(request.user)
    if player is None:
        raise PermissionDenied(gettext("Ce compte n'est lié à aucun joueur : pas de lien privé."))
    keep = request.session.session_key if by_link(request.user) else None
    secret = private_links.issue(player, user=request.user, keep=keep)
    context = {"player": player, "link": _link(request, secret), "mode": "own"}
    return render(request, TEMPLATES + "issued.html", context)


@login_required
@require_POST
def phone_logout(request, pk):
    """« Déconnecter ce téléphone »: one of the member's phones logged out (this one too, if it is)."""
    phone = get_object_or_404(PhoneSession, pk=pk, player=player_of(request.user))
    if phone.session_key == request.session.session_key:
        logout(request)
        messages.success(request, gettext("Ce téléphone est déconnecté."))
        return redirect("federation:home")
    label = phone.label
    private_links.end_phone(phone)
    messages.success(request, gettext("Déconnecté : %(phone)s.") % {"phone": label})
    return redirect(reverse("notifications:account") + "#telephones")


app_name = "links"
urlpatterns = [
    path("moi/lien/", open_link, name="open"),
    path("compte/lien/renouveler/", renew, name="renew"),
    path("compte/telephones/<int:pk>/deconnecter/", phone_logout, name="phone_logout"),
    path("direction/liens/", board, name="board"),
    path("direction/liens/<int:pk>/", issue, name="issue"),
]
