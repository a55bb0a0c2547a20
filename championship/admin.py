from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player", "colour", "total", "rank"]
    readonly_fields = ["total", "rank"]


class AdjustmentInline(admin.TabularInline):
    model = Adjustment
    extra = 0
    fields = ["player", "code", "points", "note", "entered_by"]


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "date", "place", "stage", "table", "status"]
    list_filter = ["season", "stage", "status"]
    search_fields = ["place"]
    inlines = [SeatInline, AdjustmentInline]
    readonly_fields = ["pot_left", "warnings", "homologated_at", "homologated_by"]


@admin.register(Deal)
class DealAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "kind", "dealer", "taker", "contract", "made", "unit"]
    list_filter = ["round__season", "kind", "contract"]
    readonly_fields = ["unit", "made", "shares", "pot_after"]


@admin.register(Adjustment)
class AdjustmentAdmin(SimpleHistoryAdmin):
    list_display = ["round", "player", "code", "points", "note", "entered_by", "created_at"]
    list_filter = ["round__season", "code"]


@admin.register(Report)
class ReportAdmin(SimpleHistoryAdmin):
    list_display = ["round", "author", "filed_on", "updated_at"]
    list_filter = ["round__season"]


@admin.register(ChampionshipLine)
class ChampionshipLineAdmin(admin.ModelAdmin):
    list_display = ["season", "round", "player", "code", "points", "label"]
    list_filter = ["season", "code"]
    readonly_fields = [f.name for f in ChampionshipLine._meta.fields]

    def has_add_permission(self, request):
        return False
