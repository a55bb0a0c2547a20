"""The body each chat takes for an announcement (`webhooks.announcements.Announcement`):

- Discord: `content` (the title) and one embed (title, link, description);
- Slack (incoming webhook): `text` (the fallback) and `blocks` (one mrkdwn section);
- Matrix hookshot (generic webhook): `text` and `html`;
- plain JSON: `event` (its kind), `text`, `url` and `data`.
"""

from django.utils.html import escape

from webhooks.models import DISCORD, JSON, MATRIX, SLACK


def discord(announcement):
    return {
        "content": announcement.title[:2000],
        "embeds": [
            {
                "title": announcement.title[:256],
                "url": announcement.url,
                "description": "\n".join(announcement.lines)[:4096],
            }
        ],
    }


def slack_text(text):
    """Slack's mrkdwn escapes: `&`, `<` and `>` (a name with them would break a link)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(announcement):
    lines = slack_text("\n".join(announcement.lines))
    link = f"<{announcement.url}|{slack_text(announcement.title)}>"
    return {
        "text": announcement.text,
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(filter(None, [link, lines]))}}
        ],
    }


def matrix(announcement):
    items = "".join(f"<li>{escape(line)}</li>" for line in announcement.lines)
    html = f'<p><a href="{escape(announcement.url)}">{escape(announcement.title)}</a></p>'
    return {"text": announcement.text, "html": html + (f"<ul>{items}</ul>" if items else "")}


def plain(announcement):
    return {
        "event": announcement.kind,
        "text": announcement.text,
        "url": announcement.url,
        "data": announcement.data,
    }


BODIES = {DISCORD: discord, SLACK: slack, MATRIX: matrix, JSON: plain}


def body(webhook_format, announcement):
    return BODIES[webhook_format](announcement)
