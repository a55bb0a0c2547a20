"""`python manage.py warm_figures [--players]`: compute and store every season's figures, those
the warming after a write computes (`championship.views.warming.warm`), so that no reader pays
for an empty cache: after a deploy that changed the cache's prefix, a restore, a cache server
restarted (docs/exploitation.md). `--players` also computes every player's career and his page
of the current season (figures and body, in the site's language; docs/statistiques.md §9): the
pages of past seasons are computed at their first reading."""

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import translation

from championship.models import Round
from championship.stats.links import all_seasons
from championship.stats.pieces import season_players
from championship.views.stats import player_body
from championship.views.warming import warm
from federation.models import Player, Season
from federation.snapshot import read_snapshot


class Command(BaseCommand):
    help = "Calcule et garde les chiffres de chaque saison (et, avec --players, les pages des joueurs)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--players",
            action="store_true",
            help="rend aussi la carrière de chaque joueur et sa page de la saison en cours",
        )

    def handle(self, *args, players=False, **options):
        seasons = all_seasons()
        for season in reversed(seasons):  # the current season first: the most read
            warm(season.pk)
            self.stdout.write(f"Saison {season.name} : chiffres calculés.")
        if not players:
            return
        with read_snapshot(), translation.override(settings.LANGUAGE_CODE):
            current = Season.objects.current()
            playing = set(season_players(current)) if current else set()
            players = Player.objects.filter(seats__round__status=Round.HOMOLOGATED).distinct().order_by("pk")
            for player in players:
                player_body(player, None)
                if player.pk in playing:
                    player_body(player, current)
        self.stdout.write(f"Pages de {len(players)} joueurs rendues.")
