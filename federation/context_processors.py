from federation.models import Season


def federation(request):
    return {"current_season": Season.objects.current()}
