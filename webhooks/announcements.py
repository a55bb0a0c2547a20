"""What the group chat is told, in French (the federation's language), for each act announced:
a homologated round (its podium, its page, its compte-rendu if filed), a compte-rendu published,
a table confirmed (a night whose answers reached the quorum), a night moved or cancelled.

Each is an `Announcement`: its kind, a stable key (one per news: the same news is written once
per webhook), a title, lines of text, a link and the data of the plain JSON format. Links are
absolute from `SITE_URL` (the site's public address, docs/exploitation.md)."""

from dataclasses import dataclass, field

from championship.models import Report
from federation.addresses import absolute
from scoring import french

ROUND, REPORT, TABLE, MOVED, CANCELLED = (
    "round_homologated",
    "report_published",
    "table_confirmed",
    "night_moved",
    "night_cancelled",
)
MEDALS = ("🥇", "🥈", "🥉")


@dataclass(frozen=True)
class Announcement:
    kind: str
    key: str
    title: str
    lines: list
    url: str
    data: dict = field(default_factory=dict)

    @property
    def text(self):
        """Title, lines and link, as plain text."""
        return "\n".join([self.title, *self.lines, self.url])


def round_name(round_):
    if round_.stage == round_.PLAYOFF:
        return f"la table de play-off {round_.table} de la saison {round_.season.name}"
    if round_.stage == round_.FINAL:
        return f"la finale de la saison {round_.season.name}"
    return f"la manche {round_.number} de la saison {round_.season.name}"


def homologated(round_):
    seats = list(round_.seats.select_related("player").order_by("rank", "position"))
    podium = seats[:3]
    lines = [
        f"{MEDALS[index]} {seat.player.name} : {french.signed(seat.total)}"
        for index, seat in enumerate(podium)
    ]
    if Report.objects.filter(round=round_).exists():  # public from now on, with its round
        lines.append(f"Compte-rendu : {absolute(f'/manches/{round_.pk}/compte-rendu/')}")
    place = f", {round_.place}" if round_.place else ""
    return Announcement(
        ROUND,
        f"round:{round_.pk}",
        f"Homologuée : {round_name(round_)} (jouée le {round_.date:%d/%m/%Y}{place})",
        lines,
        absolute(round_.get_absolute_url()),
        {
            "season": round_.season.name,
            "stage": round_.stage,
            "table": round_.table,
            "number": round_.number,
            "date": round_.date.isoformat(),
            "podium": [{"player": seat.player.name, "total": seat.total} for seat in podium],
        },
    )


def published(report):
    round_ = report.round
    author = f" par {report.author.name}" if report.author_id else ""
    return Announcement(
        REPORT,
        f"report:{report.pk}",
        f"Compte-rendu publié{author} : {round_name(round_)}",
        [],
        absolute(f"/manches/{round_.pk}/compte-rendu/"),
        {"season": round_.season.name, "round": round_.number, "stage": round_.stage, "table": round_.table},
    )


def night_words(night):
    when = f"{night.date:%d/%m/%Y} à {night.time:%H:%M}"
    return when + (f", {night.place}" if night.place else "")


def night_data(night):
    return {
        "season": night.season.name,
        "date": night.date.isoformat(),
        "time": night.time.strftime("%H:%M"),
        "place": night.place,
        "stage": night.stage,
        "table": night.table,
    }


def confirmed(night, coming):
    """`coming`: the names of those who said « je viens »."""
    return Announcement(
        TABLE,
        f"table:{night.pk}:{night.sequence}",  # moved, it may be confirmed again
        f"Table confirmée : soirée du {night_words(night)}",
        [f"{french.plural(len(coming), 'joueur')} : {', '.join(coming)}"],
        absolute(night.get_absolute_url()),
        night_data(night) | {"players": list(coming)},
    )


def moved(night):
    return Announcement(
        MOVED,
        f"night:{night.pk}:{night.sequence}",
        f"Soirée déplacée : désormais le {night_words(night)}",
        [],
        absolute(night.get_absolute_url()),
        night_data(night),
    )


def cancelled(night, reason):
    return Announcement(
        CANCELLED,
        f"night:{night.pk}:{night.sequence}",
        f"Soirée annulée : celle du {night_words(night)}",
        [f"Motif : {reason}"] if reason else [],
        absolute(night.get_absolute_url()),
        night_data(night) | {"reason": reason},
    )
