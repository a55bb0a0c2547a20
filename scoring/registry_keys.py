"""Keys of the ranking and award registries.

Kept apart so that the rulebook validator can check a season's lists of keys without importing
``scoring.ranking`` or ``scoring.awards`` (no import cycle). Each registry asserts it matches.
"""

TIEBREAK_KEYS = ("wins", "seconds", "sum_totals", "fewer_rounds")
AWARD_KEYS = ("record", "wooden_spoon", "best_taker", "wall", "most_rounds", "most_chelems")
