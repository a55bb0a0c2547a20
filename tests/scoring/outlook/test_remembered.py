"""The outlook's answers remembered by the process (`scoring.outlook.season.prospects`): the same
inputs, rebuilt equal, are answered without a search and with the same answers; any other input
is searched; answers cut short by the time given are never kept; only the last `REMEMBERED`
inputs are, and what a caller does to an answer changes nothing of the next."""

from dataclasses import replace

import pytest

from scoring.outlook import season
from scoring.outlook.season import ComingRound, Contender, Rules, prospects
from scoring.rulebook import load_default_rulebook

DEFAULT = Rules.of(load_default_rulebook())


def rules(places=2, rank_points=None):
    return Rules(rank_points or dict(DEFAULT.rank_points), DEFAULT.floor, DEFAULT.cap, places, 3)


def field(points=(40, 35, 33, 31, 25, 20)):
    """Fresh objects each time, equal for equal points."""
    names = ("Alice", "Bruno", "Chloé", "David", "Émile", "Fanny")
    players = [Contender(name, p, 4) for name, p in zip(names, points, strict=True)]
    return players, [ComingRound(5), ComingRound(4, frozenset(names[:4]), night="jeudi")]


@pytest.fixture
def searches(monkeypatch):
    """The searches made (each a call of the uncached computation), from an empty memory."""
    season.forget()
    made = []
    search = season._prospects

    def counted(*args):
        made.append(args)
        return search(*args)

    monkeypatch.setattr(season, "_prospects", counted)
    yield made
    season.forget()


def test_the_same_inputs_rebuilt_are_answered_without_a_search(searches):
    first = prospects(*field(), rules())
    again = prospects(*field(), rules(rank_points={4: (10, 6, 3, 1), 5: (10, 7, 5, 3, 1)}))
    assert len(searches) == 1
    assert again == first and again is not first


@pytest.mark.parametrize(
    "other",
    [
        lambda: (field(points=(40, 35, 33, 31, 25, 21)), rules(), None),  # a point more for Fanny
        lambda: ((field()[0], field()[1][:1]), rules(), None),  # a round less
        lambda: (field(), rules(places=3), None),  # another rule
        lambda: (field(), rules(rank_points={5: (12, 7, 5, 3, 1), 4: (10, 6, 3, 1)}), None),
        lambda: (field(), rules(), 5.0),  # another time given
    ],
)
def test_any_other_input_is_searched(searches, other):
    prospects(*field(), rules())
    (players, coming), other_rules, seconds = other()
    prospects(players, coming, other_rules, need_seconds=seconds)
    assert len(searches) == 2


def test_answers_cut_short_are_not_kept(searches, monkeypatch):
    """A search out of time says a need « not exact »: the next asking searches again."""
    search = season._prospects

    def rushed(*args):
        found = search(*args)
        name = next(iter(found))
        return {**found, name: replace(found[name], need=replace(found[name].need, exact=False))}

    monkeypatch.setattr(season, "_prospects", rushed)
    cut = prospects(*field(), rules(), need_seconds=1.0)
    assert not all(prospect.need.exact for prospect in cut.values())
    monkeypatch.setattr(season, "_prospects", search)
    whole = prospects(*field(), rules(), need_seconds=1.0)
    assert len(searches) == 2 and all(prospect.need.exact for prospect in whole.values())
    assert prospects(*field(), rules(), need_seconds=1.0) == whole  # exact answers: kept
    assert len(searches) == 2


def test_only_the_last_inputs_are_kept(searches, monkeypatch):
    monkeypatch.setattr(season, "REMEMBERED", 2)
    for fanny in (20, 21, 22):
        prospects(*field(points=(40, 35, 33, 31, 25, fanny)), rules())
    prospects(*field(points=(40, 35, 33, 31, 25, 22)), rules())  # the last: kept
    prospects(*field(points=(40, 35, 33, 31, 25, 21)), rules())  # kept
    assert len(searches) == 3
    prospects(*field(points=(40, 35, 33, 31, 25, 20)), rules())  # the oldest: dropped
    assert len(searches) == 4


def test_an_answer_changed_by_its_caller_changes_nothing_of_the_next(searches):
    first = prospects(*field(), rules())
    kept = dict(first)
    first.clear()
    assert prospects(*field(), rules()) == kept
