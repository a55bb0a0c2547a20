"""Each chat's body, from one announcement: what the chat's markup would misread is escaped."""

import datetime

import pytest

from gamenights import services as nights
from webhooks import announcements, formats
from webhooks.announcements import Announcement, Text, Typed

TRICKY = Announcement(
    "night_moved",
    "night:1:2",
    Text("Soirée déplacée : chez ", Typed("<Tom & Léa>")),
    [Text("Motif : ", Typed("3 > 2"))],
    "https://tarot.example/soirees/1/",
    {"place": "chez <Tom & Léa>"},
)


def test_slack_escapes_its_mrkdwn():
    body = formats.body("slack", TRICKY)
    assert body["blocks"][0]["text"]["text"] == (
        "<https://tarot.example/soirees/1/|Soirée déplacée : chez &lt;Tom &amp; Léa&gt;>\nMotif : 3 &gt; 2"
    )
    # the fallback too: Slack reads it as mrkdwn (a `<!channel>` there would ping the channel)
    assert body["text"].startswith("Soirée déplacée : chez &lt;Tom &amp; Léa&gt;\nMotif : 3 &gt; 2")


def test_matrix_escapes_its_html():
    html = formats.body("matrix", TRICKY)["html"]
    assert html == (
        '<p><a href="https://tarot.example/soirees/1/">Soirée déplacée : chez &lt;Tom &amp; Léa&gt;</a></p>'
        "<ul><li>Motif : 3 &gt; 2</li></ul>"
    )


def test_plain_json_keeps_the_data_as_is():
    body = formats.body("json", TRICKY)
    assert body == {
        "event": "night_moved",
        "text": "Soirée déplacée : chez <Tom & Léa>\nMotif : 3 > 2\nhttps://tarot.example/soirees/1/",
        "url": "https://tarot.example/soirees/1/",
        "data": {"place": "chez <Tom & Léa>"},
    }


# --- what a member typed reaches the chat as text, never as the chat's markup ---------------------

PLACE = "Le Bar @everyone [gagnez ici](https://phish.example)"
REASON = "<@&42> <!channel> @room **urgent** ~~x~~ `code` ||spoil|| > cité #titre <https://phish.example|ici>"


@pytest.fixture
def typed(season):
    """A night moved to a place, then cancelled for a reason, as a member could type them."""
    night = nights.schedule_night(season, date=datetime.date(2010, 11, 19), place="Chez Steph")
    nights.change_night(night, place=PLACE, reason="mesure")
    night.refresh_from_db()
    return announcements.moved(night), announcements.cancelled(night, REASON)


def strings(body):
    """Every text of a body, however deep."""
    if isinstance(body, dict):
        return [text for value in body.values() for text in strings(value)]
    if isinstance(body, list):
        return [text for value in body for text in strings(value)]
    return [body] if isinstance(body, str) else []


def test_discord_mentions_nobody_and_escapes_its_markdown(typed):
    moved, cancelled = typed
    body = formats.body("discord", moved)
    assert body["allowed_mentions"] == {"parse": []}
    assert body["content"] == (
        "Soirée déplacée : désormais le 19/11/2010 à 20:30, "
        r"Le Bar \@everyone \[gagnez ici\]\(https://phish.example\)"
    )
    assert body["embeds"][0]["title"] == body["content"]
    body = formats.body("discord", cancelled)
    assert body["allowed_mentions"] == {"parse": []}
    assert body["embeds"][0]["description"] == (
        r"Motif : \<\@&42\> \<!channel\> \@room \*\*urgent\*\* \~\~x\~\~ \`code\` \|\|spoil\|\| \> cité "
        r"\#titre \<https://phish.example\|ici\>"
    )
    for text in strings(body):
        assert "[gagnez ici](" not in text and "@everyone" not in text.replace(r"\@", "")


def test_slack_escapes_what_was_typed_in_its_text_and_blocks(typed):
    _moved, cancelled = typed
    body = formats.body("slack", cancelled)
    for text in strings(body):
        assert "<!channel>" not in text and "<@&42>" not in text and "<https://phish.example|ici>" not in text
    assert "&lt;!channel&gt;" in body["text"]
    assert "&lt;https://phish.example|ici&gt;" in body["blocks"][0]["text"]["text"]
    assert body["blocks"][0]["text"]["text"].startswith("<http://localhost:8000/soirees/")  # ours: a link


def test_matrix_pings_no_room(typed):
    _moved, cancelled = typed
    body = formats.body("matrix", cancelled)
    assert "@room" not in body["text"] and "@room" not in body["html"]
    assert "@\u2060room" in body["text"]
    assert "&lt;@\u2060&amp;42&gt;" in body["html"]


def test_plain_json_keeps_what_was_typed_as_typed(typed):
    moved, _cancelled = typed
    body = formats.body("json", moved)
    assert body["data"]["place"] == PLACE and body["text"].startswith(
        f"Soirée déplacée : désormais le 19/11/2010 à 20:30, {PLACE}"
    )
