"""Forms of the round entry: a new round, a deal, a bonus or malus, the seat colours.

Every error names its field in French (and the deal number for a deal). A deal is validated by
the scoring engine itself: the form builds the candidate list of deals and scores the round
with it, then attaches the engine's `ScoringError` to the matching field.

Forms write nothing: a valid form hands its cleaned data to a `championship.services` write
(the view calls it), which checks again under the round's lock. A form that changes what is
stored carries the round's `version` it was read at (a stale one is refused), one that adds
something carries a one-time `key` (sent twice, it stores once); both are hidden fields.
"""

import uuid
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.utils import timezone
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from championship import choices
from championship.models import COLOURS, Deal, Round
from championship.services import DEAL_FIELDS, next_deal_number, next_round_number, score_stored_round
from federation import validators
from federation.models import Player
from scoring.errors import ScoringError
from scoring.french import signed
from scoring.vocabulary import FINAL, KING, MAX_PLAYERS, PLAYOFF, PLAYOFF_TABLES, QUEEN, REGULAR, TABLE_SIZES

MOTIF_MAX_LENGTH = 100  # django-simple-history keeps at most 100 characters of a change reason
SOLO = "seul"
COLOUR_LABELS = dict(COLOURS)
STAGE_CHOICES = [
    (REGULAR, capfirst(dict(choices.STAGES)[REGULAR])),
    *(
        (f"{PLAYOFF}:{table}", format_lazy(_("Play-off, table {table}"), table=table))
        for table in PLAYOFF_TABLES
    ),
    (FINAL, capfirst(dict(choices.STAGES)[FINAL])),
]
# French names of the engine's fields, as the errors name them.
FIELD_LABELS = {
    "kind": _("type"),
    "dealer": _("donneur"),
    "taker": _("preneur"),
    "partner": _("appelé"),
    "contract": _("contrat"),
    "called": _("roi appelé"),
    "called_rank": _("dame appelée"),
    "bouts": _("bouts"),
    "points": _("points"),
    "poignees": _("poignées"),
    "miseres": _("misères"),
    "petit_au_bout": _("petit au bout"),
    "chelem_announced": _("chelem annoncé"),
    "chelem_made_by": _("chelem réalisé"),
    "players": _("joueurs"),
    "motif": _("motif"),
}
# Engine field -> form field (poignées are placed on the select of the player concerned).
ENGINE_FIELDS = {"called_rank": "called_dame"}
NOT_PLAYED = choices.NOT_PLAYED_PHRASES
PLAYED_ONLY = [
    "taker",
    "contract",
    "called",
    "called_dame",
    "partner",
    "bouts",
    "points",
    "miseres",
    "petit_au_bout",
    "chelem_announced",
    "chelem_made_by",
]
ENGINE_NAMES = {form_name: engine_name for engine_name, form_name in ENGINE_FIELDS.items()}
MISSING_MOTIF = _("Motif : obligatoire pour modifier une manche homologuée.")


class TextField(forms.CharField):
    """A text refused with a French message naming `field_name` (the field as its errors call it) when
    it holds a control character (a one-line text, also a bidi control); `formula=True` for a
    name or a place, which an export may put in a spreadsheet."""

    def __init__(self, *args, field_name, multiline=False, formula=False, **kwargs):
        super().__init__(*args, **kwargs)
        # The shared rule says which character and names the field; Django's NUL check would not.
        self.validators = [v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)]
        self.field_name, self.multiline, self.formula = field_name, multiline, formula

    def validate(self, value):
        super().validate(value)
        if value in self.empty_values:
            return
        if self.formula:
            validators.check(self.field_name, validators.name_problem(value))
        else:
            validators.check(self.field_name, validators.text_problem(value, multiline=self.multiline))


class BoundedIntegerField(forms.IntegerField):
    """An integer within shared `bounds`, refused with the same message as the sheet import."""

    def __init__(self, *args, field_name, bounds, **kwargs):
        super().__init__(*args, **kwargs)
        self.field_name, self.bounds = field_name, bounds
        self.widget.attrs.update(min=bounds.low, max=bounds.high)

    def validate(self, value):
        super().validate(value)
        if value not in self.empty_values:
            validators.check(self.field_name, validators.bounds_problem(value, self.bounds))


