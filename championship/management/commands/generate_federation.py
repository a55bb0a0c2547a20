"""Build a synthetic federation of a chosen size, deterministic for a seed
(see `championship.demo.generator`)."""

import time

from django.core.management.base import BaseCommand, CommandError

from championship.demo.generator import Size, generate
from championship.views.warming import warmed_at_the_end
from federation.models import Player, Season


class Command(BaseCommand):
    help = (
        "Crée une fédération synthétique (joueurs, saisons, manches homologuées, comptes-rendus, "
        "Coupe du Monde), toujours la même pour une même graine ; dans une base vide."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=20, help="nombre de joueurs (au moins 4)")
        parser.add_argument("--seasons", type=int, default=1, help="nombre de saisons")
        parser.add_argument("--rounds", type=int, default=30, help="manches régulières par saison")
        parser.add_argument("--deals", type=int, default=20, help="donnes par manche")
        parser.add_argument("--seed", type=int, default=1, help="graine du tirage")

    def handle(self, *args, **options):
        with warmed_at_the_end():  # the seasons built are warmed once, at the end
            return self.build(*args, **options)

    def build(self, *args, **options):
        size = Size(options["players"], options["seasons"], options["rounds"], options["deals"])
        if size.players < 4:
            raise CommandError("--players : au moins 4 joueurs (une table se joue à 4 ou 5).")
        if min(size.seasons, size.rounds, size.deals) < 1:
            raise CommandError("--seasons, --rounds et --deals : au moins 1.")
        if size.seasons > 30:
            raise CommandError("--seasons : 30 au plus.")
        if Player.objects.exists() or Season.objects.exists():
            raise CommandError("La base contient déjà des joueurs ou des saisons : partez d'une base vide.")
        start = time.perf_counter()

        def progress(season):
            self.stdout.write(f"Saison {season.name} : {time.perf_counter() - start:.1f} s")

        seasons = generate(size, options["seed"], progress=progress)
        self.stdout.write(
            self.style.SUCCESS(
                f"Fédération générée : {size.players} joueurs, {len(seasons)} saisons de {size.rounds} "
                f"manches de {size.deals} donnes, en {time.perf_counter() - start:.1f} s."
            )
        )
