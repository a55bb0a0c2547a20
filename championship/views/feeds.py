"""Atom feeds, so that members follow the season in their feed reader: the homologated rounds and
the published comptes-rendus, of one season or of the whole federation (Django's syndication
framework).

A feed holds only what an anonymous visitor may read: a round once homologated (never a draft or
a submitted one), the report of a homologated round once its narrative is written (never a
report in progress on a round still waiting for the board). The newest first, at most `LATEST`.
"""

from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext

from championship.labels import written_date
from championship.models import Report, Round
from championship.reports.display import render_markdown
from championship.rounds.display import round_title
from federation.models import Season
from scoring.french import num

LATEST = 30


class _AtomFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, name=None):
        return None if name is None else get_object_or_404(Season, name=name)


def _season_text(season):
    return gettext("saison %(name)s") % {"name": season.name}


class RoundsFeed(_AtomFeed):
    """The homologated rounds, latest homologation first."""

    def title(self, season):
        if season is None:
            return gettext("Tarot-Bière : manches homologuées")
        return gettext("Tarot-Bière : manches homologuées, saison %(name)s") % {"name": season.name}

    def link(self, season):
        if season is None:
            return reverse("championship:seasons")
        return reverse("championship:round_list", args=[season.name])

    def subtitle(self, season):
        return gettext("Chaque manche publiée par la Direction : vainqueur, totaux, lien vers sa feuille.")

    def items(self, season):
        rounds = Round.objects.filter(status=Round.HOMOLOGATED)
        if season is not None:
            rounds = rounds.filter(season=season)
        return (
            rounds.select_related("season")
            .prefetch_related("seats__player")
            .order_by("-homologated_at", "-date", "-pk")[:LATEST]
        )

    def item_title(self, item):
        return f"{round_title(item)} — {_season_text(item.season)}"

    def item_description(self, item):
        seats = sorted(item.seats.all(), key=lambda seat: (seat.rank or 99, seat.position))
        totals = ", ".join(f"{seat.player.name} {num(seat.total)}" for seat in seats)
        place = f" — {item.place}" if item.place else ""
        when = written_date(item.date, "l j F Y")
        return f"{when}{place}. " + gettext("Totaux : %(totals)s") % {"totals": totals}

    def item_link(self, item):
        return reverse("championship:round", args=[item.pk])

    def item_pubdate(self, item):
        return item.homologated_at

    def item_updateddate(self, item):
        return item.homologated_at


class ReportsFeed(_AtomFeed):
    """The published comptes-rendus, latest change first, the narrative in full."""

    def title(self, season):
        if season is None:
            return gettext("Tarot-Bière : comptes-rendus")
        return gettext("Tarot-Bière : comptes-rendus, saison %(name)s") % {"name": season.name}

    def link(self, season):
        if season is None:
            return reverse("championship:seasons")
        return reverse("championship:season", args=[season.name])

    def subtitle(self, season):
        return gettext("Le récit de chaque manche, par son vainqueur.")

    def items(self, season):
        reports = Report.objects.filter(round__status=Round.HOMOLOGATED).exclude(text="")
        if season is not None:
            reports = reports.filter(round__season=season)
        return reports.select_related("round__season", "author").order_by("-updated_at", "-pk")[:LATEST]

    def item_title(self, item):
        return gettext("Compte-rendu : %(round)s — %(season)s") % {
            "round": round_title(item.round),
            "season": _season_text(item.round.season),
        }

    def item_description(self, item):
        return render_markdown(item.text)

    def item_author_name(self, item):
        return item.author.name

    def item_link(self, item):
        return reverse("championship:report", args=[item.round.pk])

    def item_pubdate(self, item):
        return item.updated_at

    def item_updateddate(self, item):
        return item.updated_at


rounds_feed = RoundsFeed()
reports_feed = ReportsFeed()

urlpatterns = [
    path("manches.atom", rounds_feed, name="feed_rounds"),
    path("comptes-rendus.atom", reports_feed, name="feed_reports"),
    path("saisons/<str:name>/manches.atom", rounds_feed, name="feed_season_rounds"),
    path("saisons/<str:name>/comptes-rendus.atom", reports_feed, name="feed_season_reports"),
]
