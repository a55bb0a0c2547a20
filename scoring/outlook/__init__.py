"""The play-off outlook of a season still running, exact at real tables (docs/regles.md §6.4):
`scoring.outlook.season` (the answers), `scoring.outlook.blocks` (the remaining rounds as the
solver sees them), `scoring.outlook.solver` (CP-SAT), `scoring.outlook.french` (the sentences)."""
