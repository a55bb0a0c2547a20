"""`python manage.py remove_second_factor USERNAME`: remove an account's second factor (its
authenticator and its backup codes) when its owner lost both his phone and his codes, and log
out all its sessions. Run on the server, by whoever runs it (docs/exploitation.md, « Comptes et
sécurité »); the owner then logs in with his password alone and may add a new one."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from federation import second_factor


class Command(BaseCommand):
    help = "Retire la seconde vérification d'un compte (téléphone et codes de secours perdus)."

    def add_arguments(self, parser):
        parser.add_argument("username", help="le nom d'utilisateur du compte")

    def handle(self, *args, username, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"Aucun compte « {username} ».")
        if not second_factor.has_second_factor(user):
            self.stdout.write(f"Le compte « {username} » n'a pas de seconde vérification.")
            return
        second_factor.remove(user)
        ended = second_factor.end_other_sessions(user)
        self.stdout.write(
            f"Seconde vérification retirée du compte « {username} » ; {ended} session(s) fermée(s)."
        )
