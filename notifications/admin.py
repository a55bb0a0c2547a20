"""The history of the addresses members gave themselves (``EmailChange``), for the board to read
(docs/comptes.md, « Son adresse électronique »): written only by the site's two steps, the request
and its confirmation, never in the admin (no add, change or delete, even for a superuser)."""

from django.contrib import admin

from notifications.models import EmailChange


@admin.register(EmailChange)
class EmailChangeAdmin(admin.ModelAdmin):
    list_display = ["user", "previous", "address", "requested_at", "confirmed_at"]
    list_filter = ["confirmed_at"]
    search_fields = ["user__username", "previous", "address"]
    date_hierarchy = "requested_at"
    list_select_related = ["user"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
