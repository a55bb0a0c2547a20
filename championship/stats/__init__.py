"""The statistics pages read from the stored deals and seats (issue 25): a player's game, partners
and rivals, head to head, the palmarès, and what each player needs for the play-offs.

`pieces` reads each season once and caches its figures under the season's token (computed once
per season change, `championship.lib.summaries`); `pages` puts them together for the views
(`championship.views.stats`); `charts` draws their bar charts (server-side SVG); `palmares`,
`rating` and `needs` give the palmarès, the rating and what each player needs. The rules are
`scoring.stats` and `scoring.outlook` (docs/statistiques.md).
"""
