"""Build (or bring up to date) a demo federation. Running it twice changes nothing."""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from federation.models import Official, Player, Season

DEMO_PASSWORD = "tarot-biere"
DEMO_PLAYERS = [
    ("Alice", "La Fourmi"),
    ("Bruno", "Le Président"),
    ("Chloé", "La Plume"),
    ("David", "Le Mur"),
    ("Émile", "Milou"),
    ("Fanny", ""),
    ("Gaston", "Gaga"),
    ("Hélène", ""),
    ("Igor", "Le Russe"),
    ("Julie", ""),
    ("Karim", "Kiki"),
    ("Léa", ""),
]
DEMO_BOARD = [
    ("Bruno", Official.PRESIDENT),
    ("Alice", Official.VICE_PRESIDENT),
    ("Chloé", Official.SECRETARY),
]
DEMO_SEASON = ("2010-2011", datetime.date(2010, 9, 1), datetime.date(2011, 6, 30))


def login_for(name):
    return name.lower().replace("é", "e").replace("è", "e").replace("ë", "e").replace("É", "e")


class Command(BaseCommand):
    help = "Crée (ou complète) une fédération de démonstration et affiche un identifiant d'officiel."

    @transaction.atomic
    def handle(self, *args, **options):
        players = {name: self.ensure_player(name, nickname) for name, nickname in DEMO_PLAYERS}
        name, start, end = DEMO_SEASON
        season, _ = Season.objects.get_or_create(
            name=name, defaults={"start_date": start, "end_date": end, "is_open": True}
        )
        for player_name, role in DEMO_BOARD:
            Official.objects.get_or_create(season=season, player=players[player_name], role=role)
        president = players[DEMO_BOARD[0][0]]
        self.stdout.write(self.style.SUCCESS("Fédération de démonstration prête."))
        self.stdout.write(
            f"Connexion officiel (Président) : identifiant « {president.user.username} », "
            f"mot de passe « {DEMO_PASSWORD} »"
        )
        self.stdout.write(
            "Chaque joueur de démonstration peut se connecter de même "
            f"(identifiant en minuscules sans accent, mot de passe « {DEMO_PASSWORD} »)."
        )

    def ensure_player(self, name, nickname):
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=login_for(name))
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        player, _ = Player.objects.get_or_create(name=name, defaults={"nickname": nickname, "user": user})
        return player
