"""The admin's application, named in INSTALLED_APPS in place of django.contrib.admin: its site
is federation.two_step.AdminSite, whose login is the site's (the password, then the second
factor's code). A module of its own: federation.apps must name a single application."""

from django.contrib.admin.apps import AdminConfig


class FederationAdminConfig(AdminConfig):
    default_site = "federation.two_step.AdminSite"
