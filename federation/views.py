from django.shortcuts import render

from federation.models import Official, Season


def home(request):
    season = Season.objects.current()
    board = []
    if season is not None:
        role_order = [code for code, _label in Official.ROLES]
        board = sorted(
            season.officials.select_related("player"), key=lambda official: role_order.index(official.role)
        )
    return render(
        request,
        "federation/home.html",
        {"season": season, "board": board, "roles": dict(Official.ROLES)},
    )
