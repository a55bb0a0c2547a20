"""The webhooks in the admin, for the board of an open season (or a superuser): a webhook's URL
is shown only in its own form, which refuses an address the site may not post to
(`webhooks.addresses`); its list, its history and the outbox show its host, and the outbox shows
a row stuck « en cours d'envoi »."""

from django import forms
from django.contrib import admin
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from federation.admin import ReadOnlyHistoryAdmin
from federation.roles import board_seasons
from webhooks import addresses, delivery
from webhooks.models import Delivery, Webhook


def sits_on_a_board(user):
    return user.is_active and (user.is_superuser or board_seasons(user).filter(is_open=True).exists())


class BoardOnly:
    def has_module_permission(self, request):
        return sits_on_a_board(request.user)

    def has_view_permission(self, request, obj=None):
        return sits_on_a_board(request.user)

    def has_add_permission(self, request, *args):
        return sits_on_a_board(request.user)

    def has_change_permission(self, request, obj=None):
        return sits_on_a_board(request.user)

    def has_delete_permission(self, request, obj=None):
        return sits_on_a_board(request.user)


def https_first(field, **kwargs):
    """A URL typed without its scheme is taken as https."""
    if isinstance(field, models.URLField):
        kwargs["assume_scheme"] = "https"
    return field.formfield(**kwargs)


class WebhookForm(forms.ModelForm):
    class Meta:
        model = Webhook
        fields = ["name", "url", "format", "active"]
        formfield_callback = https_first

    def clean_url(self):
        url = self.cleaned_data["url"]
        try:
            addresses.target(url)
        except addresses.Refused as refused:
            raise forms.ValidationError(
                gettext("Adresse du webhook refusée : %(reason)s.") % {"reason": refused.reason},
                code="refused",
            ) from None
        except TimeoutError:
            raise forms.ValidationError(
                gettext("Adresse du webhook : son nom n'a pas été résolu à temps ; réessayez."), code="slow"
            ) from None
        return url


@admin.register(Webhook)
class WebhookAdmin(BoardOnly, ReadOnlyHistoryAdmin):
    form = WebhookForm
    list_display = ["name", "host", "format", "active"]
    list_filter = ["format", "active"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    @admin.display(description=_("hôte"))
    def host(self, obj):
        return obj.host


@admin.register(Delivery)
class DeliveryAdmin(BoardOnly, admin.ModelAdmin):
    list_display = [
        "created_at",
        "event",
        "webhook_host",
        "state",
        "attempts",
        "next_attempt_at",
        "last_error",
    ]
    list_filter = ["status", "event"]
    readonly_fields = [
        "webhook_host",
        "key",
        "event",
        "body",
        "state",
        "attempts",
        "next_attempt_at",
        "last_error",
        "created_at",
        "claimed_at",
        "sent_at",
    ]
    exclude = ["webhook", "status"]

    @admin.display(description=_("webhook"))
    def webhook_host(self, obj):
        return str(obj.webhook)

    @admin.display(description=_("état"), ordering="status")
    def state(self, obj):
        """Its status; stuck « en cours d'envoi » (its process gone), said so."""
        if delivery.is_stuck(obj):
            return gettext("bloquée en cours d'envoi (sera réessayée)")
        return obj.get_status_display()

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # the outbox is the record that a piece of news was posted (never twice)
