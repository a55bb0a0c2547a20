"""Forms of a round as a whole: creating one (players, colours, totals), deleting a draft and
confirming its homologation."""

from django import forms
from django.utils import timezone
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from championship import bounds, choices
from championship.choices import CHIPS_LABELS
from championship.forms.fields import (
    MOTIF_MAX_LENGTH,
    BoundedIntegerField,
    PlayerChoiceField,
    TextField,
    key_field,
    unbalanced_totals,
    version_field,
)
from championship.labels import of_player
from championship.models import COLOURS, Round
from championship.rounds.data import next_round_number
from federation import validators
from federation.models import Player
from scoring.vocabulary import FINAL, MAX_PLAYERS, PLAYOFF, PLAYOFF_TABLES, REGULAR, TABLE_SIZES

STAGE_CHOICES = [
    (REGULAR, capfirst(dict(choices.STAGES)[REGULAR])),
    *(
        (f"{PLAYOFF}:{table}", format_lazy(_("Play-off, table {table}"), table=table))
        for table in PLAYOFF_TABLES
    ),
    (FINAL, capfirst(dict(choices.STAGES)[FINAL])),
]
# French names of the engine's fields, as the errors name them.


class RoundCreateForm(forms.Form):
    ROWS = MAX_PLAYERS

    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"required": _("Date : obligatoire."), "invalid": _("Date : date invalide.")},
    )
    place = TextField(field_name=_("Lieu"), formula=True, label=_("Lieu"), max_length=120, required=False)
    stage = forms.ChoiceField(label=_("Phase"), choices=STAGE_CHOICES, initial=REGULAR)
    number = BoundedIntegerField(
        field_name=_("Numéro"),
        bounds=bounds.ROUND_NUMBER,
        label=_("Numéro"),
        required=False,
        error_messages={"invalid": _("Numéro : un nombre entier.")},
    )
    totals_only = forms.BooleanField(
        label=_("Totaux seuls (les donnes n'ont pas été gardées)"),
        required=False,
    )

    def __init__(self, season, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["key"] = key_field()
        self.season = season
        next_number = next_round_number(season)
        self.fields["number"].help_text = gettext(
            "Vide : le prochain numéro libre (%(number)s en saison régulière)."
        ) % {"number": next_number}
        self.fields["number"].widget.attrs["placeholder"] = str(next_number)
        self.fields["date"].initial = timezone.localdate()
        players = Player.objects.all()
        for row in range(1, self.ROWS + 1):
            values = {"row": row}
            if row == self.ROWS:
                label = gettext("Place %(row)s (à 5 joueurs)") % values
            else:
                label = gettext("Place %(row)s") % values
            self.fields[f"player_{row}"] = PlayerChoiceField(
                label=label,
                queryset=players,
                first=lambda player: not player.active,  # the active players first
                required=False,
                empty_label=gettext("— joueur —"),
                error_messages={"invalid_choice": gettext("Joueur %(row)s : joueur inconnu.") % values},
            )
            self.fields[f"colour_{row}"] = forms.ChoiceField(
                label=gettext("Jetons %(row)s") % values,
                choices=[("", gettext("— couleur —")), *COLOURS],
                required=False,
                initial=COLOURS[row - 1][0],
                error_messages={"invalid_choice": gettext("Couleur %(row)s : couleur inconnue.") % values},
            )
            self.fields[f"total_{row}"] = BoundedIntegerField(
                field_name=gettext("Total %(row)s") % values,
                bounds=bounds.ROUND_TOTAL,
                label=gettext("Total %(row)s") % values,
                required=False,
                widget=forms.NumberInput(attrs={"placeholder": gettext("total (ex. -120)")}),
                error_messages={
                    "invalid": gettext("Total %(row)s : un nombre entier (négatif permis).") % values
                },
            )

    @classmethod
    def prefill(cls, query):
        """Initial values from the query string: a night of the calendar (gamenights) links here
        with its date, place, stage and the players who came; nothing is written before the
        secretary sends the form."""
        names = ["date", "place", "stage", *(f"player_{row}" for row in range(1, cls.ROWS + 1))]
        return {name: query[name] for name in names if query.get(name)}

    def rows(self):
        """The bound fields of each seat row, for the template."""
        return [
            (row, self[f"player_{row}"], self[f"colour_{row}"], self[f"total_{row}"])
            for row in range(1, self.ROWS + 1)
        ]

    def clean(self):
        data = super().clean()
        if data.get("date") is not None:
            season = self.season
            problem = bounds.round_date_problem(data["date"], season.name, season.start_date, season.end_date)
            if problem:
                self.add_error("date", validators.field_message(gettext("Date"), problem))
        stage, _sep, table = data.get("stage", REGULAR).partition(":")
        data["stage_code"], data["table"] = stage, table
        seated = []
        for row in range(1, self.ROWS + 1):
            player = data.get(f"player_{row}")
            if player is None:
                if data.get(f"total_{row}") is not None:
                    self.add_error(
                        f"player_{row}",
                        gettext("Joueur %(row)s : choisissez le joueur de ce total.") % {"row": row},
                    )
                continue
            seated.append((row, player, data.get(f"colour_{row}", ""), data.get(f"total_{row}")))
        self._check_players(seated)
        self._check_colours(seated)
        if data.get("totals_only"):
            self._check_totals(seated)
        else:
            for row, _player, _colour, total in seated:
                if total is not None:
                    self.add_error(
                        f"total_{row}",
                        gettext(
                            "Total %(row)s : à remplir seulement pour une manche « totaux seuls » "
                            "(cochez la case)."
                        )
                        % {"row": row},
                    )
        number = data.get("number")
        if (
            number
            and Round.objects.filter(season=self.season, stage=stage, table=table, number=number).exists()
        ):
            self.add_error(
                "number",
                gettext("Numéro : la manche %(number)s existe déjà dans cette phase.") % {"number": number},
            )
        data["seated"] = seated
        return data

    def _check_players(self, seated):
        count = len(seated)
        if count not in TABLE_SIZES:
            empty = next(
                (row for row in range(1, self.ROWS + 1) if self.cleaned_data.get(f"player_{row}") is None),
                self.ROWS,
            )
            # French puts 0 in the singular (« 0 choisi »), as 1: gettext's fallback would not.
            message = ngettext(
                "Joueurs : une manche se joue à 4 ou 5 joueurs (%(count)s choisi).",
                "Joueurs : une manche se joue à 4 ou 5 joueurs (%(count)s choisis).",
                count if count > 1 else 1,
            )
            self.add_error(f"player_{empty}", message % {"count": count})
        first_row = {}
        for row, player, _colour, _total in seated:
            if player.pk in first_row:
                self.add_error(
                    f"player_{row}",
                    gettext("Joueur %(row)s : %(player)s occupe déjà la place %(first)s.")
                    % {"row": row, "player": player, "first": first_row[player.pk]},
                )
            else:
                first_row[player.pk] = row

    def _check_colours(self, seated):
        first_row = {}
        for row, _player, colour, _total in seated:
            if not colour:
                continue
            if colour in first_row:
                self.add_error(
                    f"colour_{row}",
                    gettext("Couleur %(row)s : les %(chips)s sont déjà à la place %(first)s.")
                    % {"row": row, "chips": CHIPS_LABELS[colour], "first": first_row[colour]},
                )
            else:
                first_row[colour] = row

    def _check_totals(self, seated):
        missing = False
        for row, player, _colour, total in seated:
            if total is None:
                missing = True
                if f"total_{row}" in self.errors:  # typed but refused (not a number, out of bounds)
                    continue
                self.add_error(
                    f"total_{row}",
                    gettext("Total %(row)s : le total %(of_player)s est obligatoire.")
                    % {"row": row, "of_player": of_player(str(player), english="for")},
                )
        if not missing and seated:
            error = unbalanced_totals(total for _row, _player, _colour, total in seated)
            if error:
                self.add_error(None, error)

    def creation(self):
        """The arguments of `services.create_round` for this valid form (but the author)."""
        data = self.cleaned_data
        seated = data["seated"]
        totals = {player.name: total for _row, player, _colour, total in seated}
        return {
            "season": self.season,
            "players": [player for _row, player, _colour, _total in seated],
            "colours": [colour or "" for _row, _player, colour, _total in seated],
            "totals": totals if data.get("totals_only") else None,
            "number": data.get("number") or None,
            "stage": data["stage_code"],
            "table": data["table"],
            "date": data["date"],
            "place": data.get("place", ""),
            "key": data.get("key"),
        }


class RoundDeleteForm(forms.Form):
    """Deleting a draft round: the reason, kept in the round's history."""

    motif = TextField(
        field_name=_("Motif"),
        label=_("Motif de la suppression"),
        max_length=MOTIF_MAX_LENGTH,
        help_text=_("Obligatoire : il reste inscrit à l'historique de la manche."),
        error_messages={"required": _("Motif : obligatoire pour supprimer une manche.")},
    )


class HomologateForm(forms.Form):
    """Homologating a round after its confirmation page: the round's version that page showed
    (if the round changed meanwhile, the service refuses and says what changed); with
    `disputed` (a seated player disputes the sheet), the board's answer as a required motif."""

    def __init__(self, round_, *args, disputed=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"] = version_field(round_.version)
        self.future_date = round_.date > timezone.localdate()
        if self.future_date:  # a date after today: the board confirms it
            self.fields["date_confirmed"] = forms.BooleanField(
                label=_("Je confirme la date de la manche, postérieure à aujourd'hui"),
                error_messages={
                    "required": gettext(
                        "Date : la manche est datée après aujourd'hui ; confirmez cette date pour "
                        "l'homologuer, ou corrigez-la."
                    )
                },
            )
        if disputed:
            self.fields["motif"] = TextField(
                field_name=_("Motif"),
                label=_("Réponse à la contestation"),
                max_length=MOTIF_MAX_LENGTH,
                help_text=_(
                    "Obligatoire : la feuille est contestée ; la réponse est inscrite à l'historique."
                ),
                error_messages={
                    "required": gettext(
                        "Motif : obligatoire pour homologuer une manche dont la feuille est contestée."
                    )
                },
            )

    @property
    def version(self):
        return self.cleaned_data.get("version")

    @property
    def reason(self):
        return self.cleaned_data.get("motif") or None

    @property
    def date_confirmed(self):
        return bool(self.cleaned_data.get("date_confirmed"))
