from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from federation import views

federation_patterns = [
    path("", views.home, name="home"),
]

urlpatterns = [
    path("", include((federation_patterns, "federation"))),
    path("", include("championship.urls")),
    path("connexion/", auth_views.LoginView.as_view(), name="login"),
    path("deconnexion/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