def motif_field():
    return TextField(
        field_name=_("Motif"),
        label=_("Motif de la correction"),
        max_length=MOTIF_MAX_LENGTH,
        help_text=_("Obligatoire : la manche est homologuée, la correction est inscrite à l'historique."),
        error_messages={
            "required": MISSING_MOTIF,
            "max_length": gettext("Motif : %(maximum)s caractères au plus.") % {"maximum": MOTIF_MAX_LENGTH},
        },
    )


def version_field(version):
    """The version of the round (or report) the form was read at; empty: not checked."""
    return forms.IntegerField(required=False, min_value=0, initial=version, widget=forms.HiddenInput)


def key_field():
    """A one-time key, new with each blank form; the service stores a key once."""
    return forms.UUIDField(required=False, initial=uuid.uuid4, widget=forms.HiddenInput)


class MotifMixin:
    """Adds the required « motif » field when the round is homologated."""

    def add_motif(self, round_):
        if round_.is_homologated:
            self.fields["motif"] = motif_field()

    @property
    def reason(self):
        return self.cleaned_data.get("motif") or None


def parse_points(text):
    """Card points as typed on a phone: "44,5", "44.5", " 49 " -> Decimal; "" -> None."""
    text = (text or "").strip().replace(" ", "").replace(",", ".")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite():
        raise ValueError(text)
    return value


def unbalanced_totals(totals):
    """The French error when a round's totals do not cancel out, else None."""
    balance = sum(totals)
    if balance != 0:
        return gettext("Totaux : ils doivent s'annuler, or leur somme fait %(balance)s (et non 0).") % {
            "balance": balance
        }
    return None


# --- a new round ---------------------------------------------------------------------------------


