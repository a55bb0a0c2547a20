"""Errors raised by the scoring engine, with French messages for the interface."""


class ScoringError(ValueError):
    """An invalid deal or round: names the field and, when known, the deal (1-based)."""

    def __init__(self, field: str, message: str, deal_number: int | None = None):
        self.field = field
        self.message = message
        self.deal_number = deal_number
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"champ « {self.field} » : {self.message}"
        if self.deal_number is None:
            return where
        return f"donne {self.deal_number}, {where}"

    def in_deal(self, deal_number: int) -> "ScoringError":
        """The same error, located in the given deal."""
        return ScoringError(self.field, self.message, deal_number)
