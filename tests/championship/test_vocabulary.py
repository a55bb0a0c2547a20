"""The vocabulary is defined once (scoring.vocabulary): model and form choices are derived from it,
and the pages write French through the one formatter (scoring.french)."""

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from championship.forms import STAGE_CHOICES, DealForm
from championship.models import COLOURS, Deal, Round, Seat
from championship.rounds.display import round_display
from scoring import vocabulary
from scoring.rulebook import Rulebook
from tests.factories import make_round


def codes_and_labels(field):
    return [(code, str(label)) for code, label in field.choices if code != ""]


@pytest.mark.parametrize(
    ("model", "name", "labels"),
    [
        (Round, "stage", vocabulary.STAGE_LABELS),
        (Round, "status", vocabulary.STATUS_LABELS),
        (Seat, "colour", vocabulary.COLOUR_LABELS),
        (Deal, "kind", vocabulary.KIND_LABELS),
        (Deal, "contract", vocabulary.CONTRACT_LABELS),
        (Deal, "called", vocabulary.SUIT_LABELS),
        (Deal, "called_rank", vocabulary.CALLED_RANK_LABELS),
        (Deal, "petit_au_bout", vocabulary.SIDE_LABELS),
        (Deal, "chelem_made_by", vocabulary.SIDE_LABELS),
    ],
)
def test_the_model_choices_are_the_vocabulary(model, name, labels):
    with translation.override("fr"):
        assert codes_and_labels(model._meta.get_field(name)) == list(labels.items())


def test_the_play_off_tables_come_from_one_place():
    tables = list(vocabulary.PLAYOFF_TABLES)
    assert [code for code, _label in Round._meta.get_field("table").choices if code] == tables
    assert Rulebook().cup.playoff_tables == tables
    assert [code for code, _label in STAGE_CHOICES] == ["regular", *(f"playoff:{t}" for t in tables), "final"]
    assert [code for code, _label in COLOURS] == list(vocabulary.COLOURS)
    assert len(vocabulary.COLOURS) >= vocabulary.MAX_PLAYERS


def test_the_stage_choices_speak_french_and_english():
    with translation.override("fr"):
        assert [str(label) for _code, label in STAGE_CHOICES] == [
            "Saison régulière",
            "Play-off, table A",
            "Play-off, table B",
            "Finale",
        ]
    with translation.override("en"):
        assert [str(label) for _code, label in STAGE_CHOICES] == [
            "Regular season",
            "Play-off, table A",
            "Play-off, table B",
            "Final",
        ]


def test_the_deal_form_offers_the_sides_of_the_vocabulary(season):
    form = DealForm(make_round(season))
    with translation.override("fr"):
        assert [str(label) for _code, label in form.fields["petit_au_bout"].widget.choices] == [
            "non",
            "attaque",
            "défense",
        ]
        assert [str(label) for _code, label in form.fields["chelem_made_by"].widget.choices] == [
            "personne",
            "l'attaque",
            "la défense",
        ]


def test_the_round_page_elides_de_before_a_vowel(season):
    deals = [
        dict(
            dealer="Alice",
            taker="Émile",
            contract="prise",
            called="pique",
            partner="Alice",
            bouts=0,
            points=Decimal("2"),
            poignees=[("Alice", "simple")],
            miseres=["Émile"],
            chelem_made_by="defence",
        )
    ]
    (deal,) = round_display(make_round(season, deals=deals)).deals
    assert deal.summary.startswith("Prise d'Émile avec Alice, chutée de ")
    assert deal.announces == ("Poignée simple d'Alice", "Misère d'Émile", "Chelem réalisé par la défense")


@pytest.mark.parametrize(
    ("template", "shown"),
    [
        ("{{ value|num }}", "\N{MINUS SIGN}650"),
        ("{{ value|signed }}", "\N{MINUS SIGN}650"),
        ("{{ 3|signed }}", "+3"),
        ("{{ 1|ordinal }} {{ 1|ordinal:'f' }} {{ 2|ordinal }}", "1er 1re 2e"),
        ("{{ 0|plural:'manche' }}, {{ 2|plural:'manche' }}", "0 manche, 2 manches"),
        ("{{ 3|plural:'cheval,chevaux' }} {{ 2|agree:'jouée' }}", "3 chevaux jouées"),
        (
            "le récit {{ 'Igor'|of_name }}, {{ 'Hélène'|of_name }}, {{ 'Bruno'|of_name }}",
            "le récit d'Igor, d'Hélène, de Bruno",
        ),
    ],
)
def test_the_templates_use_the_formatter(template, shown):
    rendered = Template("{% load french %}" + template).render(Context({"value": -650}))
    assert rendered == shown.replace("'", "&#x27;")
