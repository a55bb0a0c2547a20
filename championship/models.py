"""The competition: rounds, seats, deals, adjustments, reports, play-offs and final."""
