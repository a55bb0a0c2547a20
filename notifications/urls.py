from django.urls import path

from notifications import views

app_name = "notifications"
urlpatterns = [
    path("compte/", views.account, name="account"),
    path("compte/calendrier/renouveler/", views.feed_renew, name="feed_renew"),
    path("compte/rappels/desinscription/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
