"""Each chat's body, from one announcement: what the chat's markup would misread is escaped."""

from webhooks import formats
from webhooks.announcements import Announcement

TRICKY = Announcement(
    "night_moved",
    "night:1:2",
    "Soirée déplacée : chez <Tom & Léa>",
    ["Motif : 3 > 2"],
    "https://tarot.example/soirees/1/",
    {"place": "chez <Tom & Léa>"},
)


def test_slack_escapes_its_mrkdwn():
    body = formats.body("slack", TRICKY)
    assert body["blocks"][0]["text"]["text"] == (
        "<https://tarot.example/soirees/1/|Soirée déplacée : chez &lt;Tom &amp; Léa&gt;>\nMotif : 3 &gt; 2"
    )
    assert body["text"].startswith("Soirée déplacée : chez <Tom & Léa>")  # the plain fallback


def test_matrix_escapes_its_html():
    html = formats.body("matrix", TRICKY)["html"]
    assert html == (
        '<p><a href="https://tarot.example/soirees/1/">Soirée déplacée : chez &lt;Tom &amp; Léa&gt;</a></p>'
        "<ul><li>Motif : 3 &gt; 2</li></ul>"
    )


def test_plain_json_keeps_the_data_as_is():
    body = formats.body("json", TRICKY)
    assert body == {
        "event": "night_moved",
        "text": "Soirée déplacée : chez <Tom & Léa>\nMotif : 3 > 2\nhttps://tarot.example/soirees/1/",
        "url": "https://tarot.example/soirees/1/",
        "data": {"place": "chez <Tom & Léa>"},
    }
