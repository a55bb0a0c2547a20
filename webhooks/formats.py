"""The body each chat takes for an announcement (`webhooks.announcements.Announcement`):

- Discord: `content` (the title), one embed (title, link, description) and `allowed_mentions`
  with nothing to parse (no @everyone, role or member pinged, whatever the text says);
- Slack (incoming webhook): `text` (the fallback) and `blocks` (one mrkdwn section);
- Matrix hookshot (generic webhook): `text` and `html`;
- plain JSON: `event` (its kind), `text`, `url`, `data` and `idempotency_key`.

What a member typed (a place, a name, a reason) reaches each chat as text, never as its markup:
Discord's markdown and mentions escaped, Slack's `&`, `<` and `>` (its links and mentions),
Matrix's HTML, and there an `@` kept from « @room » (a word joiner after it). The plain JSON
gives it as typed: its receiver is a program, which reads `data`.
"""

import re

from django.utils.html import escape

from webhooks.announcements import render
from webhooks.models import DISCORD, JSON, MATRIX, SLACK

DISCORD_MARKUP = re.compile(r"([\\*_~`|<>#\[\]()@])")
WORD_JOINER = "\u2060"


SPACES = re.compile(r"[^\S\u00a0\u202f]+")  # every space and line break but the no-break ones


def one_line(text):
    """Typed text on one line: a line break would let it start a quote, heading or list. The
    no-break spaces of French typography stay (« Motif\u00a0: »)."""
    return SPACES.sub(" ", text).strip(" ")


def discord_text(text):
    """Discord's markdown escaped with backslashes: emphasis, code, spoilers, quotes, headings,
    masked links `[text](url)`, mentions `@everyone`, `<@id>`, `<#id>` (typed text is never at the
    start of a line, where « - » and « 1. » would start a list)."""
    return DISCORD_MARKUP.sub(r"\\\1", one_line(text))


def clip(text, most):
    """`text` cut to `most` characters, never leaving half an escape at its end."""
    text = text[:most]
    trailing = len(text) - len(text.rstrip("\\"))
    return text[:-1] if trailing % 2 else text


def discord(announcement):
    title = render(announcement.title, discord_text)
    lines = [render(line, discord_text) for line in announcement.lines]
    return {
        "content": clip(title, 2000),
        "embeds": [
            {
                "title": clip(title, 256),
                "url": announcement.url,
                "description": clip("\n".join(lines), 4096),
            }
        ],
        "allowed_mentions": {"parse": []},
    }


def slack_text(text):
    """Slack's mrkdwn escapes: `&`, `<` and `>` (its links `<url|text>` and mentions `<!channel>`)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(announcement):
    lines = "\n".join(render(line, slack_text, slack_text) for line in announcement.lines)
    link = f"<{announcement.url}|{render(announcement.title, slack_text, slack_text)}>"
    return {
        "text": announcement.render_text(slack_text, slack_text),
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(filter(None, [link, lines]))}}
        ],
    }


def matrix_text(text):
    """No « @room » (nor a user's ID) in typed text: Matrix would ping the whole room."""
    return text.replace("@", "@" + WORD_JOINER)


def matrix_html(text):
    return escape(matrix_text(text))


def matrix(announcement):
    items = "".join(f"<li>{render(line, matrix_html, escape)}</li>" for line in announcement.lines)
    title = render(announcement.title, matrix_html, escape)
    html = f'<p><a href="{escape(announcement.url)}">{title}</a></p>'
    return {
        "text": announcement.render_text(matrix_text),
        "html": html + (f"<ul>{items}</ul>" if items else ""),
    }


def plain(announcement):
    return {
        "event": announcement.kind,
        "text": announcement.text,
        "url": announcement.url,
        "data": announcement.data,
    }


BODIES = {DISCORD: discord, SLACK: slack, MATRIX: matrix, JSON: plain}


def body(webhook_format, announcement, idempotency_key=""):
    """The body `webhook_format` takes; the plain JSON's carries `idempotency_key` too (the
    `Idempotency-Key` header of every post, `webhooks.delivery.idempotency_key`)."""
    content = BODIES[webhook_format](announcement)
    if webhook_format == JSON and idempotency_key:
        content["idempotency_key"] = idempotency_key
    return content
