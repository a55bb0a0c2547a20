"""`python manage.py cup SEASON --format json|text`: the Coupe du Monde of a season (docs/feuille.md)."""

import json

from django.core.management.base import BaseCommand, CommandError

from championship.cup.outlook import season_outlook, status_rows
from championship.cup.state import cup_json, cup_state
from federation.models import Season
from federation.snapshot import reads_one_snapshot
from scoring.cup_reasons import french
from scoring.outlook.french import sentence


def cup_text(state):
    """A readable summary of the cup, in French, for the terminal; while the regular season may
    still change the ranking, each player's status for the play-offs and the bound it rests on."""
    lines = [f"Coupe du Monde {state.season.name}"]
    if not state.seeds:
        lines.append("Pas de Coupe du Monde :")
        lines += [f"  {player} — {french(reason)}" for player, reason in state.exclusions]
        return "\n".join(lines + status_lines(state))
    if state.provisional:
        lines.append("Têtes de série provisoires : la saison régulière n'est pas terminée.")
    lines.append("Têtes de série : " + ", ".join(f"{s.number}. {s.player.name}" for s in state.seeds))
    for table in state.tables:
        results = ", ".join(
            f"{line.player.name}{'' if line.total is None else f' {line.total}'}" for line in table.lines
        )
        lines.append(f"Table {table.name} : {results}")
    finalists = ", ".join(player.name for player in state.finalists) or "pas encore connus"
    lines.append(f"Finalistes : {finalists}")
    lines.append(f"Champion du Monde : {state.champion.name if state.champion else 'pas encore désigné'}")
    reasons = state.exclusion_reasons
    if reasons:
        lines.append("Hors de la finale :")
        lines += [f"  {player} — {french(reason)}" for player, reason in reasons]
    lines += [f"Attention : {french(warning)}" for warning in state.warnings]
    return "\n".join(lines + status_lines(state))


def status_lines(state):
    """Each player's play-off outlook (docs/regles.md §6.4: his status, where he can still
    finish, certainly and at the table's play, and what he needs) and the bound it rests on,
    while the regular rounds or a late-report malus may still change the ranking; nothing once
    it cannot."""
    outlook = season_outlook(state.season, state.standings)
    if not (outlook.rounds or outlook.late):
        return []
    lines = [f"Qualification pour les play-offs, selon cette borne : {outlook.bound}"]
    rows = status_rows(state.season, state.standings, outlook)
    return lines + [f"  {sentence(row.prospect)}" for row in rows]


class Command(BaseCommand):
    help = "Affiche la Coupe du Monde d'une saison : têtes de série, play-offs, finalistes, champion."

    def add_arguments(self, parser):
        parser.add_argument("season", help="nom de la saison, par exemple 2010-2011")
        parser.add_argument("--format", choices=["json", "text"], default="json")

    @reads_one_snapshot
    def handle(self, *args, **options):
        try:
            season = Season.objects.get(name=options["season"])
        except Season.DoesNotExist:
            raise CommandError(f"Saison inconnue : « {options['season']} ».") from None
        state = cup_state(season)
        if options["format"] == "text":
            self.stdout.write(cup_text(state))
        else:
            self.stdout.write(json.dumps(cup_json(season, state), ensure_ascii=False, indent=2))
