from django.utils.functional import SimpleLazyObject

from championship.queue import homologation_queue
from federation.models import Season

_UNREAD = object()


def current_season(request):
    """The current season (`SeasonQuerySet.current`), read at most once per request."""
    season = getattr(request, "_current_season", _UNREAD)
    if season is _UNREAD:
        season = request._current_season = Season.objects.current()
    return season


def federation(request):
    # Lazy: a page that never shows the season (a PDF, a redirect) does not read it, and the
    # board's queue is read only for a logged-in member, once, by the navigation.
    return {
        "current_season": SimpleLazyObject(lambda: current_season(request)),
        "homologation_queue": SimpleLazyObject(lambda: homologation_queue(request.user)),
    }
