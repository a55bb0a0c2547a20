"""The rating page's figures (docs/statistiques.md §7) against openskill itself: each deal of the
3-round season of `conftest` played through openskill's Plackett-Luce model here, in the test,
then every figure of the page rounded once from the unrounded μ and σ."""

from openskill.models import PlackettLuce

from championship.models import Deal, Round, Seat
from championship.stats import rating as rating_pieces
from championship.stats.rating import season_rating
from federation.models import Player
from scoring.stats.rating import Rating


def openskill_by_hand(season):
    """`{name: (mu, sigma)}` of every player, each played deal with a result a game of the attack
    (taker and partner) against the others seated, the winner ranked first, in the order played."""
    model = PlackettLuce()
    skill = {}
    rounds = Round.objects.filter(season=season, status=Round.HOMOLOGATED).order_by("date", "number")
    for round_ in rounds:
        seated = list(Seat.objects.filter(round=round_).values_list("player__name", flat=True))
        for deal in round_.deals.filter(kind=Deal.PLAYED).order_by("number"):
            if deal.made is None:
                continue
            attack = {deal.taker.name} | ({deal.partner.name} if deal.partner else set())
            defence = [name for name in seated if name not in attack]
            attack = sorted(attack)
            for name in seated:
                skill.setdefault(name, model.rating())
            teams = model.rate(
                [[skill[n] for n in attack], [skill[n] for n in defence]],
                ranks=[0, 1] if deal.made else [1, 0],
            )
            for names, rated in zip((attack, defence), teams, strict=True):
                for name, new in zip(names, rated, strict=True):
                    skill[name] = new
    return {name: (rating.mu, rating.sigma) for name, rating in skill.items()}


def test_the_rating_and_its_bounds_are_openskills_rounded_once(three_rounds):
    expected = {
        name: {
            "rating": round(mu - 3 * sigma, 1),
            "mu": round(mu, 1),
            "sigma": round(sigma, 1),
            "low": round(mu - 3 * sigma, 1),
            "high": round(mu + 3 * sigma, 1),
        }
        for name, (mu, sigma) in openskill_by_hand(three_rounds[0].season).items()
    }
    got = {
        row["player"]: {key: row[key] for key in ("rating", "mu", "sigma", "low", "high")}
        for row in season_rating(three_rounds[0].season)["players"]
    }
    assert got == expected
    assert len(got) == 5


def test_the_low_bound_is_the_rating_beside_it(three_rounds, monkeypatch):
    """The issue's Alice: μ −0.634, σ 3.150. From the unrounded values: μ − 3σ = −10.084 and
    μ + 3σ = 8.816; from μ and σ first rounded (−0.6, 3.1 or 3.2) they would be −9.9 and 8.7."""
    alice = Player.objects.get(name="Alice").pk
    monkeypatch.setattr(
        rating_pieces, "ratings", lambda games: {alice: Rating(alice, -0.634, 3.150, deals=6, won=3)}
    )
    (row,) = season_rating(three_rounds[0].season)["players"]
    mu, sigma = -0.634, 3.150
    assert row["rating"] == row["low"] == round(mu - 3 * sigma, 1) == -10.1
    assert row["high"] == round(mu + 3 * sigma, 1) == 8.8
    assert (row["mu"], row["sigma"]) == (round(mu, 1), round(sigma, 1))
