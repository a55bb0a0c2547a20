"""Model and form choices, derived from the game's vocabulary (`scoring.vocabulary`).

The labels are translated lazily (the English catalogue has them); the codes are the vocabulary's.
"""

from django.utils.translation import gettext_lazy

from scoring import vocabulary


def choices(labels):
    """``[(code, translated label)…]`` of a vocabulary mapping, in its order."""
    return [(code, gettext_lazy(label)) for code, label in labels.items()]


COLOURS = choices(vocabulary.COLOUR_LABELS)
COLOUR_LABELS = dict(COLOURS)
CHIPS_LABELS = dict(choices(vocabulary.CHIPS_LABELS))
STAGES = choices(vocabulary.STAGE_LABELS)
STATUSES = choices(vocabulary.STATUS_LABELS)
PLAYOFF_TABLES = [("", gettext_lazy("—")), *((table, table) for table in vocabulary.PLAYOFF_TABLES)]
KINDS = choices(vocabulary.KIND_LABELS)
CONTRACTS = choices(vocabulary.CONTRACT_LABELS)
SUITS = choices(vocabulary.SUIT_LABELS)
CALLED_RANKS = choices(vocabulary.CALLED_RANK_LABELS)
SIDES = choices(vocabulary.SIDE_LABELS)
SIDES_WITH_ARTICLE = choices(vocabulary.SIDE_LABELS_WITH_ARTICLE)
NOT_PLAYED_PHRASES = dict(choices(vocabulary.NOT_PLAYED_PHRASES))
