from django.urls import path

from gamenights import views

app_name = "gamenights"
urlpatterns = [
    path("calendrier/", views.calendar, name="calendar"),
    path("calendrier.ics", views.feed, name="feed"),
    path("calendrier/membre/<str:token>.ics", views.member_feed, name="member_feed"),
    path("saisons/<str:name>/calendrier/", views.season_calendar, name="season_calendar"),
    path("saisons/<str:name>/calendrier.ics", views.season_feed, name="season_feed"),
    path("saisons/<str:name>/soirees/nouvelle/", views.night_create, name="night_create"),
    path("saisons/<str:name>/calendrier/coupe/", views.cup_nights, name="cup_nights"),
    path("soirees/<int:pk>/", views.night_detail, name="night"),
    path("soirees/<int:pk>/modifier/", views.night_edit, name="night_edit"),
    path("soirees/<int:pk>/annuler/", views.night_cancel, name="night_cancel"),
    path("soirees/<int:pk>/reponse/", views.night_answer, name="night_answer"),
    path("soirees/<int:pk>/reponse-pour/", views.night_answer_for, name="night_answer_for"),
    path("soirees/<int:pk>/reponse/<str:token>/", views.night_answer_link, name="answer_link"),
    path("soirees/<int:pk>/confirmer/", views.night_confirm, name="night_confirm"),
]
