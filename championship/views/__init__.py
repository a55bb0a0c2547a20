"""Views of the competition, one module per area, each with its own `urlpatterns`."""
