from championship.views import cup, feeds, reports, rounds, sheets, standings, stats

app_name = "championship"
urlpatterns = [
    *rounds.urlpatterns,
    *sheets.urlpatterns,
    *standings.urlpatterns,
    *reports.urlpatterns,
    *cup.urlpatterns,
    *feeds.urlpatterns,
    *stats.urlpatterns,
]
