"""The deal form: add the next deal of a round or correct one.

Every error names the deal number and its field in French. A deal is validated by the scoring
engine itself: the form builds the candidate list of deals and scores the round with it, then
attaches the engine's `ScoringError` to the matching field.
"""

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship import bounds, choices
from championship.forms.fields import MotifMixin, key_field, version_field
from championship.forms.widgets import ButtonRadio, PlayerField, PlayersField, keyed, parse_points
from championship.labels import POIGNEE_SIZES, of_player
from championship.models import Deal
from championship.rounds.data import DEAL_FIELDS, next_dealer, read_round_data, score_stored_round
from federation.models import Player
from scoring.errors import ScoringError
from scoring.vocabulary import KING, MAX_PLAYERS, QUEEN

SOLO = "seul"
# The contract lit on a new deal's form: the one most often taken (docs/utiliser.md). On a deal
# that was not played it is no choice of the secretary's (its row is hidden): neither refused nor
# stored, like « seul ».
DEFAULT_CONTRACT = "prise"
# Keyboard entry (js/deal-keys.js): the key of each choice, listed on the page. Players: their
# seat number, and the initial of their name when no other player's starts alike.
KIND_KEYS = {Deal.PLAYED: "j", Deal.PASSED: "p", Deal.PETIT_SEC: "s", Deal.MISDEAL: "f"}
CONTRACT_KEYS = {"prise": "p", "garde": "g", "garde_sans": "s", "garde_contre": "c"}
SUIT_KEYS = {"pique": "p", "coeur": "c", "carreau": "k", "trefle": "t"}
SUIT_SYMBOLS = {"pique": "♠", "coeur": "♥", "carreau": "♦", "trefle": "♣"}
SIZE_KEYS = {"simple": "s", "double": "d", "triple": "t"}
NONE_KEY = "0"  # « seul », no poignée
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
# Engine field -> form field (poignées are placed on the buttons of the player concerned).
ENGINE_FIELDS = {"called_rank": "called_dame"}
NOT_PLAYED = choices.NOT_PLAYED_PHRASES
PLAYED_ONLY = ["taker", "contract", "called", "called_dame", "partner", "bouts", "points", "miseres"]
PLAYED_ONLY += ["petit_au_bout", "chelem_announced", "chelem_made_by"]
# What a played deal needs, in the form's order, and what is said when it is missing.
MISSING_MESSAGES = {
    "taker": _("le preneur est obligatoire pour une donne jouée"),
    "partner": _("choisissez l'appelé, ou « seul » si le preneur joue seul"),
    "contract": _("le contrat est obligatoire pour une donne jouée"),
    "bouts": _("le nombre de bouts est obligatoire (0 à 3)"),
    "points": _("les points du preneur sont obligatoires (un nombre, demis permis)"),
}
ENGINE_NAMES = {form_name: engine_name for engine_name, form_name in ENGINE_FIELDS.items()}
# Folded under « Autres annonces » on the page, with the poignées (open when one is set or
# refused); the petit au bout is on the folded line itself.
EXTRAS = ["called_dame", "miseres", "chelem_announced", "chelem_made_by"]


