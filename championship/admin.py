"""The competition in the admin: to read and to search. Rounds are entered and corrected on the
site, where every change is validated by the scoring engine, rescored in the same transaction
and, for a homologated round, recorded with the board member's motif; the admin cannot bypass
that. Only draft rounds can be deleted here."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from championship.models import Adjustment, ChampionshipLine, Deal, Report, Round, Seat


def round_of(obj):
    return obj if isinstance(obj, Round) else getattr(obj, "round", None)


class EnteredOnTheSite:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        round_ = round_of(obj)
        allowed = super().has_delete_permission(request, obj)
        return allowed and (round_ is None or round_.status == Round.DRAFT)


class SeatInline(EnteredOnTheSite, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player", "colour", "total", "rank"]


class AdjustmentInline(EnteredOnTheSite, admin.TabularInline):
    model = Adjustment
    extra = 0
    fields = ["player", "code", "points", "note", "entered_by"]


@admin.register(Round)
class RoundAdmin(EnteredOnTheSite, SimpleHistoryAdmin):
    list_display = ["__str__", "date", "place", "stage", "table", "status"]
    list_filter = ["season", "stage", "status"]
    search_fields = ["place"]
    inlines = [SeatInline, AdjustmentInline]


@admin.register(Deal)
class DealAdmin(EnteredOnTheSite, SimpleHistoryAdmin):
    list_display = ["__str__", "kind", "dealer", "taker", "contract", "made", "unit"]
    list_filter = ["round__season", "kind", "contract"]


@admin.register(Adjustment)
class AdjustmentAdmin(EnteredOnTheSite, SimpleHistoryAdmin):
    list_display = ["round", "player", "code", "points", "note", "entered_by", "created_at"]
    list_filter = ["round__season", "code"]


@admin.register(ChampionshipLine)
class ChampionshipLineAdmin(EnteredOnTheSite, admin.ModelAdmin):
    list_display = ["season", "round", "player", "code", "points", "label"]
    list_filter = ["season", "code"]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Report)
class ReportAdmin(SimpleHistoryAdmin):
    list_display = ["round", "author", "filed_on", "updated_at"]
    list_filter = ["round__season"]
