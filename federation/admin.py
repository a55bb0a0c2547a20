"""The federation in the admin: players, seasons and their officials.

Every change is kept in the history with its author (shown on each record's « Historique »
page); the history is read here, never written back (no revert). A season's officials are
named, changed or removed only by that season's board or a superuser (`federation.roles`).
The season's rulebook is read-only here: it changes on the site's rulebook page, with a
reason, and the whole season is recomputed there. A session opened by a member's private link
never reaches the admin, nor one that did not pass its second factor (federation.two_step.AdminSite).
"""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_static.admin import StaticDeviceAdmin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.admin import TOTPDeviceAdmin
from django_otp.plugins.otp_totp.models import TOTPDevice
from simple_history.admin import SimpleHistoryAdmin

from federation.models import Official, Player, Season
from federation.roles import acts_as_superuser, board_seasons, is_board


class ReadOnly:
    """Viewing only, whatever the account's rights (superusers included)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyHistoryAdmin(SimpleHistoryAdmin):
    """History to read (who, when, what, why); a history form never saves anything.

    django-simple-history's history form saves every posted field, whatever the account's
    rights on the object: only GET is served here, and the revert button is hidden.
    """

    def history_form_view(self, request, object_id, version_id, extra_context=None):
        if request.method not in ("GET", "HEAD"):
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)

    def revert_disabled(self, request, obj=None):
        return True


def may_name_officials(user, season):
    """Naming, changing or removing a season's officials: its board, or a superuser."""
    if season is None or season.pk is None:
        return acts_as_superuser(user)
    return is_board(user, season)


class OfficialInline(admin.TabularInline):
    model = Official
    extra = 0
    autocomplete_fields = ["player"]

    def has_add_permission(self, request, obj):
        return super().has_add_permission(request, obj) and may_name_officials(request.user, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and may_name_officials(request.user, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and may_name_officials(request.user, obj)


@admin.register(Player)
class PlayerAdmin(ReadOnlyHistoryAdmin):
    list_display = ["name", "nickname", "active", "user"]
    list_filter = ["active"]
    search_fields = ["name", "nickname"]


@admin.register(Season)
class SeasonAdmin(ReadOnlyHistoryAdmin):
    list_display = ["name", "start_date", "end_date", "is_open", "remaining_rounds"]
    list_filter = ["is_open"]
    readonly_fields = ["rulebook_page", "rulebook_text"]
    inlines = [OfficialInline]

    @admin.display(description=_("modifier le règlement"))
    def rulebook_page(self, obj):
        if obj is None or obj.pk is None:
            return _(
                "La saison reçoit sa copie du règlement par défaut ; elle se modifie ensuite sur le site."
            )
        return format_html(
            '<a href="{}">{}</a>',
            reverse("championship:season_rulebook", args=[obj.name]),
            _("Page « Règlement de la saison » (motif obligatoire ; toute la saison est recalculée)"),
        )

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or is_board(request.user, obj))

    def has_delete_permission(self, request, obj=None):
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or is_board(request.user, obj))


@admin.register(Official)
class OfficialAdmin(ReadOnlyHistoryAdmin):
    list_display = ["season", "role", "player"]
    list_filter = ["season", "role"]
    autocomplete_fields = ["player"]

    def _may_name(self, request, obj):
        if obj is None:
            return board_seasons(request.user).exists()
        return may_name_officials(request.user, obj.season)

    def has_add_permission(self, request):
        return super().has_add_permission(request) and self._may_name(request, None)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self._may_name(request, obj)

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and self._may_name(request, obj)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "season":
            kwargs["queryset"] = board_seasons(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ListAndRemoveOnly:
    """A second factor in the admin: listed, and removed when its owner lost his phone and his
    backup codes (docs/exploitation.md, « Comptes et sécurité »); never added nor changed here
    (the owner adds his own on « Mon compte »), and its secret never shown
    (settings.OTP_ADMIN_HIDE_SENSITIVE_DATA)."""

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class TOTPDeviceListAdmin(ListAndRemoveOnly, TOTPDeviceAdmin):
    pass


class StaticDeviceListAdmin(ListAndRemoveOnly, StaticDeviceAdmin):
    pass


for model, model_admin in ((TOTPDevice, TOTPDeviceListAdmin), (StaticDevice, StaticDeviceListAdmin)):
    admin.site.unregister(model)
    admin.site.register(model, model_admin)

admin.site.site_header = "Fédération Française de Tarot-Bière"
admin.site.site_title = "Tarot-Bière"
admin.site.index_title = "Administration"
