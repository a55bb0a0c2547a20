"""What every page of the competition shows in its navigation (settings: TEMPLATES)."""

from django.utils.functional import SimpleLazyObject

from championship.rounds.queue import homologation_queue


def championship(request):
    # Lazy: the board's queue is read only for a logged-in member, once, by the navigation.
    return {"homologation_queue": SimpleLazyObject(lambda: homologation_queue(request.user))}
