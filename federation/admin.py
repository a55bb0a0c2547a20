from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from championship.services import rescore_season
from federation.models import Official, Player, Season


class OfficialInline(admin.TabularInline):
    model = Official
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "nickname", "active", "user"]
    list_filter = ["active"]
    search_fields = ["name", "nickname"]


@admin.register(Season)
class SeasonAdmin(SimpleHistoryAdmin):
    list_display = ["name", "start_date", "end_date", "is_open", "remaining_rounds"]
    list_filter = ["is_open"]
    inlines = [OfficialInline]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "rulebook_text" in form.changed_data:
            rescore_season(obj)


@admin.register(Official)
class OfficialAdmin(admin.ModelAdmin):
    list_display = ["season", "role", "player"]
    list_filter = ["season", "role"]
    autocomplete_fields = ["player"]


admin.site.site_header = "Fédération Française de Tarot-Bière"
admin.site.site_title = "Tarot-Bière"
admin.site.index_title = "Administration"
