"""Tables of the round pages (django-tables2). The deal grid of a round is a template of its own:
it has one column per seat and a row of explanation under each deal."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from championship import labels
from championship.lib.tables import SpreadsheetSafeTable
from championship.rounds.display import stage_label
from scoring.french import num


class RoundListTable(SpreadsheetSafeTable):
    number = tables.Column(verbose_name=_("N°"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    stage = tables.Column(verbose_name=_("Phase"), accessor="stage", empty_values=())
    # a plain column: django-tables2's DateColumn compiles a template for every cell
    date = tables.Column(verbose_name=_("Date"), attrs={"td": {"class": "nowrap"}})
    place = tables.Column(verbose_name=_("Lieu"))
    players = tables.Column(verbose_name=_("Joueurs"), empty_values=(), orderable=False)
    winner = tables.Column(verbose_name=_("Vainqueur"), empty_values=(), orderable=False)
    status = tables.Column(verbose_name=_("Statut"), empty_values=())

    stacked = ("stage", "place", "players")
    main = "winner"

    class Meta:
        orderable = False
        attrs = {"class": "rounds stack"}
        empty_text = _("Aucune manche pour l'instant.")

    def __init__(self, *args, can_enter=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.can_enter = can_enter

    def render_number(self, record):
        url = reverse("championship:round", args=[record.pk])
        return format_html('<a href="{}">{}</a>', url, record.number)

    def render_date(self, value):
        return date_format(value, "d/m/Y")

    def render_stage(self, record):
        return stage_label(record)

    def render_players(self, record):
        seats = sorted(record.seats.all(), key=lambda seat: seat.position)
        return format_html_join(
            ", ",
            '<span class="nowrap" data-player="{}"><span class="chip {}" aria-hidden="true"></span>{}</span>',
            ((seat.player_id, seat.colour, seat.player.name) for seat in seats),
        )

    def render_winner(self, record):
        winners = [seat for seat in record.seats.all() if seat.rank == 1 and seat.total]
        if not winners:
            return "—"
        return ", ".join(f"{seat.player.name} ({num(seat.total)})" for seat in winners)

    def render_status(self, record):
        links = format_html('<span class="badge {}">{}</span>', record.status, record.get_status_display())
        if self.can_enter and record.status != record.HOMOLOGATED:
            url = reverse("championship:round_edit", args=[record.pk])
            links += format_html(' <a href="{}">{}</a>', url, gettext("saisir"))
        return links


class RankingTable(SpreadsheetSafeTable):
    """The ranking of one round, from `presenters.round_display(...).ranking`."""

    rank = tables.Column(verbose_name=_("Rang"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    name = tables.Column(verbose_name=_("Joueur"))
    total = tables.Column(verbose_name=_("Total"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    championship_points = tables.Column(
        verbose_name=_("Championnat"),
        attrs={"td": {"class": "num"}, "th": {"class": "num"}},
    )

    stacked = ("championship_points",)
    main = "name"
    player_pk = "player_id"

    class Meta:
        orderable = False
        attrs = {"class": "ranking stack"}

    def __init__(self, rows, *, championship=False):
        exclude = () if championship else ("championship_points",)
        super().__init__(rows, exclude=exclude)

    def render_rank(self, record):
        if record.tied:
            return gettext("%(rank)s ex æquo") % {"rank": record.rank}
        return f"{record.rank}"

    def render_name(self, record):
        chip = format_html('<span class="chip {}" aria-hidden="true"></span>', record.colour)
        url = reverse("championship:player", args=[record.player_id])
        return format_html('{}<a href="{}">{}</a>', chip, url, record.name)

    def render_total(self, record):
        css = "pos" if record.total > 0 else "neg" if record.total < 0 else ""
        return format_html('<span class="{}">{}</span>', css, num(record.total))

    def render_championship_points(self, record):
        colon = labels.colon()
        details = format_html_join(
            "",
            "<li>{}{}{}</li>",
            ((label, colon, num(points)) for label, points in record.championship_lines),
        )
        # Points one can tap: « 13 points · détail », not a bare triangle beside a number.
        points = ngettext("%(points)s point", "%(points)s points", record.championship_points) % {
            "points": num(record.championship_points)
        }
        return format_html(
            '<details class="explain"><summary class="tap-points"><strong>{}</strong> '
            '<span class="tap-hint">{}</span></summary><ul class="plain">{}</ul></details>',
            points,
            gettext("détail"),
            details,
        )
