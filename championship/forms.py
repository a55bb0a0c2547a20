"""Forms of the round entry: a new round, a deal, a bonus or malus, the seat colours.

Every error names its field in French (and the deal number for a deal). A deal is validated by
the scoring engine itself: the form builds the candidate list of deals and scores the round
with it, then attaches the engine's `ScoringError` to the matching field.
"""

from decimal import Decimal, InvalidOperation

from django import forms
from django.db import IntegrityError, transaction
from django.utils import timezone

from championship.models import COLOURS, Adjustment, Deal, Round, Seat
from championship.services import next_deal_number, next_round_number, rescore_round, score_stored_round
from federation.models import Player
from scoring.errors import ScoringError

MOTIF_MAX_LENGTH = 100  # django-simple-history keeps at most 100 characters of a change reason
SOLO = "seul"
COLOUR_LABELS = dict(COLOURS)
STAGE_CHOICES = [
    ("regular", "Saison régulière"),
    ("playoff:A", "Play-off, table A"),
    ("playoff:B", "Play-off, table B"),
    ("final", "Finale"),
]
DEAL_FIELDS = [
    "kind",
    "dealer",
    "taker",
    "contract",
    "called",
    "called_rank",
    "partner",
    "bouts",
    "points",
    "poignees",
    "miseres",
    "petit_au_bout",
    "chelem_announced",
    "chelem_made_by",
]
# French names of the engine's fields, as the errors name them.
FIELD_LABELS = {
    "kind": "type",
    "dealer": "donneur",
    "taker": "preneur",
    "partner": "appelé",
    "contract": "contrat",
    "called": "roi appelé",
    "called_rank": "dame appelée",
    "bouts": "bouts",
    "points": "points",
    "poignees": "poignées",
    "miseres": "misères",
    "petit_au_bout": "petit au bout",
    "chelem_announced": "chelem annoncé",
    "chelem_made_by": "chelem réalisé",
    "players": "joueurs",
    "motif": "motif",
}
# Engine field -> form field (poignées are placed on the select of the player concerned).
ENGINE_FIELDS = {"called_rank": "called_dame"}
NOT_PLAYED = {"passed": "une donne passée", "petit_sec": "un petit sec", "misdeal": "une fausse donne"}
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
MISSING_MOTIF = "Motif : obligatoire pour modifier une manche homologuée."


def motif_field():
    return forms.CharField(
        label="Motif de la correction",
        max_length=MOTIF_MAX_LENGTH,
        help_text="Obligatoire : la manche est homologuée, la correction est inscrite à l'historique.",
        error_messages={
            "required": MISSING_MOTIF,
            "max_length": f"Motif : {MOTIF_MAX_LENGTH} caractères au plus.",
        },
    )


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
        return f"Totaux : ils doivent s'annuler, or leur somme fait {balance} (et non 0)."
    return None


# --- a new round ---------------------------------------------------------------------------------


