"""Build (or bring up to date) a demo federation. Running it twice changes nothing.

Two seasons: 2010-2011, finished (six hand-written sheets with their reports, generated rounds so
that ten players are ranked, then the whole Coupe du Monde up to its champion), and the current
season, in progress (homologated rounds, a report late, a round waiting for homologation).
Everything is recorded as the work of the demo's President (`bruno`).
"""

import datetime
import random
from functools import cached_property
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db import transaction

from championship.demo.cup import play_demo_cup, random_deal_specs
from championship.models import Round
from championship.services import (
    appoint_official,
    close_season,
    create_round,
    create_season,
    homologate_round,
    register_player,
    save_report,
    set_paper_totals,
    submit_round,
)
from championship.sheets import import_sheets
from championship.standings.lateness import report_author
from championship.views.warming import warmed_at_the_end
from federation.history import recorded_as
from federation.models import Official, Player, Season
from gamenights.demo import schedule_demo_nights
from scoring.french import plural, signed

DEMO_PASSWORD = "tarot-biere"
DEMO_REASON = "fédération de démonstration"
DEMO_SHEETS = Path(__file__).resolve().parents[2] / "demo" / "sheets"
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
PLACES = ["Chez Steph", "Le Bar du Coin", "Au Fût et à Mesure", "Chez Bruno", "La Cave à Hélène"]
# Regular rounds generated after the six sheets of 2010-2011: (number, date, seating).
PAST_EXTRA_ROUNDS = [
    (7, datetime.date(2011, 3, 4), ["Fanny", "Hélène", "Igor", "Karim", "Léa"]),
    (8, datetime.date(2011, 3, 25), ["Bruno", "Émile", "Fanny", "Hélène", "Igor"]),
    (9, datetime.date(2011, 4, 15), ["Chloé", "Fanny", "Hélène", "Igor", "Karim"]),
    (10, datetime.date(2011, 5, 6), ["Alice", "David", "Émile", "Julie", "Léa"]),
]


def login_for(name):
    return name.lower().replace("é", "e").replace("è", "e").replace("ë", "e")


CURRENT_ROUNDS = 10


def current_round_dates(today):
    """The current season's demo rounds: one a week, the last one two days ago."""
    last = today - datetime.timedelta(days=2)
    return [last - datetime.timedelta(weeks=CURRENT_ROUNDS - 1 - index) for index in range(CURRENT_ROUNDS)]


def current_season_dates(today):
    """Name and dates of the season under way; stretched when the demo runs early in September
    or during the summer break, so that its rounds always fall inside it."""
    first_year = today.year if today.month >= 9 else today.year - 1
    start = datetime.date(first_year, 9, 1)
    end = datetime.date(first_year + 1, 6, 30)
    first_round = current_round_dates(today)[0]
    return (
        f"{first_year}-{first_year + 1}",
        min(start, first_round - datetime.timedelta(days=10)),
        max(end, today + datetime.timedelta(days=30)),
    )


def narrative(round_):
    """A short French match report for a generated round, from its stored figures."""
    seats = list(round_.seats.select_related("player").order_by("rank", "position"))
    winner, last = seats[0], seats[-1]
    biggest = max(round_.deals.filter(kind="played"), key=lambda deal: abs(deal.unit), default=None)
    lines = [
        f"# {round_.place}",
        "",
        f"Soirée de {plural(round_.deals.count(), 'donne')}. **{winner.player}** l'emporte avec "
        f"{signed(winner.total)}, {last.player} ferme la marche ({signed(last.total)}).",
    ]
    if biggest is not None:
        verb = "passe" if biggest.made else "chute"
        lines.append(
            f"\n- **Donne {biggest.number}** : {biggest.taker} {verb} sa "
            f"{biggest.get_contract_display()}, la plus grosse donne de la soirée ({signed(biggest.unit)})."
        )
    lines.append("\nLa bière était fraîche et le pot bien garni.")
    return "\n".join(lines)


def file_report(round_, delay_days):
    save_report(
        round_,
        narrative(round_),
        author=report_author(round_),
        filed_on=round_.date + datetime.timedelta(days=delay_days),
        reason="compte-rendu déposé",
    )


