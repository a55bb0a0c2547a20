from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from federation import accounts, two_step

ACCOUNT = "registration/account/"

# Password change (logged-in members) and reset by e-mail, in the site's layout (the reset mailed
# off the request and throttled: federation.accounts). The templates live in registration/account/
# so that the admin keeps its own registration/ pages.
account_patterns = [
    path(
        "compte/mot-de-passe/",
        auth_views.PasswordChangeView.as_view(template_name=ACCOUNT + "password_change_form.html"),
        name="password_change",
    ),
    path(
        "compte/mot-de-passe/change/",
        auth_views.PasswordChangeDoneView.as_view(template_name=ACCOUNT + "password_change_done.html"),
        name="password_change_done",
    ),
    # Officials' second factor (federation.two_step; its section of « Mon compte »).
    path("compte/seconde-verification/ajouter/", two_step.enrol_start, name="second_factor_start"),
    path("compte/seconde-verification/", two_step.enrol, name="second_factor_enrol"),
    path("compte/seconde-verification/codes/", two_step.backup_codes, name="second_factor_codes"),
    path("compte/seconde-verification/retirer/", two_step.remove, name="second_factor_remove"),
    path(
        "compte/mot-de-passe-oublie/",
        accounts.PasswordResetView.as_view(
            template_name=ACCOUNT + "password_reset_form.html",
            email_template_name=ACCOUNT + "password_reset_email.txt",
            subject_template_name=ACCOUNT + "password_reset_subject.txt",
        ),
        name="password_reset",
    ),
    path(
        "compte/mot-de-passe-oublie/envoye/",
        auth_views.PasswordResetDoneView.as_view(template_name=ACCOUNT + "password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "compte/reinitialiser/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(template_name=ACCOUNT + "password_reset_confirm.html"),
        name="password_reset_confirm",
    ),
    path(
        "compte/reinitialiser/termine/",
        auth_views.PasswordResetCompleteView.as_view(template_name=ACCOUNT + "password_reset_complete.html"),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    # The home page is the competition's (championship.views.home); its name stays federation:home.
    path("", include(("championship.views.home", "federation"))),
    path("", include("championship.urls")),
    path("", include("gamenights.urls")),
    path("", include("notifications.urls")),
    # The password, then for an account with a second factor its code (federation.two_step).
    path("connexion/", two_step.LoginView.as_view(), name="login"),
    path("connexion/code/", two_step.login_code, name="login_code"),
    path("deconnexion/", accounts.LogoutView.as_view(), name="logout"),
    *account_patterns,
    path("", include("federation.private_link_views")),  # a member's private link (links:…)
    path("", include("federation.pwa")),  # /sw.js and /manifest.webmanifest, at the root for their scope
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
