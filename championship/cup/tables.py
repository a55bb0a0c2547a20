"""Tables of the cup pages (django-tables2): not orderable, the ranking is the order."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.cup.prospects import need_cell, place_cell, status_label
from championship.labels import english_ordinal, french_active
from championship.lib.tables import SpreadsheetSafeTable
from scoring.french import num, ordinal


class CupStatusTable(SpreadsheetSafeTable):
    """Each player's play-off status and outlook in one line (docs/regles.md §6.4): where he
    can still finish certainly and at the table's play, and the rank points he needs; the
    sentences are in his « détail », below the table."""

    rank = tables.Column(_("Rang"), accessor="row", empty_values=(), attrs={"td": {"class": "rank"}})
    player = tables.Column(_("Joueur"), accessor="player")
    points = tables.Column(
        _("Points"),
        accessor="season__points",
        attrs={"th": {"class": "num"}, "td": {"class": "num points", "data-label": _("Points")}},
    )
    status = tables.Column(_("Play-offs"), accessor="status__code", attrs={"td": {"class": "status"}})
    certain = tables.Column(
        _("Quoi qu'il arrive"),
        accessor="status__prospect__certain",
        attrs={"td": {"class": "places", "data-label": _("Quoi qu'il arrive")}},
    )
    at_table = tables.Column(
        _("Au jeu de la table"),
        accessor="status__prospect__table",
        # on a phone the « détail » says it: the line keeps the certain places and the need
        attrs={"th": {"class": "wide-only"}, "td": {"class": "places wide-only"}},
    )
    need = tables.Column(
        _("Il lui faut"),
        accessor="status__prospect__need",
        attrs={"td": {"class": "need", "data-label": _("Il lui faut")}},
    )

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
            return format_html('<abbr class="muted" title="{}">{}</abbr>', _("hors classement"), _("nc"))
        rank = ordinal(record.row.rank) if french_active() else english_ordinal(record.row.rank)
        if record.row.tied:
            return gettext("%(rank)s ex æquo") % {"rank": rank}
        return rank

    def render_player(self, record):
        url = reverse("championship:player_season", args=[self.season.name, record.player.pk])
        return format_html('<a href="{}">{}</a>', url, record.player.name)

    def render_points(self, value):
        return num(value)

    def render_status(self, value):
        return format_html('<span class="cup-badge {}">{}</span>', value, status_label(value))

    def render_certain(self, value):
        return place_cell(value)

    def render_at_table(self, value):
        return place_cell(value)

    def render_need(self, value, record):
        return format_html('<a href="#detail-{}">{}</a>', record.player.pk, need_cell(value))
