"""The history of the addresses members gave themselves (``EmailChange``), for the board to read
(docs/comptes.md, « Son adresse électronique »): written only by the site's two steps, the request
and its confirmation, never in the admin (no add, change or delete, even for a superuser); and the
members' news (``News``), read by a superuser only."""

from django.contrib import admin
from django.utils.translation import gettext, gettext_lazy

from federation.admin import ReadOnly
from notifications import news
from notifications.models import EmailChange, News


@admin.register(EmailChange)
class EmailChangeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["user", "previous", "address", "requested_at", "confirmed_at"]
    list_filter = ["confirmed_at"]
    search_fields = ["user__username", "previous", "address"]
    date_hierarchy = "requested_at"
    list_select_related = ["user"]


@admin.register(News)
class NewsAdmin(ReadOnly, admin.ModelAdmin):
    """The members' news waiting, sent or given up, for a superuser to follow (docs/exploitation.md,
    « Les nouvelles sur le téléphone »): who, what, by which channel, its state and last error;
    never a phone's push address (its secret), only the phone's number. Read only."""

    list_display = ["created_at", "event", "recipient", "channel", "state", "attempts", "last_error"]
    list_filter = ["status", "event", "channel"]
    list_select_related = ["recipient"]
    fields = [
        "created_at",
        "event",
        "recipient",
        "channel",
        "subscription_id",
        "key",
        "message",
        "state",
        "attempts",
        "next_attempt_at",
        "last_error",
        "sent_at",
    ]
    readonly_fields = fields

    @admin.display(description=gettext_lazy("état"), ordering="status")
    def state(self, obj):
        if news.outbox.is_stuck(obj):
            return gettext("bloquée en cours d'envoi (sera réessayée)")
        return obj.get_status_display()

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)