class Command(BaseCommand):
    help = "Crée (ou complète) une fédération de démonstration et affiche un identifiant d'officiel."

    @transaction.atomic
    def handle(self, *args, **options):
        with warmed_at_the_end():  # the seasons built are warmed once, at the end
            return self.make(*args, **options)

    def make(self, *args, **options):
        # The demo is the President's work: he is the author of every history record it writes
        # and the official who homologates its rounds.
        self.president = self.ensure_user(DEMO_BOARD[0][0])
        with recorded_as(self.president):
            self.build()
        president = Player.objects.get(user=self.president)
        self.stdout.write(self.style.SUCCESS("Fédération de démonstration prête."))
        self.stdout.write(
            f"Connexion officiel (Président) : identifiant « {president.user.username} », "
            f"mot de passe « {DEMO_PASSWORD} »"
        )
        self.stdout.write(
            "Chaque joueur de démonstration peut se connecter de même "
            f"(identifiant en minuscules sans accent, mot de passe « {DEMO_PASSWORD} »)."
        )

    def build(self):
        players = {name: self.ensure_player(name, nickname) for name, nickname in DEMO_PLAYERS}
        self.ensure_board_access(players)
        past = self.ensure_season("2010-2011", datetime.date(2010, 9, 1), datetime.date(2011, 6, 30), players)
        if not past.rounds.exists():
            self.play_past_season(past, players)
        name, start, end = current_season_dates(datetime.date.today())
        current = self.ensure_season(name, start, end, players)
        if not current.rounds.exists():
            self.play_current_season(current, players)

    def ensure_user(self, name):
        user, created = get_user_model().objects.get_or_create(username=login_for(name))
        if created:
            user.password = self.demo_password
            user.save()
        return user

    @cached_property
    def demo_password(self):
        """DEMO_PASSWORD hashed once for every account the run creates: with the site's hasher,
        each hash takes a few tenths of a second by design, and a dozen of them were more than half
        of the command's time. The accounts then share one salt, which tells only that their
        passwords are the same: the one this command prints (docs/exploitation.md, « Commandes de
        gestion »)."""
        return make_password(DEMO_PASSWORD)

    def ensure_player(self, name, nickname):
        user = self.ensure_user(name)
        player = Player.objects.filter(name=name).first()
        return player or register_player(name, nickname=nickname, account=user, reason=DEMO_REASON)

    def ensure_board_access(self, players):
        """The board works in the admin too: staff accounts in a « Direction » group."""
        group, _ = Group.objects.get_or_create(name="Direction")
        group.permissions.set(
            Permission.objects.filter(content_type__app_label__in=["federation", "championship"])
        )
        for player_name, role in DEMO_BOARD:
            if role in Official.BOARD_ROLES:
                user = players[player_name].user
                user.is_staff = True
                user.save(update_fields=["is_staff"])
                user.groups.add(group)

    def ensure_season(self, name, start, end, players):
        season = Season.objects.filter(name=name).first()
        if season is None:
            season = create_season(name, start, end, reason=DEMO_REASON)
        for player_name, role in DEMO_BOARD:
            player = players[player_name]
            if not Official.objects.filter(season=season, player=player, role=role).exists():
                appoint_official(season, player, role, reason=DEMO_REASON)
        return season

    def play_past_season(self, season, players):
        sheets = sorted(DEMO_SHEETS.glob("manche-*.json"))
        import_sheets(
            [(path.name, path.read_bytes()) for path in sheets], homologate=True, user=self.president
        )
        rng = random.Random(2011)
        for number, date, names in PAST_EXTRA_ROUNDS:
            round_ = self.generated_round(season, players, names, number, date, rng)
            homologate_round(round_, self.president)
            file_report(round_, delay_days=rng.randint(1, 6))
        play_demo_cup(season, rng, user=self.president)
        close_season(season, reason="saison terminée")

    def play_current_season(self, season, players):
        """A round a week until a few days ago: reports filed but the last one, the last round pending."""
        rng = random.Random(season.start_date.year)
        dates = current_round_dates(datetime.date.today())
        names = [name for name, _nickname in DEMO_PLAYERS]
        for number, date in enumerate(dates, start=1):
            seated = rng.sample(names, 5)
            round_ = self.generated_round(season, players, seated, number, date, rng)
            if number == len(dates):
                self.paper_sheet_missing_a_deal(round_)
                submit_round(round_)
                continue
            homologate_round(round_, self.president)
            if number != len(dates) - 1:
                file_report(round_, delay_days=rng.randint(1, 6))
        schedule_demo_nights(season, players, PLACES, user=self.president)

    def paper_sheet_missing_a_deal(self, round_):
        """The paper totals of the round awaiting homologation, as typed from a sheet whose
        adder forgot one deal: the board sees the gap, and that deal, before homologating."""
        forgotten = next(deal for deal in round_.deals.order_by("-number") if any(deal.shares.values()))
        totals = dict(round_.seats.values_list("player_id", "total"))
        for player_id, share in forgotten.shares.items():
            totals[int(player_id)] -= share
        set_paper_totals(round_, totals, user=self.president)

    def generated_round(self, season, players, names, number, date, rng):
        seating = [players[name] for name in names]
        rng.shuffle(seating)
        specs = random_deal_specs([player.name for player in seating], rng, rng.randint(10, 16))
        return create_round(
            season, seating, specs, number=number, date=date, place=rng.choice(PLACES), status=Round.DRAFT
        )
