"""The upload form of a round sheet (JSON, XLSX, ODS or CSV, docs/feuille.md), and the
confirmation of a previewed one; the same for a past season's totals table (§9)."""

import base64

from django import forms
from django.core import signing
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from championship.sheets import MAX_SHEET_BYTES
from federation.models import Season, validate_season_name
from federation.roles import acts_as_superuser, can_enter_rounds, is_board


class SheetUploadForm(forms.Form):
    sheet = forms.FileField(
        label=_("Feuille de manche (JSON, XLSX, ODS ou CSV)"),
        help_text=_(
            "Une feuille au format d'échange, ou le modèle de tableur rempli, par exemple exporté d'une "
            "autre manche."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,.xlsx,.ods,.csv"}),
    )
    create_players = forms.BooleanField(
        label=_("Inscrire les joueurs inconnus"),
        required=False,
        help_text=_("Sinon, un nom qui n'est pas celui d'un joueur inscrit refuse la feuille."),
    )
    homologate = forms.BooleanField(
        label=_("Homologuer la manche importée"),
        required=False,
        help_text=_("Acte de la Direction : la manche compte aussitôt au championnat."),
    )

    def __init__(self, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not board:
            del self.fields["homologate"]

    def clean_sheet(self):
        upload = self.cleaned_data["sheet"]
        if upload.size > MAX_SHEET_BYTES:
            raise forms.ValidationError(
                gettext(
                    "Fichier trop gros pour une feuille de manche (%(size)s octets, %(maximum)s au plus)."
                )
                % {"size": upload.size, "maximum": MAX_SHEET_BYTES}
            )
        return upload


class SheetConfirmForm(forms.Form):
    """A previewed sheet, carried back as JSON (checked again in full on saving)."""

    file_name = forms.CharField(max_length=255, widget=forms.HiddenInput)
    sheet_json = forms.CharField(max_length=2 * MAX_SHEET_BYTES, widget=forms.HiddenInput, strip=False)
    create_players = forms.BooleanField(required=False, widget=forms.HiddenInput)
    homologate = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, board=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not board:
            del self.fields["homologate"]


# --- a past season from a totals table (docs/feuille.md §9) ------------------------------------------

SEASON_TOKEN_SALT = "championship.season_import"
SEASON_TOKEN_MAX_AGE = 3600  # seconds: a preview older than an hour is uploaded again
# The signed token carries the file in base64 (4/3 of its size) inside compressed, signed JSON.
MAX_SEASON_TOKEN = 2 * MAX_SHEET_BYTES


def season_import_problem(user, name, homologate):
    """Why ``user`` may not import (or homologate) the rounds of season ``name``, or None: the
    rule of the checks of every sheet (``rights``), told once for the whole table. A season the
    import creates only by a superuser; an existing one by its secretary and board; homologating
    by its board (a superuser is board of every season)."""
    season = Season.objects.filter(name=name).first()
    if season is None:
        if not acts_as_superuser(user):
            return gettext(
                "La saison %(name)s n'existe pas : seul un administrateur peut la créer par un import."
            ) % {"name": name}
        return None
    if not can_enter_rounds(user, season):
        return gettext("Seuls le secrétaire et la Direction de la saison %(name)s importent ses manches.") % {
            "name": name
        }
    if homologate and not is_board(user, season):
        return gettext("Seule la Direction de la saison %(name)s peut homologuer ses manches.") % {
            "name": name
        }
    return None


class SeasonImportForm(forms.Form):
    """A past season's totals table, its season and options, as ``import_season`` takes them."""

    season = forms.CharField(
        label=_("Saison"),
        max_length=9,
        validators=[validate_season_name],
        help_text=_("Par exemple 2005-2006 ; créée par l'import si elle n'existe pas encore."),
    )
    table = forms.FileField(
        label=_("Tableau de totaux (XLSX, ODS ou CSV)"),
        help_text=_(
            "Une ligne par manche, une colonne par joueur (vide s'il était absent), et les colonnes "
            "Date, Lieu et, au choix, Manche."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.ods,.csv"}),
    )
    create_players = forms.BooleanField(
        label=_("Inscrire les joueurs inconnus"),
        required=False,
        help_text=_("Sinon, un nom qui n'est pas celui d'un joueur inscrit refuse le tableau."),
    )
    homologate = forms.BooleanField(
        label=_("Homologuer les manches"),
        required=False,
        help_text=_(
            "Acte de la Direction de la saison : les manches comptent aussitôt au classement. "
            "Sinon, elles sont enregistrées en brouillon."
        ),
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_table(self):
        upload = self.cleaned_data["table"]
        if upload.size > MAX_SHEET_BYTES:
            raise forms.ValidationError(
                gettext("Fichier trop gros pour un tableau de totaux (%(size)s octets, %(maximum)s au plus).")
                % {"size": upload.size, "maximum": MAX_SHEET_BYTES}
            )
        return upload

    def clean(self):
        cleaned = super().clean()
        if "season" in cleaned:
            problem = season_import_problem(self.user, cleaned["season"], cleaned.get("homologate", False))
            if problem:
                self.add_error("season", problem)
        return cleaned

    def token(self, data, digest):
        """The previewed import, signed: the file's content, its name, the season and the options
        (``SeasonConfirmForm`` reads it back)."""
        cleaned = self.cleaned_data
        payload = {
            "user": self.user.pk,
            "season": cleaned["season"],
            "file": cleaned["table"].name,
            "data": base64.b64encode(data).decode("ascii"),
            "create_players": cleaned["create_players"],
            "homologate": cleaned["homologate"],
            "digest": digest,
        }
        return signing.dumps(payload, salt=SEASON_TOKEN_SALT, compress=True)


class SeasonConfirmForm(forms.Form):
    """A previewed totals table, carried back signed; its content, season and options are read
    from the signature and checked again (the rights here, the whole table by the import)."""

    STALE = _("Aperçu périmé ou altéré : déposez le tableau de nouveau.")
    token = forms.CharField(
        max_length=MAX_SEASON_TOKEN,
        widget=forms.HiddenInput,
        strip=False,
        error_messages={"required": STALE, "max_length": STALE},
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_token(self):
        stale = forms.ValidationError(self.STALE, code="stale")
        try:
            payload = signing.loads(
                self.cleaned_data["token"], salt=SEASON_TOKEN_SALT, max_age=SEASON_TOKEN_MAX_AGE
            )
            data = base64.b64decode(payload["data"], validate=True)
            season, file, digest = payload["season"], payload["file"], payload["digest"]
            options = {
                "create_players": bool(payload["create_players"]),
                "homologate": bool(payload["homologate"]),
            }
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            raise stale from None
        if payload.get("user") != self.user.pk or len(data) > MAX_SHEET_BYTES:
            raise stale
        try:
            validate_season_name(season)
        except forms.ValidationError:
            raise stale from None
        problem = season_import_problem(self.user, season, options["homologate"])
        if problem:
            raise forms.ValidationError(problem)
        return {"season": season, "file": file, "data": data, "digest": digest, **options}
