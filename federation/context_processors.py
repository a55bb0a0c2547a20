from django.utils.functional import SimpleLazyObject

from federation.models import Season
from federation.roles import player_of

_UNREAD = object()


def current_season(request):
    """The current season (`SeasonQuerySet.current`), read at most once per request."""
    season = getattr(request, "_current_season", _UNREAD)
    if season is _UNREAD:
        season = request._current_season = Season.objects.current()
    return season


def federation(request):
    # Lazy: a page that never shows the season (a PDF, a redirect) does not read it.
    # « Moi » in the header: the identified member's player (None for anyone else), read once.
    return {
        "current_season": SimpleLazyObject(lambda: current_season(request)),
        "reader": SimpleLazyObject(lambda: player_of(request.user)),
    }
