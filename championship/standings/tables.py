"""Tables of the standings pages (django-tables2): not orderable, the rank is the order."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from championship.lib.tables import SpreadsheetSafeTable
from scoring.french import num
from scoring.ranking import TIEBREAKS, shown_tiebreaks


class NumberColumn(tables.Column):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"th": {"class": "num"}, "td": {"class": "num"}})
        super().__init__(*args, **kwargs)


class TiebreakColumn(NumberColumn):
    """The figure of one tie-break of the season (`scoring.ranking.Tiebreak`), under its header."""

    def __init__(self, tiebreak):
        self.tiebreak = tiebreak
        super().__init__(_(tiebreak.header), accessor="standing__season", empty_values=())

    def render(self, value):
        return num(self.tiebreak.figure(value))

    def value(self, value):
        return self.tiebreak.figure(value)


def detail_column():
    return tables.Column(
        _("Détail"),
        accessor="player",
        exclude_from_export=True,
        attrs={"th": {"class": "col-detail"}, "td": {"class": "col-detail"}},
    )


class SeasonTable(SpreadsheetSafeTable):
    """Player, points (linking to their explanation) and the explanation link."""

    def __init__(self, data, season, **kwargs):
        self.season = season
        super().__init__(data, **kwargs)

    def explain_url(self, record):
        return reverse("championship:player_season", args=[self.season.name, record.player.pk])

    def render_player(self, record):
        url = reverse("championship:player", args=[record.player.pk])
        return format_html('<a href="{}">{}</a>', url, record.player.name)

    def value_player(self, record):
        return record.player.name

    def render_points(self, record):
        return format_html(
            '<a href="{}" title="{}">{}</a>',
            self.explain_url(record),
            _("voir chaque point"),
            num(record.points),
        )

    def value_points(self, record):
        return record.points

    def render_detail(self, record):
        return format_html('<a href="{}">{}</a>', self.explain_url(record), _("chaque point"))


class StandingsTable(SeasonTable):
    rank = tables.Column(_("Rang"), accessor="rank", attrs={"td": {"class": "rank"}})
    tied = tables.Column(_("Ex æquo"), accessor="tied", visible=False)
    player = tables.Column(_("Joueur"), accessor="player")
    points = NumberColumn(_("Points"))
    rounds = NumberColumn(_("Manches"))
    # then a column per tie-break of the season that has one, in the rulebook's order
    trend = tables.Column(_("Évolution"), accessor="trend", default="", attrs={"td": {"class": "trend"}})
    detail = detail_column()

    main = "player"
    player_pk = "player__pk"

    class Meta:
        orderable = False
        attrs = {"class": "standings stack"}
        row_attrs = {"id": lambda record: f"joueur-{record.player.pk}"}

    def __init__(self, data, season, **kwargs):
        tiebreaks = shown_tiebreaks(season.rulebook)
        columns = [(tiebreak.key, TiebreakColumn(tiebreak)) for tiebreak in tiebreaks]
        sequence = ("rank", "tied", "player", "points", "rounds", *(t.key for t in tiebreaks), "...")
        self.stacked = ("rounds", *(t.key for t in tiebreaks), "detail")
        super().__init__(data, season, extra_columns=columns, sequence=sequence, **kwargs)

    def render_rank(self, record):
        if record.tied:
            return format_html(
                '<span title="{}">{} <span class="tie">{}</span></span>',
                _("à égalité sur tous les critères de départage"),
                record.rank,
                _("ex æquo"),
            )
        decided_by = record.standing.decided_by
        if decided_by and decided_by != "points":
            rule = gettext(TIEBREAKS[decided_by].label)
            title = _("à égalité de points, départagé par : %(rule)s") % {"rule": rule}
            return format_html('<span class="decided" title="{}">{}</span>', title, record.rank)
        return record.rank

    def value_rank(self, record):
        return record.rank

    def value_tied(self, record):
        return gettext("oui") if record.tied else ""

    def render_trend(self, record):
        trend = record.trend
        if trend is None:
            return ""
        return format_html('<span class="trend-{}" title="{}">{}</span>', trend.code, trend.text, trend.label)

    def value_trend(self, record):
        return record.trend.label if record.trend else ""


class UnrankedTable(SeasonTable):
    player = tables.Column(_("Joueur"), accessor="player")
    points = NumberColumn(_("Points"))
    rounds = NumberColumn(_("Manches"))
    detail = detail_column()
    stacked = ("detail",)
    main = "player"
    player_pk = "player__pk"

    class Meta:
        orderable = False
        attrs = {"class": "standings unranked stack"}

    # Side by side on a phone, two bare numbers read as one (« 15 2 »): each says what it counts.
    def render_points(self, record):
        points = ngettext("%(points)s point", "%(points)s points", record.points) % {
            "points": num(record.points)
        }
        return format_html('<a href="{}">{}</a>', self.explain_url(record), points)

    def render_rounds(self, value):
        return ngettext("%(count)s manche", "%(count)s manches", value) % {"count": num(value)}
