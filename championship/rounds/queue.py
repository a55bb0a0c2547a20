"""The board's work queue: the rounds submitted for homologation in the seasons whose board a
member sits on (every season for a superuser), shown on the home page and counted in the
navigation."""

from championship.models import Round
from federation.roles import board_seasons


class HomologationQueue(list):
    """Rounds waiting for homologation, oldest first; `on_board`: whether the member sits on a
    board at all (then the navigation shows the queue, even empty)."""

    on_board = False


def homologation_queue(user):
    """The submitted rounds `user`'s boards have to homologate: none for a visitor (no query), nor
    for a member on no board (one query: most pages of most members), two queries for the board."""
    queue = HomologationQueue()
    if not user.is_authenticated:
        return queue
    seasons = board_seasons(user)
    if not seasons.exists():
        return queue
    queue.on_board = True
    queue.extend(
        Round.objects.filter(status=Round.SUBMITTED, season__in=seasons)
        .select_related("season")
        .order_by("date", "season__start_date", "stage", "table", "number")
    )
    return queue
