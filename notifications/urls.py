from django.urls import path

from notifications import email_views, views

app_name = "notifications"
urlpatterns = [
    path("compte/", views.account, name="account"),
    path("compte/calendrier/renouveler/", views.feed_renew, name="feed_renew"),
    path("compte/rappels/desinscription/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("compte/adresse/", email_views.email_change, name="email_change"),
    path("compte/adresse/confirmer/<str:token>/", email_views.email_confirm, name="email_confirm"),
]
