from django.urls import path

from notifications import email_views, push_views, views

app_name = "notifications"
urlpatterns = [
    path("compte/", views.account, name="account"),
    path("compte/calendrier/renouveler/", views.feed_renew, name="feed_renew"),
    path("compte/rappels/desinscription/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("compte/telephones/nouvelles/", push_views.subscribe, name="push_subscribe"),
    path("compte/telephones/nouvelles/<int:pk>/retirer/", push_views.remove, name="push_remove"),
    path("compte/adresse/", email_views.email_change, name="email_change"),
    path("compte/adresse/confirmer/<str:token>/", email_views.email_confirm, name="email_confirm"),
]
