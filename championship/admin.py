"""The competition in the admin: to read and to search, never to write.

Rounds, seats, deals, adjustments, championship lines and reports are entered and corrected on
the site, where every change is validated by the scoring engine, rescored in the same
transaction and, for a homologated round, recorded with the board member's reason; the admin
cannot bypass that: no add, change or delete, and the history forms are read-only (no revert).
"""

from django.contrib import admin

from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat
from federation.admin import ReadOnly, ReadOnlyHistoryAdmin


class SeatInline(ReadOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player", "colour", "total", "rank"]


class AdjustmentInline(ReadOnly, admin.TabularInline):
    model = Adjustment
    extra = 0
    fields = ["player", "code", "points", "note", "entered_by"]


@admin.register(Round)
class RoundAdmin(ReadOnly, ReadOnlyHistoryAdmin):
    list_display = ["__str__", "date", "place", "stage", "table", "status", "homologated_by"]
    list_filter = ["season", "stage", "status"]
    search_fields = ["place"]
    inlines = [SeatInline, AdjustmentInline]


@admin.register(Deal)
class DealAdmin(ReadOnly, ReadOnlyHistoryAdmin):
    list_display = ["__str__", "kind", "dealer", "taker", "contract", "made", "unit"]
    list_filter = ["round__season", "kind", "contract"]


@admin.register(Adjustment)
class AdjustmentAdmin(ReadOnly, ReadOnlyHistoryAdmin):
    list_display = ["round", "player", "code", "points", "note", "entered_by", "created_at"]
    list_filter = ["round__season", "code"]


@admin.register(ChampionshipLine)
class ChampionshipLineAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["season", "round", "player", "code", "points", "label"]
    list_filter = ["season", "code"]


@admin.register(Report)
class ReportAdmin(ReadOnly, ReadOnlyHistoryAdmin):
    list_display = ["round", "author", "filed_on", "updated_at"]
    list_filter = ["round__season"]
