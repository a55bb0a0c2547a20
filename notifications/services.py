"""The writes of a member's reminder choices, each with its history record (who, why)."""

from django.db import transaction

from federation.history import audited
from notifications.models import KINDS, ReminderPreference

FIELDS = (*dict(KINDS), "language")


@transaction.atomic
def set_preferences(player, *, user=None, reason="choix du membre", **values):
    """Save ``values`` (among FIELDS) as ``player``'s choices; the row is made on first use."""
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise ValueError(f"Champs inconnus : {', '.join(sorted(unknown))}.")
    found, _created = ReminderPreference.objects.select_for_update().get_or_create(player=player)
    for name, value in values.items():
        setattr(found, name, value)
    with audited(user, reason) as audit:
        audit.save(found)
    return found


def unsubscribe(player, kind):
    """The one-click link: ``kind`` turned off for ``player`` (without login: no author)."""
    return set_preferences(player, reason="désinscription en un clic (lien du courriel)", **{kind: False})