class RoundCreateForm(forms.Form):
    ROWS = 5

    date = forms.DateField(
        label="Date",
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"required": "Date : obligatoire.", "invalid": "Date : date invalide."},
    )
    place = forms.CharField(label="Lieu", max_length=120, required=False)
    stage = forms.ChoiceField(label="Phase", choices=STAGE_CHOICES, initial="regular")
    number = forms.IntegerField(
        label="Numéro",
        required=False,
        min_value=1,
        error_messages={"min_value": "Numéro : à partir de 1.", "invalid": "Numéro : un nombre entier."},
    )
    totals_only = forms.BooleanField(
        label="Totaux seuls (les donnes n'ont pas été gardées)",
        required=False,
    )

    def __init__(self, season, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.season = season
        next_number = next_round_number(season)
        self.fields[
            "number"
        ].help_text = f"Vide : le prochain numéro libre ({next_number} en saison régulière)."
        self.fields["number"].widget.attrs["placeholder"] = str(next_number)
        self.fields["date"].initial = timezone.localdate()
        players = Player.objects.order_by("-active", "name")
        for row in range(1, self.ROWS + 1):
            optional = " (à 5 joueurs)" if row == self.ROWS else ""
            self.fields[f"player_{row}"] = forms.ModelChoiceField(
                label=f"Place {row}{optional}",
                queryset=players,
                required=False,
                empty_label="— joueur —",
                error_messages={"invalid_choice": f"Joueur {row} : joueur inconnu."},
            )
            self.fields[f"colour_{row}"] = forms.ChoiceField(
                label=f"Jetons {row}",
                choices=[("", "— couleur —"), *COLOURS],
                required=False,
                initial=COLOURS[row - 1][0],
                error_messages={"invalid_choice": f"Couleur {row} : couleur inconnue."},
            )
            self.fields[f"total_{row}"] = forms.IntegerField(
                label=f"Total {row}",
                required=False,
                widget=forms.NumberInput(attrs={"placeholder": "total (ex. -120)"}),
                error_messages={"invalid": f"Total {row} : un nombre entier (négatif permis)."},
            )

    def rows(self):
        """The bound fields of each seat row, for the template."""
        return [
            (row, self[f"player_{row}"], self[f"colour_{row}"], self[f"total_{row}"])
            for row in range(1, self.ROWS + 1)
        ]

    def clean(self):
        data = super().clean()
        stage, _sep, table = data.get("stage", "regular").partition(":")
        data["stage_code"], data["table"] = stage, table
        seated = []
        for row in range(1, self.ROWS + 1):
            player = data.get(f"player_{row}")
            if player is None:
                if data.get(f"total_{row}") is not None:
                    self.add_error(f"player_{row}", f"Joueur {row} : choisissez le joueur de ce total.")
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
                        f"Total {row} : à remplir seulement pour une manche « totaux seuls » "
                        "(cochez la case).",
                    )
        number = data.get("number")
        if (
            number
            and Round.objects.filter(season=self.season, stage=stage, table=table, number=number).exists()
        ):
            self.add_error("number", f"Numéro : la manche {number} existe déjà dans cette phase.")
        data["seated"] = seated
        return data

    def _check_players(self, seated):
        count = len(seated)
        if count not in (4, 5):
            empty = next(
                (row for row in range(1, self.ROWS + 1) if self.cleaned_data.get(f"player_{row}") is None),
                self.ROWS,
            )
            self.add_error(
                f"player_{empty}",
                f"Joueurs : une manche se joue à 4 ou 5 joueurs ({count} choisi{'s' if count > 1 else ''}).",
            )
        first_row = {}
        for row, player, _colour, _total in seated:
            if player.pk in first_row:
                self.add_error(
                    f"player_{row}",
                    f"Joueur {row} : {player} est déjà assis à la place {first_row[player.pk]}.",
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
                    f"Couleur {row} : les jetons {COLOUR_LABELS[colour]} "
                    f"sont déjà à la place {first_row[colour]}.",
                )
            else:
                first_row[colour] = row

    def _check_totals(self, seated):
        missing = False
        for row, player, _colour, total in seated:
            if total is None:
                missing = True
                self.add_error(f"total_{row}", f"Total {row} : le total de {player} est obligatoire.")
        if not missing and seated:
            error = unbalanced_totals(total for _row, _player, _colour, total in seated)
            if error:
                self.add_error(None, error)

    @transaction.atomic
    def save(self):
        data = self.cleaned_data
        stage, table = data["stage_code"], data["table"]
        round_ = Round(
            season=self.season,
            stage=stage,
            table=table,
            number=data.get("number") or next_round_number(self.season, stage, table),
            date=data["date"],
            place=data.get("place", ""),
            totals_only=bool(data.get("totals_only")),
        )
        round_._change_reason = "création de la manche"
        round_.save()
        for position, (_row, player, colour, total) in enumerate(data["seated"]):
            seat = Seat(round=round_, player=player, position=position, colour=colour or "")
            if round_.totals_only:
                seat.total = total
            seat._change_reason = "création de la manche"
            seat.save()
        rescore_round(round_, reason="création de la manche")
        return round_


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

    kind = forms.CharField(label="Donne", initial=Deal.PLAYED, widget=forms.RadioSelect(choices=Deal.KINDS))
    dealer = PlayerField(label="Donneur")
    taker = PlayerField(label="Preneur", required=False)
    contract = forms.CharField(
        label="Contrat",
        required=False,
        widget=forms.RadioSelect(choices=[("", "—"), *Deal.CONTRACTS]),
    )
    called = forms.CharField(
        label="Roi appelé",
        required=False,
        help_text="À 5 joueurs seulement.",
        widget=forms.Select(choices=[("", "— couleur —"), *Deal.SUITS]),
    )
    called_dame = forms.BooleanField(label="Dame appelée (4 rois en main)", required=False)
    partner = PlayerField(
        label="Appelé",
        required=False,
        special=(SOLO,),
        help_text="À 5 joueurs seulement ; «\u00a0seul\u00a0» si personne.",
    )
    bouts = forms.IntegerField(
        label="Bouts",
        required=False,
        widget=forms.RadioSelect(choices=[("", "—"), (0, "0"), (1, "1"), (2, "2"), (3, "3")]),
    )
    points = forms.CharField(
        label="Points du preneur",
        required=False,
        max_length=10,
        widget=forms.TextInput(
            attrs={"inputmode": "decimal", "autocomplete": "off", "placeholder": "ex. 44,5"}
        ),
    )
    miseres = PlayersField(label="Misères", required=False, widget=forms.CheckboxSelectMultiple)
    petit_au_bout = forms.CharField(
        label="Petit au bout",
        required=False,
        widget=forms.RadioSelect(choices=[("", "non"), ("attack", "attaque"), ("defence", "défense")]),
    )
    chelem_announced = forms.BooleanField(label="Chelem annoncé", required=False)
    chelem_made_by = forms.CharField(
        label="Chelem réalisé par",
        required=False,
        widget=forms.RadioSelect(
            choices=[("", "personne"), ("attack", "l'attaque"), ("defence", "la défense")]
        ),
    )

    def __init__(self, round_, *args, deal=None, **kwargs):
        self.round = round_
        self.deal = deal
        self.number = deal.number if deal is not None else next_deal_number(round_)
        self.seats = list(round_.seats.select_related("player").order_by("position"))
        self.five = len(self.seats) == 5
        if deal is not None and "initial" not in kwargs:
            kwargs["initial"] = self.initial_from(deal)
            positions = {seat.player_id: seat.position for seat in self.seats}
            for item in deal.poignees:
                if item["player"] in positions:
                    kwargs["initial"][f"poignee_{positions[item['player']]}"] = item["size"]
        super().__init__(*args, **kwargs)
        self.rules = round_.season.rulebook.deal
        seat_choices = [(seat.player_id, seat.player.name) for seat in self.seats]
        self.fields["dealer"].widget = forms.Select(choices=[("", "— donneur —"), *seat_choices])
        self.fields["taker"].widget = forms.Select(choices=[("", "— preneur —"), *seat_choices])
        self.fields["partner"].widget = forms.Select(
            choices=[("", "— appelé —"), (SOLO, "seul"), *seat_choices]
        )
        self.fields["miseres"].choices = seat_choices
        if not self.five:
            self.fields["partner"].widget = forms.HiddenInput()
            self.fields["called"].widget = forms.HiddenInput()
            self.fields["called_dame"].widget = forms.HiddenInput()
        thresholds = self.rules.poignee_thresholds[len(self.seats)] if self.seats else {}
        sizes = [("", "—")] + [(size, f"{size} ({count} atouts)") for size, count in thresholds.items()]
        for seat in self.seats:
            self.fields[f"poignee_{seat.position}"] = forms.CharField(
                label=seat.player.name, required=False, widget=forms.Select(choices=sizes)
            )
        if deal is None:
            self.fields["dealer"].initial = self.expected_dealer()
        self.add_motif(round_)
        self._french_errors()

    def say(self, field, message):
        """An error naming the deal and the field: « Donne 3, points : … »."""
        return f"Donne {self.number}, {FIELD_LABELS.get(field, field)} : {message}"

    def _french_errors(self):
        messages = {
            "kind": {"required": "le type de donne est obligatoire"},
            "dealer": {"required": "le donneur est obligatoire", "invalid": "joueur inconnu"},
            "taker": {"invalid": "joueur inconnu"},
            "partner": {"invalid": "joueur inconnu"},
            "bouts": {"invalid": "un nombre entier de 0 à 3 est attendu"},
            "points": {"max_length": "un nombre est attendu, par exemple 44,5"},
            "miseres": {"invalid_choice": "joueur inconnu", "invalid_list": "liste de joueurs attendue"},
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
            "called_dame": deal.called_rank == "dame",
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
                self.say("points", "un nombre est attendu, par exemple 44,5")
            ) from None

    def clean(self):
        data = super().clean()
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
                "partner", self.say("partner", "choisissez l'appelé, ou « seul » si le preneur joue seul")
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
            self.add_error(name, self.say(label, f"sans objet pour {phrase}"))
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
            called_rank="dame" if data.get("called_dame") else "roi",
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
            self.add_error(None, f"Donne {error.deal_number}, {label} : {error.message}")
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

    def save_or_explain(self):
        """`save()`, or None with a form error when another deal took this number meanwhile
        (two phones entering the same round at once): nothing is stored then."""
        try:
            return self.save()
        except IntegrityError:
            self.add_error(
                None,
                f"Une autre donne n°{self.number} vient d'être enregistrée sur cette manche : "
                "rien n'a été enregistré. Vérifiez la feuille puis saisissez à nouveau cette donne.",
            )
            return None

    @transaction.atomic
    def save(self):
        """Store the deal and rescore the round, in one transaction."""
        deal = self.deal or Deal(round=self.round, number=self.number)
        for name in DEAL_FIELDS:
            setattr(deal, name, getattr(self.candidate, name))
        deal._change_reason = self.reason
        deal.save()
        rescore_round(self.round, reason=self.reason)
        deal.refresh_from_db()
        return deal


