"""What the group chat is told, in French (the federation's language), for each act announced:
a homologated round (its podium, its page, its compte-rendu if filed), a compte-rendu published,
a table confirmed (a night whose answers reached the quorum), a night moved or cancelled.

Each is an `Announcement`: its kind, a stable key (one per news: the same news is written once
per webhook), a title, lines of text, a link and the data of the plain JSON format. Links are
absolute from `SITE_URL` (the site's public address, docs/exploitation.md).

Its title and lines are `Text`: our own words around what a member typed (`Typed`: a place, a
name, a season's name, a reason), so that each chat's format (`webhooks.formats`) escapes what
was typed and it reaches the chat as text, never as the chat's markup (a mention, a link)."""

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


class Typed(str):
    """Words a member typed, to be escaped by each chat's format."""


class Text(tuple):
    """A sentence: our own words (`str`), what was typed (`Typed`) and other sentences, in order."""

    def __new__(cls, *parts):
        return super().__new__(cls, parts)

    def render(self, typed=str, own=str):
        """The sentence with what was typed passed through `typed`, our own words through `own`."""
        return "".join(
            part.render(typed, own)
            if isinstance(part, Text)
            else typed(part)
            if isinstance(part, Typed)
            else own(part)
            for part in self
        )

    def __str__(self):
        return self.render()


def render(text, typed=str, own=str):
    """`text` (a `Text`, or a plain string of our own) rendered for a chat."""
    return text.render(typed, own) if isinstance(text, Text) else own(str(text))


@dataclass(frozen=True)
class Announcement:
    kind: str
    key: str
    title: Text
    lines: list
    url: str
    data: dict = field(default_factory=dict)

    @property
    def text(self):
        """Title, lines and link, as plain text."""
        return self.render_text()

    def render_text(self, typed=str, own=str):
        return "\n".join(
            [
                render(self.title, typed, own),
                *(render(line, typed, own) for line in self.lines),
                own(self.url),
            ]
        )


def round_name(round_):
    season = Typed(round_.season.name)
    if round_.stage == round_.PLAYOFF:
        return Text(f"la table de play-off {round_.table} de la saison ", season)
    if round_.stage == round_.FINAL:
        return Text("la finale de la saison ", season)
    return Text(f"la manche {round_.number} de la saison ", season)


def at_place(place):
    return Text(", ", Typed(place)) if place else Text()


def homologated(round_):
    seats = list(round_.seats.select_related("player").order_by("rank", "position"))
    podium = seats[:3]
    lines = [
        Text(f"{MEDALS[index]} ", Typed(seat.player.name), f" : {french.signed(seat.total)}")
        for index, seat in enumerate(podium)
    ]
    if Report.objects.filter(round=round_).exists():  # public from now on, with its round
        lines.append(Text(f"Compte-rendu : {absolute(f'/manches/{round_.pk}/compte-rendu/')}"))
    return Announcement(
        ROUND,
        f"round:{round_.pk}",
        Text(
            "Homologuée : ",
            round_name(round_),
            f" (jouée le {round_.date:%d/%m/%Y}",
            at_place(round_.place),
            ")",
        ),
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
    author = Text(" par ", Typed(report.author.name)) if report.author_id else Text()
    return Announcement(
        REPORT,
        f"report:{report.pk}",
        Text("Compte-rendu publié", author, " : ", round_name(round_)),
        [],
        absolute(f"/manches/{round_.pk}/compte-rendu/"),
        {"season": round_.season.name, "round": round_.number, "stage": round_.stage, "table": round_.table},
    )


def night_words(night):
    return Text(f"{night.date:%d/%m/%Y} à {night.time:%H:%M}", at_place(night.place))


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
        Text("Table confirmée : soirée du ", night_words(night)),
        [Text(f"{french.plural(len(coming), 'joueur')} : ", Typed(", ".join(coming)))],
        absolute(night.get_absolute_url()),
        night_data(night) | {"players": list(coming)},
    )


def moved(night):
    return Announcement(
        MOVED,
        f"night:{night.pk}:{night.sequence}",
        Text("Soirée déplacée : désormais le ", night_words(night)),
        [],
        absolute(night.get_absolute_url()),
        night_data(night),
    )


def cancelled(night, reason):
    return Announcement(
        CANCELLED,
        f"night:{night.pk}:{night.sequence}",
        Text("Soirée annulée : celle du ", night_words(night)),
        [Text("Motif : ", Typed(reason))] if reason else [],
        absolute(night.get_absolute_url()),
        night_data(night) | {"reason": reason},
    )
