"""The history of every model that keeps one is read through `federation.history.HistoryManager`,
whose class is built once: django-simple-history builds a new manager class (every method of its
queryset copied, half a millisecond) at each reading of `Model.history`, which every save does to
write its history row."""

import pytest
from django.apps import apps

from championship.models import Round
from federation.history import HistoryManager
from federation.models import Player

HISTORY_KEPT = [
    model for model in apps.get_models() if hasattr(model._meta, "simple_history_manager_attribute")
]


def test_the_models_that_keep_a_history_are_found():
    names = {model.__name__ for model in HISTORY_KEPT}
    assert {"Round", "Deal", "Seat", "Report", "Player", "Season", "Webhook"} <= names


@pytest.mark.parametrize("model", HISTORY_KEPT, ids=lambda model: model._meta.label)
def test_reading_the_history_builds_no_class(model):
    attribute = model._meta.simple_history_manager_attribute
    first, second = getattr(model, attribute), getattr(model, attribute)
    assert first is not second  # a manager each time, as before (it holds the instance read)
    assert type(first) is type(second)
    assert issubclass(type(first), HistoryManager)


def test_the_history_of_an_instance_is_its_own(db):
    alice, bruno = Player.objects.create(name="Alice"), Player.objects.create(name="Bruno")
    bruno.nickname = "B."
    bruno.save()
    assert type(alice.history) is type(bruno.history) is type(Player.history)
    assert alice.history.count() == 1 and bruno.history.count() == 2
    assert Player.history.count() == 3
    assert [record.nickname for record in bruno.history.order_by("history_date")] == ["", "B."]
    assert Round.history.count() == 0
