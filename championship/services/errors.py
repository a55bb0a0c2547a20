"""The one error every write of the competition raises: a stable `code` and a French message.

Codes (tests and callers rely on them, the messages may be reworded):

- ``status``: the round is not in a state that allows this (e.g. already homologated);
- ``reason``: a reason (motif) is missing or too long;
- ``stale``: the form was read at an older version of the round or report: refused, the message
  shows the other change;
- ``duplicate``: the same form (its one-time key) was already stored;
- ``missing``: the round, deal or adjustment no longer exists;
- ``deal_number``: another deal took the number this one was entered as;
- ``number``, ``stage``, ``date``, ``place``, ``seats``, ``players``, ``colours``, ``totals``, ``deals``,
  ``catalogue``, ``player``, ``points``, ``note``, ``report``, ``text``, ``author``, ``verdict``,
  ``comment``: that field is refused;
- ``invalid``: the scoring engine refuses the round as it would be;
- ``rulebook``: the rulebook is refused (raised as `scoring.rulebook.RulebookError`).
"""


class RoundError(Exception):
    """A refused write: `code` (stable, see the module docstring) and a French `message`."""

    def __init__(self, code, message):
        self.code = code
        self.message = message
        super().__init__(message)
