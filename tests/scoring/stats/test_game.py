"""A player's figures of a deal (`scoring.stats.game`): the same keys count a figure and list its
deals; the slugs of the addresses come back to their keys."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rulebook import load_default_rulebook
from scoring.stats.game import (
    SINGLE_KEYS,
    add_deals,
    deal_figures,
    figure_key,
    figure_slug,
    has_figure,
    take_margin,
)

TARGETS = load_default_rulebook().deal.targets


def played(taker, partner, made, **more):
    return {
        "kind": "played",
        "taker_id": taker,
        "partner_id": partner,
        "contract": more.pop("contract", "garde"),
        "made": made,
        "petit_au_bout": more.pop("petit", None),
        "poignees": more.pop("poignees", []),
        "miseres": more.pop("miseres", []),
        "chelem_made_by": more.pop("chelem", None),
        **more,
    }


def test_the_figures_of_each_role_by_hand():
    # Bruno's Garde with David, petit au bout of the attack, Bruno's poignée, Chloé's misère
    deal = played(2, 4, True, petit="attack", poignees=[{"player": 2, "size": "simple"}], miseres=[3])
    assert deal_figures(deal, 2) == [
        ("poignee", "simple"), "take", ("takes", "garde"), "take_made", ("made", "garde"), "take_petit",
        "take_poignee", "petit_attack",
    ]  # fmt: skip
    assert deal_figures(deal, 4) == [
        "called",
        ("called_by", 2),
        "called_made",
        ("called_by_made", 2),
        "petit_attack",
    ]
    assert deal_figures(deal, 3) == ["miseres", "defended"]
    assert deal_figures(deal, 1) == ["defended"]
    failed = played(1, None, False, contract="garde_sans", petit="defence")
    assert deal_figures(failed, 1) == ["take", ("takes", "garde_sans"), "take_failed", "take_petit_lost"]
    assert deal_figures(failed, 5) == ["defended", "defended_failed", "petit_defence"]
    chelem = played(1, 2, True, chelem="attack")
    assert "chelems" in deal_figures(chelem, 1) and "chelems" not in deal_figures(chelem, 2)
    # a misère in a passed deal still counts
    assert deal_figures({**played(None, None, None), "kind": "passed", "miseres": [3]}, 3) == ["miseres"]


def test_the_taker_margin_rounds_half_points_to_the_winning_side():
    # 44.5 points with 1 bout (target 51): 44, −7; 49 with 2 bouts (target 41): +8
    assert take_margin(played(1, None, False, points=44.5, bouts=1), TARGETS) == -7
    assert take_margin(played(1, 2, True, points=49, bouts=2), TARGETS) == 8
    assert take_margin(played(1, 2, True, points=40.5, bouts=2), TARGETS) == -1  # 40, below 41
    assert take_margin(played(1, 2, True, points=None, bouts=None), TARGETS) is None
    counts = Counter()
    add_deals(
        counts,
        [played(1, None, False, points=44.5, bouts=1), played(1, 2, True, points=49, bouts=2)],
        1,
        TARGETS,
    )
    assert (counts["margin"], counts["margin_takes"], counts["take"]) == (1, 2, 2)


@pytest.mark.parametrize(
    "key", [*sorted(SINGLE_KEYS), ("takes", "garde_sans"), ("called_by", 12), ("poignee", "double")]
)
def test_a_slug_comes_back_to_its_key(key):
    assert figure_key(figure_slug(key)) == key


@pytest.mark.parametrize("slug", ["", "zzz", "called_by-x", "margin", "take-1"])
def test_an_unknown_slug_is_refused(slug):
    with pytest.raises(ValueError):
        figure_key(slug)


roles = st.sampled_from([1, 2, 3, 4, 5])


@given(
    taker=roles,
    partner=st.one_of(st.none(), roles),
    made=st.booleans(),
    petit=st.sampled_from([None, "attack", "defence"]),
    me=roles,
)
def test_each_player_has_one_role_and_the_counts_list_their_deals(taker, partner, made, petit, me):
    partner = None if partner == taker else partner
    deal = played(taker, partner, made, petit=petit)
    keys = deal_figures(deal, me)
    assert sum(key in keys for key in ("take", "called", "defended")) == 1
    assert ("take_made" in keys or "called_made" in keys) == (made and me in (taker, partner))
    assert ("defended_failed" in keys) == (not made and me not in (taker, partner))
    for key in keys:
        assert has_figure(deal, me, key)
