from championship.views import (
    board,
    cup,
    desk,
    feeds,
    offline,
    reports,
    rounds,
    sheets,
    standings,
    stats,
    table,
)

app_name = "championship"
urlpatterns = [
    *rounds.urlpatterns,
    *desk.urlpatterns,
    *offline.urlpatterns,
    *board.urlpatterns,
    *sheets.urlpatterns,
    *standings.urlpatterns,
    *reports.urlpatterns,
    *cup.urlpatterns,
    *feeds.urlpatterns,
    *stats.urlpatterns,
    *table.urlpatterns,
]