class DealForm(MotifMixin, forms.Form):
    """Add the next deal of a round (`deal=None`) or correct `deal`. `data`: the round's seats
    (players joined) and deals as the view read them (`rounds.data.read_round_data`), else read
    here. `preview`: only scored, never saved (no correction reason asked)."""

    kind = forms.CharField(
        label=_("Donne"),
        initial=Deal.PLAYED,
        widget=ButtonRadio(choices=Deal.KINDS, extra=keyed(KIND_KEYS)),
    )
    dealer = PlayerField(label=_("Donneur"))
    taker = PlayerField(label=_("Preneur"), required=False)
    contract = forms.CharField(
        label=_("Contrat"),
        required=False,
        widget=ButtonRadio(choices=[("", "—"), *Deal.CONTRACTS], extra=keyed(CONTRACT_KEYS)),
    )
    called = forms.CharField(
        label=_("Roi appelé (facultatif)"),
        required=False,
        help_text=_("Facultatif : « — » si la feuille ne le dit pas."),
        widget=ButtonRadio(
            choices=[("", "—"), *((suit, f"{SUIT_SYMBOLS[suit]} {label}") for suit, label in Deal.SUITS)],
            extra=keyed(SUIT_KEYS),
        ),
    )
    called_dame = forms.BooleanField(label=_("Dame appelée (4 rois en main)"), required=False)
    partner = PlayerField(
        label=_("Appelé"),
        required=False,
        special=(SOLO,),
        # Non-breaking spaces inside « » written as such: xgettext keeps a \u escape as is.
        help_text=_("« seul » si le preneur joue seul."),
    )
    bouts = forms.IntegerField(
        label=_("Bouts"),
        required=False,
        widget=ButtonRadio(
            choices=[("", "—"), (0, "0"), (1, "1"), (2, "2"), (3, "3")],
            extra=keyed({str(n): str(n) for n in range(4)}),
        ),
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
        widget=forms.RadioSelect(choices=[("", _("non")), *choices.SIDES]),
    )
    chelem_announced = forms.BooleanField(label=_("Chelem annoncé"), required=False)
    chelem_made_by = forms.CharField(
        label=_("Chelem réalisé par"),
        required=False,
        widget=forms.RadioSelect(choices=[("", _("personne")), *choices.SIDES_WITH_ARTICLE]),
    )

    def __init__(self, round_, *args, deal=None, data=None, preview=False, **kwargs):
        self.round = round_
        self.deal = deal
        self.round_data = data if data is not None else read_round_data(round_, adjustments=False)
        deals = self.round_data.deals
        self.number = deal.number if deal is not None else (deals[-1].number + 1 if deals else 1)
        self.seats = list(self.round_data.seats)
        self.five = len(self.seats) == MAX_PLAYERS
        if deal is not None and "initial" not in kwargs:
            kwargs["initial"] = self.initial_from(deal)
            positions = {seat.player_id: seat.position for seat in self.seats}
            for item in deal.poignees:  # a correction shows each poignée with its size
                if item["player"] in positions:
                    kwargs["initial"][f"poignee_{positions[item['player']]}"] = item["size"]
        super().__init__(*args, **kwargs)
        self.rules = round_.season.rulebook.deal
        seat_choices = [(seat.player_id, seat.player.name) for seat in self.seats]
        seat_extra = self.seat_buttons()

        def buttons(*first, extra=None):
            return ButtonRadio(choices=[*first, *seat_choices], extra={**seat_extra, **(extra or {})})

        none = {"": {"key": "-"}}
        self.fields["dealer"].widget = buttons()
        self.fields["taker"].widget = buttons(("", "—"), extra=none)
        self.fields["partner"].widget = buttons(
            ("", "—"), (SOLO, gettext("seul")), extra={**none, SOLO: {"key": NONE_KEY}}
        )
        self.fields["miseres"].choices = seat_choices
        seated = {seat.player_id: seat.player for seat in self.seats}
        for name in ("dealer", "taker", "partner", "miseres"):
            self.fields[name].known = seated
        if not self.five:
            self.fields["partner"].widget = forms.HiddenInput()
            self.fields["called"].widget = forms.HiddenInput()
            self.fields["called_dame"].widget = forms.HiddenInput()
        self._poignee_fields(seat_extra)
        if deal is None:
            self.fields["dealer"].initial = self.expected_dealer()
            self.fields["contract"].initial = DEFAULT_CONTRACT
            self.fields["key"] = key_field()
            # Empty on the page (not checked); a deal kept offline is sent with its version.
            self.fields["version"] = version_field(None)
        else:
            self.fields["version"] = version_field(round_.version)
        if not preview:  # a preview writes nothing: the correction's reason is asked when saving
            self.add_motif(round_)
        self._french_errors()

    def _poignee_fields(self, seat_extra):
        """One row of buttons per seat: « — » or the size of the poignée shown (the rulebook's
        sizes); the row keeps the seat's colour and keys (typing them on the poignées' rows
        gives that player a simple poignée, js/deal-keys.js)."""
        self.poignee_sizes = self.rules.poignee_thresholds[len(self.seats)] if self.seats else {}
        sizes = [("", "—"), *((size, POIGNEE_SIZES.get(size, size)) for size in self.poignee_sizes)]
        for seat in self.seats:
            extra = seat_extra[str(seat.player_id)]
            size_keys = {size: key for size, key in SIZE_KEYS.items() if size in self.poignee_sizes}
            field = forms.CharField(
                label=gettext("Poignée %(of_player)s") % {"of_player": of_player(seat.player.name)},
                required=False,
                widget=ButtonRadio(
                    choices=sizes,
                    extra={"": {"key": NONE_KEY}, **keyed(size_keys)},
                ),
            )
            field.seat = {"name": seat.player.name, "colour": extra["colour"], "key": extra["key"]}
            self.fields[f"poignee_{seat.position}"] = field

    def poignee_rule(self):
        """« simple : 8 atouts, double : 10, triple : 13 »: the sizes of this table."""
        counts = [
            gettext("%(size)s : %(count)s") % {"size": POIGNEE_SIZES.get(size, size), "count": count}
            for size, count in self.poignee_sizes.items()
        ]
        return gettext("Atouts montrés : %(counts)s.") % {"counts": ", ".join(counts)}

    def seat_buttons(self):
        """Value → chip colour and keys of each seat's button: « 2 » for the second seat, and
        « b » too for Bruno when no other player's name starts with a b."""
        initials = [seat.player.name[:1].lower() for seat in self.seats]
        extra = {}
        for number, (seat, initial) in enumerate(zip(self.seats, initials, strict=True), start=1):
            keys = str(number)
            if initial.isalpha() and initials.count(initial) == 1:
                keys = f"{initial} {keys}"
            extra[str(seat.player_id)] = {"colour": seat.colour, "key": keys}
        return extra

    def key_hints(self):
        """The keyboard shortcuts listed on the page: (what, [(choice, keys)]) pairs."""
        seats = [
            (seat.player.name, extra["key"].split())
            for seat, extra in zip(self.seats, self.seat_buttons().values(), strict=True)
        ]
        hints = [
            (gettext("Donne"), [(label, [KIND_KEYS[kind]]) for kind, label in Deal.KINDS]),
            (gettext("Joueurs"), seats),
            (gettext("Contrat"), [(label, [CONTRACT_KEYS[code]]) for code, label in Deal.CONTRACTS]),
        ]
        if self.five:
            hints.append((gettext("Appelé"), [(gettext("seul"), [NONE_KEY])]))
            hints.append((gettext("Roi appelé"), [(label, [SUIT_KEYS[suit]]) for suit, label in Deal.SUITS]))
        hints.append(
            (
                gettext("Poignées"),
                [
                    (gettext("simple du joueur"), [gettext("son numéro")]),
                    *(
                        (POIGNEE_SIZES[size], [key])
                        for size, key in SIZE_KEYS.items()
                        if size in self.poignee_sizes
                    ),
                    (gettext("aucune"), [NONE_KEY]),
                ],
            )
        )
        return hints

    def say(self, field, message):
        """An error naming the deal and the field: « Donne 3, points : … »."""
        return gettext("Donne %(number)s, %(field)s : %(message)s") % {
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
        """The next dealer by rotation (`rounds.data.next_dealer`)."""
        return next_dealer(self.seats, self.round_data.deals)

    def poignee_fields(self):
        return [self[f"poignee_{seat.position}"] for seat in self.seats]

    def dealer_name(self):
        """The dealer's name shown on the folded dealer line (the rotation's, or the one chosen)."""
        names = {str(seat.player_id): seat.player.name for seat in self.seats}
        return names.get(str(self["dealer"].value()), "—")

    def extras_open(self):
        """« Annonces » shown open: an extra (a poignée, a misère…) is set or refused."""
        names = [name for name in EXTRAS if name in self.fields]
        names += [f"poignee_{seat.position}" for seat in self.seats]
        return any(self[name].errors or self[name].value() not in (None, "", [], False) for name in names)

    def like(self):
        """The previous played deal for « Comme la précédente » (its taker, partner and contract),
        or None: a correction, or no deal played yet."""
        played = [deal for deal in self.round_data.deals if deal.kind == Deal.PLAYED]
        if self.deal is not None or not played:
            return None
        last = played[-1]
        partner = last.partner_id or (SOLO if self.five else "")
        return {
            "number": last.number,
            "taker_id": last.taker_id,
            "partner_value": partner,
            "contract": last.contract,
        }

    def like_initial(self, number):
        """The form's initial values « comme la donne `number` » (the page without JavaScript)."""
        like = self.like()
        if like is None or str(like["number"]) != str(number):
            return {}
        return {"taker": like["taker_id"], "partner": like["partner_value"], "contract": like["contract"]}

    def clean_points(self):
        try:
            return parse_points(self.cleaned_data.get("points"))
        except ValueError:
            raise forms.ValidationError(
                self.say("points", gettext("un nombre est attendu, par exemple 44,5"))
            ) from None

    def clean(self):
        data = super().clean()
        if problem := bounds.deal_number_problem(self.number):
            self.add_error(
                None, gettext("Donne %(number)s : %(problem)s.") % {"number": self.number, "problem": problem}
            )
        if data.get("kind") == Deal.PLAYED and self._flag_missing(data):
            return data
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
        taker = data.get("taker")
        if data["kind"] == Deal.PLAYED and self.five and taker is not None and taker == data.get("partner"):
            self.add_error(
                "partner",
                self.say(
                    "partner",
                    gettext("le preneur ne peut pas être son propre appelé : « seul » s'il joue seul"),
                ),
            )
            return data
        self.candidate = self.build_deal(data)
        deals = [deal for deal in self.round_data.deals if deal.number != self.number]
        deals.insert(self.number - 1, self.candidate)
        try:
            self.scored = score_stored_round(self.round, deals=deals, seats=self.seats)
        except ScoringError as error:
            self.attach(error)
        return data

    def _flag_missing(self, data):
        """A played deal: every field still missing flagged at once (not one per save), beside
        those already in error. True if any is missing."""
        missing = [
            name
            for name in MISSING_MESSAGES
            if (self.five or name != "partner") and name not in self.errors and data.get(name) in (None, "")
        ]
        for name in missing:
            self.add_error(name, self.say(name, str(MISSING_MESSAGES[name])))
        return bool(missing)

    def _refuse_played_fields(self, data):
        """A passed deal, a petit sec or a misdeal has only a dealer: name every field filled."""
        phrase = NOT_PLAYED[data["kind"]]
        filled = [name for name in PLAYED_ONLY if data.get(name) not in (None, "", [], False, SOLO)]
        filled = [name for name in filled if (name, data[name]) != ("contract", DEFAULT_CONTRACT)]
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
            contract=(data.get("contract") or "") if data["kind"] == Deal.PLAYED else "",
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
            message = gettext("Donne %(number)s, %(field)s : %(message)s") % {
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
        people = [
            data.get("dealer"),
            data.get("taker"),
            data.get("partner"),
            *(data.get("miseres") or []),
        ]
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
