"""Game nights on the calendar: the board schedules the nights of a season, members say whether
they come, and the rules read the calendar (remaining rounds, host bonus, absence malus).

Layers: `models` and `schedule` (reads) import only `federation`, `championship.models` and
`scoring`, so that `championship.cup` may count the nights still on the calendar; `services`
(writes), `forms`, `views`, `ical` sit above `championship` and may import it.
"""
