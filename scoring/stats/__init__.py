"""What the friends argue about, computed from the stored deals and seats (no Django):

- `game`: what a player did in a deal (as taker, partner, defender; misères, poignées), as the
  keys of the figures his pages count, so that a count and the list of its deals are one rule;
- `flow`: who took how many points from whom (each deal's losers pay its winners pro rata),
  partnerships (who called whom, how often, with what success) and head-to-head rounds;
- `records`: the palmarès across seasons (record round totals, wins, streaks, best seasons).

`championship.stats` reads the stored data, caches per season and presents; what each player
needs for the play-offs is `scoring.outlook`.
"""
