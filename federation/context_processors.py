from django.utils.functional import SimpleLazyObject

from federation.models import Season

_UNREAD = object()


def current_season(request):
    """The current season (`SeasonQuerySet.current`), read at most once per request."""
    season = getattr(request, "_current_season", _UNREAD)
    if season is _UNREAD:
        season = request._current_season = Season.objects.current()
    return season


def federation(request):
    # Lazy: a page that never shows the season (a PDF, a redirect) does not read it.
    return {"current_season": SimpleLazyObject(lambda: current_season(request))}
