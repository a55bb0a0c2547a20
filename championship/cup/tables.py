"""Tables of the cup pages (django-tables2): not orderable, the ranking is the order."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.cup.labels import reason_text
from championship.labels import english_ordinal, french_active
from championship.lib.tables import SpreadsheetSafeTable
from scoring.french import num, ordinal
from scoring.playoff_race import ELIMINATED, IN_CONTENTION, QUALIFIED

STATUS_LABELS = {
    QUALIFIED: _("qualification assurée"),
    ELIMINATED: _("hors course"),
    IN_CONTENTION: _("en course"),
}


class CupStatusTable(SpreadsheetSafeTable):
    """Each player's status for the play-offs, with the reason it is certain (or not yet)."""

    rank = tables.Column(_("Rang"), accessor="row", empty_values=(), attrs={"td": {"class": "rank"}})
    player = tables.Column(_("Joueur"), accessor="player")
    points = tables.Column(
        _("Points"),
        accessor="season__points",
        attrs={"th": {"class": "num"}, "td": {"class": "num points", "data-label": _("Points")}},
    )
    rounds = tables.Column(
        _("Manches"),
        accessor="season__rounds",
        attrs={"th": {"class": "num"}, "td": {"class": "num rounds", "data-label": _("Manches")}},
    )
    status = tables.Column(_("Play-offs"), accessor="status__code", attrs={"td": {"class": "status"}})
    explanation = tables.Column(_("Pourquoi"), accessor="status__reason", attrs={"td": {"class": "why"}})

    player_pk = "player__pk"

    class Meta:
        orderable = False
        attrs = {"class": "cup-status"}
        row_attrs = {"class": lambda record: f"status-{record.status.code}"}

    def __init__(self, data, season, **kwargs):
        self.season = season
        super().__init__(data, **kwargs)

    def render_rank(self, record):
        if record.row is None:
            return format_html('<span class="muted">{}</span>', _("hors classement"))
        rank = ordinal(record.row.rank) if french_active() else english_ordinal(record.row.rank)
        if record.row.tied:
            return gettext("%(rank)s ex æquo") % {"rank": rank}
        return rank

    def render_player(self, record):
        url = reverse("championship:player_season", args=[self.season.name, record.player.pk])
        return format_html('<a href="{}">{}</a>', url, record.player.name)

    def render_points(self, value):
        return num(value)

    def render_explanation(self, value):
        return reason_text(value)

    def render_status(self, value):
        return format_html('<span class="cup-badge {}">{}</span>', value, STATUS_LABELS[value])
