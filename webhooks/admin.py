"""The webhooks in the admin, for the board of an open season (or a superuser): a webhook's URL
is shown only in its own form; its list, its history and the outbox show its host."""

from django.contrib import admin
from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.admin import ReadOnlyHistoryAdmin
from federation.roles import board_seasons
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


@admin.register(Webhook)
class WebhookAdmin(BoardOnly, ReadOnlyHistoryAdmin):
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
        "status",
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
        "status",
        "attempts",
        "next_attempt_at",
        "last_error",
        "created_at",
        "sent_at",
    ]
    exclude = ["webhook"]

    @admin.display(description=_("webhook"))
    def webhook_host(self, obj):
        return str(obj.webhook)

    def has_add_permission(self, request, *args):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False  # the outbox is the record that a piece of news was posted (never twice)
