"""« Moi » in every table: the identified member's own rows marked on the page he reads
(docs/utiliser.md, « Moi »).

A row, line or cell about a player says so with `data-player="<pk>"` (the tables of the site
get it from their base, `championship.lib.tables`; a template writes it by hand). Nothing else
about the reader is in the page as rendered: pieces of pages are cached per season and shared by
every reader (`championship.lib.summaries.cached_html`). The marking is done here, on the finished
answer, for its reader only: each opening tag that carries his `data-player` gets the class `me`
(site.css shows it) and `aria-current="true"` (a screen reader says so). An anonymous visitor,
an account without a player, an answer that is not an HTML page or that names no player is left
as it is, without a query.
"""

import re

from federation.roles import player_of

MARKER = b'data-player="'
CLASS = re.compile(r'(\sclass=")([^"]*)"')


def mine(pk):
    """The opening tags that carry `data-player="<pk>"` (and no other player's)."""
    return re.compile(rf'<(?P<tag>[a-zA-Z][a-zA-Z0-9]*)(?P<attrs>[^<>]*?\sdata-player="{int(pk)}"[^<>]*)>')


def marked(tag):
    attrs = tag.group("attrs")
    if CLASS.search(attrs):
        attrs = CLASS.sub(lambda found: f'{found.group(1)}{found.group(2)} me"', attrs, count=1)
    else:
        attrs += ' class="me"'
    if "aria-current=" not in attrs:
        attrs += ' aria-current="true"'
    return f"<{tag.group('tag')}{attrs}>"


def mark_rows(html, pk):
    """`html` with the rows of player `pk` marked (see the module's docstring)."""
    return mine(pk).sub(marked, html)


def mark_my_rows(get_response):
    """Middleware: the reader's rows marked on each HTML page answered to an identified member."""

    def middleware(request):
        response = get_response(request)
        if (
            getattr(response, "streaming", False)
            or not response.get("Content-Type", "").startswith("text/html")
            or MARKER not in response.content
        ):
            return response
        user = getattr(request, "user", None)
        player = player_of(user) if user is not None else None
        if player is None:
            return response
        charset = response.charset
        response.content = mark_rows(response.content.decode(charset), player.pk).encode(charset)
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(response.content))
        return response

    return middleware
