"""`python manage.py rulebook SEASON [--file F --reason "…" [--by USERNAME]]`: print a season's
rulebook (TOML), or replace it through `update_season_rulebook` (validated, saved and the whole
season recomputed in one transaction, all or nothing) and print whose season points changed."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from championship.services import RoundError, update_season_rulebook
from championship.standings.season import season_points
from federation.models import Season
from federation.roles import is_board
from scoring.french import num, plural
from scoring.rulebook import RulebookError


def changed_points(before, after):
    """`(name, before, after)` of every player whose points differ (None: absent), by name."""
    names = sorted(set(before) | set(after))
    return [
        (name, before.get(name), after.get(name)) for name in names if before.get(name) != after.get(name)
    ]


class Command(BaseCommand):
    help = (
        "Affiche le règlement (TOML) d'une saison ; avec --file et --reason, le remplace, recalcule "
        "toute la saison (tout ou rien) et affiche les joueurs dont les points changent."
    )

    def add_arguments(self, parser):
        parser.add_argument("season", help="nom de la saison, par exemple 2010-2011")
        parser.add_argument("--file", metavar="FICHIER", help="le nouveau règlement (TOML, UTF-8)")
        parser.add_argument("--reason", default="", help="motif du changement (obligatoire avec --file)")
        parser.add_argument(
            "--by",
            metavar="IDENTIFIANT",
            help="le compte de l'officiel qui change le règlement (Direction de la saison ou "
            "superutilisateur), auteur de l'historique",
        )

    def handle(self, *args, season, file=None, reason="", by=None, **options):
        found = Season.objects.filter(name=season).first()
        if found is None:
            raise CommandError(f"Saison « {season} » introuvable.")
        if file is None:
            if reason or by:
                raise CommandError("--reason et --by ne servent qu'avec --file.")
            text = found.rulebook_text
            self.stdout.write(text if text.endswith("\n") else text + "\n", ending="")
            return
        user = self.official(by, found)
        try:
            text = Path(file).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"--file : lecture impossible de « {file} » ({error}).") from error
        try:
            with transaction.atomic():
                before = season_points(found)
                update_season_rulebook(found, text, user=user, reason=reason)
                after = season_points(Season.objects.get(pk=found.pk))
        except RulebookError as error:
            raise CommandError(f"Règlement refusé, rien n'est enregistré — {error}") from error
        except RoundError as error:
            raise CommandError(f"{error.message} Rien n'est enregistré.") from error
        self.report(found, changed_points(before, after))

    def official(self, username, season):
        if not username:
            return None
        model = get_user_model()
        user = model._default_manager.filter(**{model.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"--by : aucun compte « {username} »")
        if not user.is_active:
            raise CommandError(f"--by : le compte « {username} » est désactivé")
        if not is_board(user, season):
            raise CommandError(
                f"--by : « {username} » n'est ni membre de la Direction de la saison {season.name} "
                "ni superutilisateur."
            )
        return user

    def report(self, season, changes):
        self.stdout.write(f"Règlement de la saison {season.name} remplacé ; saison recalculée.")
        if not changes:
            self.stdout.write("Aucun joueur ne change de points.")
            return
        self.stdout.write(f"Points de championnat changés ({plural(len(changes), 'joueur')}) :")
        for name, before, after in changes:
            old = "—" if before is None else num(before)
            new = "—" if after is None else num(after)
            self.stdout.write(f"  {name} : {old} → {new}")