class RoundCreateForm(forms.Form):
    ROWS = MAX_PLAYERS

    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"required": _("Date : obligatoire."), "invalid": _("Date : date invalide.")},
    )
    place = TextField(field_name=_("Lieu"), formula=True, label=_("Lieu"), max_length=120, required=False)
    stage = forms.ChoiceField(label=_("Phase"), choices=STAGE_CHOICES, initial=REGULAR)
    number = BoundedIntegerField(
        field_name=_("Numéro"),
        bounds=validators.ROUND_NUMBER,
        label=_("Numéro"),
        required=False,
        error_messages={"invalid": _("Numéro : un nombre entier.")},
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
            "Vide : le prochain numéro libre (%(number)s en saison régulière)."
        ) % {"number": next_number}
        self.fields["number"].widget.attrs["placeholder"] = str(next_number)
        self.fields["date"].initial = timezone.localdate()
        players = Player.objects.order_by("-active", "name")
        for row in range(1, self.ROWS + 1):
            values = {"row": row}
            if row == self.ROWS:
                label = gettext("Place %(row)s (à 5 joueurs)") % values
            else:
                label = gettext("Place %(row)s") % values
            self.fields[f"player_{row}"] = forms.ModelChoiceField(
                label=label,
                queryset=players,
                required=False,
                empty_label=gettext("— joueur —"),
                error_messages={"invalid_choice": gettext("Joueur %(row)s : joueur inconnu.") % values},
            )
            self.fields[f"colour_{row}"] = forms.ChoiceField(
                label=gettext("Jetons %(row)s") % values,
                choices=[("", gettext("— couleur —")), *COLOURS],
                required=False,
                initial=COLOURS[row - 1][0],
                error_messages={"invalid_choice": gettext("Couleur %(row)s : couleur inconnue.") % values},
            )
            self.fields[f"total_{row}"] = BoundedIntegerField(
                field_name=gettext("Total %(row)s") % values,
                bounds=validators.ROUND_TOTAL,
                label=gettext("Total %(row)s") % values,
                required=False,
                widget=forms.NumberInput(attrs={"placeholder": gettext("total (ex. -120)")}),
                error_messages={
                    "invalid": gettext("Total %(row)s : un nombre entier (négatif permis).") % values
                },
            )

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
            problem = validators.round_date_problem(
                data["date"], season.name, season.start_date, season.end_date
            )
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
                        gettext("Joueur %(row)s : choisissez le joueur de ce total.") % {"row": row},
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
                            "Total %(row)s : à remplir seulement pour une manche « totaux seuls » "
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
                gettext("Numéro : la manche %(number)s existe déjà dans cette phase.") % {"number": number},
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
                "Joueurs : une manche se joue à 4 ou 5 joueurs (%(count)s choisi).",
                "Joueurs : une manche se joue à 4 ou 5 joueurs (%(count)s choisis).",
                count if count > 1 else 1,
            )
            self.add_error(f"player_{empty}", message % {"count": count})
        first_row = {}
        for row, player, _colour, _total in seated:
            if player.pk in first_row:
                self.add_error(
                    f"player_{row}",
                    gettext("Joueur %(row)s : %(player)s est déjà assis à la place %(first)s.")
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
                    gettext("Couleur %(row)s : les jetons %(colour)s sont déjà à la place %(first)s.")
                    % {"row": row, "colour": COLOUR_LABELS[colour], "first": first_row[colour]},
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
                    gettext("Total %(row)s : le total de %(player)s est obligatoire.")
                    % {"row": row, "player": player},
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


# --- a deal --------------------------------------------------------------------------------------


class PlayerField(forms.CharField):
    """A player given by id. Any registered player passes, so that the engine can say who is
    not seated; `special` values (e.g. « seul ») pass through unchanged."""

    def __init__(self, *args, special=(), **kwargs):
        self.special = special
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        if value in self.special:
            return value
        player = Player.objects.filter(pk=value).first() if str(value).isdigit() else None
        if player is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return player


class PlayersField(forms.MultipleChoiceField):
    """Several players by id (checkboxes); duplicates and players not seated reach the engine."""

    def valid_value(self, value):
        return str(value).isdigit()

    def clean(self, value):
        values = super().clean(value)
        players = Player.objects.in_bulk([int(v) for v in values])
        if any(int(v) not in players for v in values):
            raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return [players[int(v)] for v in values]


class DealForm(MotifMixin, forms.Form):
    """Add the next deal of a round (`deal=None`) or correct `deal`."""

    kind = forms.CharField(
        label=_("Donne"), initial=Deal.PLAYED, widget=forms.RadioSelect(choices=Deal.KINDS)
    )
    dealer = PlayerField(label=_("Donneur"))
    taker = PlayerField(label=_("Preneur"), required=False)
    contract = forms.CharField(
        label=_("Contrat"),
        required=False,
        widget=forms.RadioSelect(choices=[("", "—"), *Deal.CONTRACTS]),
    )
    called = forms.CharField(
        label=_("Roi appelé"),
        required=False,
        help_text=_("À 5 joueurs seulement."),
        # « couleur » is a card suit here, a chip colour elsewhere: English needs two words.
        widget=forms.Select(choices=[("", pgettext_lazy("card suit", "— couleur —")), *Deal.SUITS]),
    )
    called_dame = forms.BooleanField(label=_("Dame appelée (4 rois en main)"), required=False)
    partner = PlayerField(
        label=_("Appelé"),
        required=False,
        special=(SOLO,),
        # Non-breaking spaces inside « » written as such: xgettext keeps a \u escape as is.
        help_text=_("À 5 joueurs seulement ; « seul » si personne."),
    )
    bouts = forms.IntegerField(
        label=_("Bouts"),
        required=False,
        widget=forms.RadioSelect(choices=[("", "—"), (0, "0"), (1, "1"), (2, "2"), (3, "3")]),
    )
    points = forms.CharField(
        label=_("Points du preneur"),
        required=False,
        max_length=10,
        widget=forms.TextInput(
            attrs={"inputmode": "decimal", "autocomplete": "off", "placeholder": _("ex. 44,5")}
        ),
    )
    miseres = PlayersField(label=_("Misères"), required=False, widget=forms.CheckboxSelectMultiple)
    petit_au_bout = forms.CharField(
        label=_("Petit au bout"),
        required=False,
        widget=forms.RadioSelect(
            choices=[("", _("non")), *choices.SIDES]
        ),
    )
    chelem_announced = forms.BooleanField(label=_("Chelem annoncé"), required=False)
    chelem_made_by = forms.CharField(
        label=_("Chelem réalisé par"),
        required=False,
        widget=forms.RadioSelect(
            choices=[("", _("personne")), *choices.SIDES_WITH_ARTICLE]
        ),
    )

    def __init__(self, round_, *args, deal=None, **kwargs):
        self.round = round_
        self.deal = deal
        self.number = deal.number if deal is not None else next_deal_number(round_)
        self.seats = list(round_.seats.select_related("player").order_by("position"))
        self.five = len(self.seats) == MAX_PLAYERS
        if deal is not None and "initial" not in kwargs:
            kwargs["initial"] = self.initial_from(deal)
            positions = {seat.player_id: seat.position for seat in self.seats}
            for item in deal.poignees:
                if item["player"] in positions:
                    kwargs["initial"][f"poignee_{positions[item['player']]}"] = item["size"]
        super().__init__(*args, **kwargs)
        self.rules = round_.season.rulebook.deal
        seat_choices = [(seat.player_id, seat.player.name) for seat in self.seats]
        self.fields["dealer"].widget = forms.Select(choices=[("", gettext("— donneur —")), *seat_choices])
        self.fields["taker"].widget = forms.Select(choices=[("", gettext("— preneur —")), *seat_choices])
        self.fields["partner"].widget = forms.Select(
            choices=[("", gettext("— appelé —")), (SOLO, gettext("seul")), *seat_choices]
        )
        self.fields["miseres"].choices = seat_choices
        if not self.five:
            self.fields["partner"].widget = forms.HiddenInput()
            self.fields["called"].widget = forms.HiddenInput()
            self.fields["called_dame"].widget = forms.HiddenInput()
        thresholds = self.rules.poignee_thresholds[len(self.seats)] if self.seats else {}
        sizes = [("", "—")] + [
            (size, gettext("%(size)s (%(count)s atouts)") % {"size": size, "count": count})
            for size, count in thresholds.items()
        ]
        for seat in self.seats:
            self.fields[f"poignee_{seat.position}"] = forms.CharField(
                label=seat.player.name, required=False, widget=forms.Select(choices=sizes)
            )
        if deal is None:
            self.fields["dealer"].initial = self.expected_dealer()
            self.fields["key"] = key_field()
        else:
            self.fields["version"] = version_field(round_.version)
        self.add_motif(round_)
        self._french_errors()

    def say(self, field, message):
        """An error naming the deal and the field: « Donne 3, points : … »."""
        return gettext("Donne %(number)s, %(field)s : %(message)s") % {
            "number": self.number,
            "field": FIELD_LABELS.get(field, field),
            "message": message,
        }

    def _french_errors(self):
        messages = {
            "kind": {"required": gettext("le type de donne est obligatoire")},
            "dealer": {
                "required": gettext("le donneur est obligatoire"),
                "invalid": gettext("joueur inconnu"),
            },
            "taker": {"invalid": gettext("joueur inconnu")},
            "partner": {"invalid": gettext("joueur inconnu")},
            "bouts": {"invalid": gettext("un nombre entier de 0 à 3 est attendu")},
            "points": {"max_length": gettext("un nombre est attendu, par exemple 44,5")},
            "miseres": {
                "invalid_choice": gettext("joueur inconnu"),
                "invalid_list": gettext("liste de joueurs attendue"),
            },
        }
        for name, errors in messages.items():
            for code, message in errors.items():
                self.fields[name].error_messages[code] = self.say(name, message)

    @staticmethod
    def initial_from(deal):
        partner = deal.partner_id or (SOLO if deal.kind == Deal.PLAYED else "")
        initial = {
            "kind": deal.kind,
            "dealer": deal.dealer_id,
            "taker": deal.taker_id,
            "contract": deal.contract,
            "called": deal.called,
            "called_dame": deal.called_rank == QUEEN,
            "partner": partner,
            "bouts": deal.bouts,
            "points": str(deal.points).replace(".", ",").removesuffix(",0")
            if deal.points is not None
            else "",
            "miseres": [str(pk) for pk in deal.miseres],
            "petit_au_bout": deal.petit_au_bout,
            "chelem_announced": deal.chelem_announced,
            "chelem_made_by": deal.chelem_made_by,
        }
        return initial

    def expected_dealer(self):
        """The next dealer by rotation: the right-hand neighbour, or the same after a misdeal."""
        if not self.seats:
            return None
        last = self.round.deals.order_by("-number").first()
        if last is None:
            return self.seats[0].player_id
        order = [seat.player_id for seat in self.seats]
        if last.dealer_id not in order or last.kind == Deal.MISDEAL:
            return last.dealer_id
        return order[(order.index(last.dealer_id) + 1) % len(order)]

    def poignee_fields(self):
        return [self[f"poignee_{seat.position}"] for seat in self.seats]

    def clean_points(self):
        try:
            return parse_points(self.cleaned_data.get("points"))
        except ValueError:
            raise forms.ValidationError(
                self.say("points", gettext("un nombre est attendu, par exemple 44,5"))
            ) from None

    def clean(self):
        data = super().clean()
        if problem := validators.deal_number_problem(self.number):
            self.add_error(
                None, gettext("Donne %(number)s : %(problem)s.") % {"number": self.number, "problem": problem}
            )
        if self.errors:
            return data
        if data["kind"] in NOT_PLAYED and self._refuse_played_fields(data):
            return data
        if (
            data["kind"] == Deal.PLAYED
            and self.five
            and data.get("partner") is None
            and data.get("taker") is not None
        ):
            self.add_error(
                "partner",
                self.say("partner", gettext("choisissez l'appelé, ou « seul » si le preneur joue seul")),
            )
            return data
        self.candidate = self.build_deal(data)
        deals = [deal for deal in self.round.deals.order_by("number") if deal.number != self.number]
        deals.insert(self.number - 1, self.candidate)
        try:
            score_stored_round(self.round, deals=deals)
        except ScoringError as error:
            self.attach(error)
        return data

    def _refuse_played_fields(self, data):
        """A passed deal, a petit sec or a misdeal has only a dealer: name every field filled."""
        phrase = NOT_PLAYED[data["kind"]]
        filled = [name for name in PLAYED_ONLY if data.get(name) not in (None, "", [], False, SOLO)]
        filled += [f"poignee_{seat.position}" for seat in self.seats if data.get(f"poignee_{seat.position}")]
        for name in filled:
            label = "poignees" if name.startswith("poignee_") else ENGINE_NAMES.get(name, name)
            self.add_error(name, self.say(label, gettext("sans objet pour %(phrase)s") % {"phrase": phrase}))
        return bool(filled)

    def build_deal(self, data):
        partner = data.get("partner")
        poignees = []
        for seat in self.seats:
            size = data.get(f"poignee_{seat.position}")
            if size:
                poignees.append({"player": seat.player_id, "size": size})
        return Deal(
            round=self.round,
            number=self.number,
            kind=data["kind"],
            dealer=data["dealer"],
            taker=data.get("taker"),
            contract=data.get("contract") or "",
            called=data.get("called") or "",
            called_rank=QUEEN if data.get("called_dame") else KING,
            partner=partner if isinstance(partner, Player) else None,
            bouts=data.get("bouts"),
            points=data.get("points"),
            poignees=poignees,
            miseres=[player.pk for player in data.get("miseres") or []],
            petit_au_bout=data.get("petit_au_bout") or "",
            chelem_announced=bool(data.get("chelem_announced")),
            chelem_made_by=data.get("chelem_made_by") or "",
        )

    def attach(self, error):
        """Put an engine error on the matching form field, in French, with the deal number."""
        if error.deal_number not in (None, self.number):
            label = FIELD_LABELS.get(error.field, error.field)
            message = gettext("Donne %(number)s, %(field)s : %(message)s") % {
                "number": error.deal_number,
                "field": label,
                "message": error.message,
            }
            self.add_error(None, message)
            return
        field = ENGINE_FIELDS.get(error.field, error.field)
        if error.field == "poignees":
            field = self._poignee_field_in_error()
        if field not in self.fields:
            field = None
        self.add_error(field, self.say(error.field, self._with_names(error.message)))

    def _with_names(self, message):
        """The engine knows only the seated players by name: name the others too."""
        data = self.cleaned_data
        people = [data.get("dealer"), data.get("taker"), data.get("partner"), *(data.get("miseres") or [])]
        for person in people:
            if isinstance(person, Player):
                message = message.replace(f"joueur n°{person.pk} ", f"{person.name} ")
        return message

    def _poignee_field_in_error(self):
        allowed = self.rules.poignee_thresholds.get(len(self.seats), {})
        shown = [seat for seat in self.seats if self.cleaned_data.get(f"poignee_{seat.position}")]
        for seat in shown:
            if self.cleaned_data[f"poignee_{seat.position}"] not in allowed:
                return f"poignee_{seat.position}"
        return f"poignee_{shown[0].position}" if shown else None

    def deal_fields(self):
        """The deal's model values for `services.add_deal` or `services.change_deal`."""
        return {name: getattr(self.candidate, name) for name in DEAL_FIELDS}

    @property
    def version(self):
        return self.cleaned_data.get("version")

    @property
    def key(self):
        return self.cleaned_data.get("key")


class RoundDeleteForm(forms.Form):
    """Deleting a draft round: the reason, kept in the round's history."""

    motif = TextField(
        field_name=_("Motif"),
        label=_("Motif de la suppression"),
        max_length=MOTIF_MAX_LENGTH,
        help_text=_("Obligatoire : il reste inscrit à l'historique de la manche."),
        error_messages={"required": _("Motif : obligatoire pour supprimer une manche.")},
    )


class MotifForm(MotifMixin, forms.Form):
    """Deleting a deal or an adjustment: the motif, when the round is homologated; with
    `versioned`, the round's version the page was read at (a deal's page)."""

    def __init__(self, round_, *args, versioned=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        if versioned:
            self.fields["version"] = version_field(round_.version)
        self.add_motif(round_)

    @property
    def version(self):
        return self.cleaned_data.get("version")


# --- bonuses and maluses -------------------------------------------------------------------------


class AdjustmentForm(MotifMixin, forms.Form):
    player = forms.TypedChoiceField(label=_("Joueur"), coerce=int)
    code = forms.CharField(label=_("Bonus ou malus"), widget=forms.Select)
    note = TextField(field_name=_("Raison"), label=_("Raison"), max_length=200, required=False)

    def __init__(self, round_, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.board = board
        self.catalogue = {entry.code: entry for entry in round_.season.rulebook.championship.catalogue}
        seats = round_.seats.select_related("player").order_by("position")
        self.fields["player"].choices = [("", gettext("— joueur —"))] + [
            (s.player_id, s.player.name) for s in seats
        ]
        self.fields["player"].error_messages.update(
            required=gettext("Joueur : obligatoire."),
            invalid_choice=gettext("Joueur : ce joueur n'est pas assis à cette table."),
        )
        self.fields["code"].error_messages["required"] = gettext("Bonus ou malus : obligatoire.")
        self.fields["code"].widget.choices = [("", gettext("— choisir —"))] + [
            (entry.code, self.entry_label(entry))
            for entry in self.catalogue.values()
            if board or not entry.board_only
        ]
        if board:
            self.fields["points"] = BoundedIntegerField(
                field_name=gettext("Points"),
                bounds=validators.ADJUSTMENT_POINTS,
                label=gettext("Points (Direction)"),
                required=False,
                help_text=gettext("Vide : les points du catalogue."),
                error_messages={"invalid": gettext("Points : un nombre entier.")},
            )
        self.fields["key"] = key_field()
        self.add_motif(round_)

    @staticmethod
    def entry_label(entry):
        label = f"{entry.label} ({signed(entry.points)})"
        if entry.board_only:
            return gettext("%(label)s — Direction") % {"label": label}
        return label

    def clean_code(self):
        code = self.cleaned_data["code"]
        entry = self.catalogue.get(code)
        if entry is None:
            raise forms.ValidationError(
                gettext("Bonus ou malus : « %(code)s » n'est pas dans le catalogue de la saison.")
                % {"code": code}
            )
        if entry.board_only and not self.board:
            raise forms.ValidationError(
                gettext("Bonus ou malus : « %(label)s » est réservé à la Direction.") % {"label": entry.label}
            )
        return code

    def clean(self):
        data = super().clean()
        if not self.board and (self.data.get(self.add_prefix("points")) or "").strip():
            self.add_error(
                None, gettext("Points : seule la Direction peut fixer d'autres points que ceux du catalogue.")
            )
        return data

    def addition(self):
        """The arguments of `services.add_adjustment` for this valid form (but its author)."""
        data = self.cleaned_data
        return {
            "player": Player.objects.get(pk=data["player"]),
            "code": data["code"],
            "points": data.get("points"),
            "note": data.get("note", ""),
            "key": data.get("key"),
            "reason": self.reason,
        }


# --- seat colours --------------------------------------------------------------------------------


class SeatTotalsForm(MotifMixin, forms.Form):
    """Correcting the totals of a round whose deals were not kept; they must sum to zero."""

    def __init__(self, round_, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.seats = list(round_.seats.select_related("player").order_by("position"))
        for seat in self.seats:
            self.fields[f"total_{seat.position}"] = BoundedIntegerField(
                field_name=gettext("Total de %(player)s") % {"player": seat.player},
                bounds=validators.ROUND_TOTAL,
                label=seat.player.name,
                initial=seat.total,
                error_messages={
                    "required": gettext("Total de %(player)s : obligatoire.") % {"player": seat.player},
                    "invalid": gettext("Total de %(player)s : un nombre entier est attendu.")
                    % {"player": seat.player},
                },
            )
        self.fields["version"] = version_field(round_.version)
        self.add_motif(round_)

    def total_fields(self):
        return [self[f"total_{seat.position}"] for seat in self.seats]

    def clean(self):
        data = super().clean()
        totals = [data.get(f"total_{seat.position}") for seat in self.seats]
        if None not in totals and (error := unbalanced_totals(totals)):
            self.add_error(None, error)
        return data

    def totals(self):
        """Player id → total, for `services.set_seat_totals`."""
        return {seat.player_id: self.cleaned_data[f"total_{seat.position}"] for seat in self.seats}

    @property
    def version(self):
        return self.cleaned_data.get("version")


class SeatColoursForm(MotifMixin, forms.Form):
    def __init__(self, round_, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.seats = list(round_.seats.select_related("player").order_by("position"))
        for seat in self.seats:
            self.fields[f"colour_{seat.position}"] = forms.ChoiceField(
                label=seat.player.name,
                choices=[("", gettext("— aucune —")), *COLOURS],
                required=False,
                initial=seat.colour,
                error_messages={
                    "invalid_choice": gettext("Couleur de %(player)s : couleur inconnue.")
                    % {"player": seat.player}
                },
            )
        self.fields["version"] = version_field(round_.version)
        self.add_motif(round_)

    def colour_fields(self):
        return [self[f"colour_{seat.position}"] for seat in self.seats]

    def clean(self):
        data = super().clean()
        taken = {}
        for seat in self.seats:
            colour = data.get(f"colour_{seat.position}")
            if not colour:
                continue
            if colour in taken:
                self.add_error(
                    f"colour_{seat.position}",
                    gettext("Couleur de %(player)s : les jetons %(colour)s sont déjà à %(other)s.")
                    % {"player": seat.player, "colour": COLOUR_LABELS[colour], "other": taken[colour]},
                )
            else:
                taken[colour] = seat.player.name
        return data

    def colours(self):
        """Player id → colour ("" for none), for `services.set_seat_colours`."""
        return {seat.player_id: self.cleaned_data.get(f"colour_{seat.position}", "") for seat in self.seats}

    @property
    def version(self):
        return self.cleaned_data.get("version")