class MotifForm(MotifMixin, forms.Form):
    """Deleting a deal or an adjustment: only the motif, when the round is homologated."""

    def __init__(self, round_, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.add_motif(round_)


@transaction.atomic
def delete_deal(deal, motif=None):
    """Delete a deal, renumber the following ones and rescore the round."""
    round_ = deal.round
    number = deal.number
    deal._change_reason = motif
    deal.delete()
    for following in round_.deals.filter(number__gt=number).order_by("number"):
        following.number -= 1
        following._change_reason = motif
        following.save(update_fields=["number"])
    rescore_round(round_, reason=motif)


# --- bonuses and maluses -------------------------------------------------------------------------


class AdjustmentForm(MotifMixin, forms.Form):
    player = forms.TypedChoiceField(label="Joueur", coerce=int)
    code = forms.CharField(label="Bonus ou malus", widget=forms.Select)
    note = forms.CharField(label="Raison", max_length=200, required=False)

    def __init__(self, round_, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.board = board
        self.catalogue = {entry.code: entry for entry in round_.season.rulebook.championship.catalogue}
        seats = round_.seats.select_related("player").order_by("position")
        self.fields["player"].choices = [("", "— joueur —")] + [(s.player_id, s.player.name) for s in seats]
        self.fields["player"].error_messages.update(
            required="Joueur : obligatoire.",
            invalid_choice="Joueur : ce joueur n'est pas assis à cette table.",
        )
        self.fields["code"].error_messages["required"] = "Bonus ou malus : obligatoire."
        self.fields["code"].widget.choices = [("", "— choisir —")] + [
            (entry.code, self.entry_label(entry))
            for entry in self.catalogue.values()
            if board or not entry.board_only
        ]
        if board:
            self.fields["points"] = forms.IntegerField(
                label="Points (Direction)",
                required=False,
                help_text="Vide : les points du catalogue.",
                error_messages={"invalid": "Points : un nombre entier."},
            )
        self.add_motif(round_)

    @staticmethod
    def entry_label(entry):
        points = f"+{entry.points}" if entry.points > 0 else str(entry.points).replace("-", "−")
        suffix = " — Direction" if entry.board_only else ""
        return f"{entry.label} ({points}){suffix}"

    def clean_code(self):
        code = self.cleaned_data["code"]
        entry = self.catalogue.get(code)
        if entry is None:
            raise forms.ValidationError(
                f"Bonus ou malus : « {code} » n'est pas dans le catalogue de la saison."
            )
        if entry.board_only and not self.board:
            raise forms.ValidationError(f"Bonus ou malus : « {entry.label} » est réservé à la Direction.")
        return code

    def clean(self):
        data = super().clean()
        if not self.board and (self.data.get(self.add_prefix("points")) or "").strip():
            self.add_error(
                None, "Points : seule la Direction peut fixer d'autres points que ceux du catalogue."
            )
        return data

    @transaction.atomic
    def save(self, user):
        data = self.cleaned_data
        entry = self.catalogue[data["code"]]
        points = data.get("points")
        adjustment = Adjustment(
            round=self.round,
            player_id=data["player"],
            code=entry.code,
            points=entry.points if points is None else points,
            note=data.get("note", ""),
            entered_by=user if user.is_authenticated else None,
        )
        adjustment._change_reason = self.reason
        adjustment.save()
        rescore_round(self.round, reason=self.reason)
        return adjustment


@transaction.atomic
def delete_adjustment(adjustment, motif=None):
    round_ = adjustment.round
    adjustment._change_reason = motif
    adjustment.delete()
    rescore_round(round_, reason=motif)


# --- seat colours --------------------------------------------------------------------------------


class SeatTotalsForm(MotifMixin, forms.Form):
    """Correcting the totals of a round whose deals were not kept; they must sum to zero."""

    def __init__(self, round_, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.seats = list(round_.seats.select_related("player").order_by("position"))
        for seat in self.seats:
            self.fields[f"total_{seat.position}"] = forms.IntegerField(
                label=seat.player.name,
                initial=seat.total,
                error_messages={
                    "required": f"Total de {seat.player} : obligatoire.",
                    "invalid": f"Total de {seat.player} : un nombre entier est attendu.",
                },
            )
        self.add_motif(round_)

    def total_fields(self):
        return [self[f"total_{seat.position}"] for seat in self.seats]

    def clean(self):
        data = super().clean()
        totals = [data.get(f"total_{seat.position}") for seat in self.seats]
        if None not in totals and (error := unbalanced_totals(totals)):
            self.add_error(None, error)
        return data

    @transaction.atomic
    def save(self):
        """Store the new totals and rescore the round (ranks, championship lines) at once."""
        reason = self.reason or "totaux corrigés"
        for seat in self.seats:
            total = self.cleaned_data[f"total_{seat.position}"]
            if seat.total != total:
                seat.total = total
                seat._change_reason = reason
                seat.save(update_fields=["total"])
        rescore_round(self.round, reason=reason)


class SeatColoursForm(MotifMixin, forms.Form):
    def __init__(self, round_, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.round = round_
        self.seats = list(round_.seats.select_related("player").order_by("position"))
        for seat in self.seats:
            self.fields[f"colour_{seat.position}"] = forms.ChoiceField(
                label=seat.player.name,
                choices=[("", "— aucune —"), *COLOURS],
                required=False,
                initial=seat.colour,
                error_messages={"invalid_choice": f"Couleur de {seat.player} : couleur inconnue."},
            )
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
                    f"Couleur de {seat.player} : les jetons {COLOUR_LABELS[colour]} "
                    f"sont déjà à {taken[colour]}.",
                )
            else:
                taken[colour] = seat.player.name
        return data

    @transaction.atomic
    def save(self):
        changed = [
            seat for seat in self.seats if seat.colour != self.cleaned_data.get(f"colour_{seat.position}", "")
        ]
        # Free the colours first so that two players can swap theirs (one colour per seat).
        Seat.objects.filter(pk__in=[seat.pk for seat in changed]).update(colour="")
        for seat in changed:
            seat.colour = self.cleaned_data.get(f"colour_{seat.position}", "")
            seat._change_reason = self.reason or "couleurs des jetons"
            seat.save(update_fields=["colour"])
        return changed
