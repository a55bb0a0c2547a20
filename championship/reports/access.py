"""Who may read a compte-rendu (and see it due): anyone once its round is homologated; before,
those who enter the season's rounds (the secretary and the board), and the player who is to
write it."""

from federation.roles import can_enter_rounds, player_of


def may_read_report(user, round_, author=None, *, season=None):
    """`author`: the round's designated writer, a callable giving him (read only when needed:
    it costs queries), or None for no one; `season`: the round's, when the caller holds it."""
    if round_.is_homologated or can_enter_rounds(user, season or round_.season):
        return True
    player = player_of(user)
    if player is None:
        return False
    author = author() if callable(author) else author
    return author is not None and author.pk == player.pk
