from django.urls import reverse


def test_it_shows_the_home_page_in_french_to_an_anonymous_visitor(client, season, president):
    response = client.get(reverse("federation:home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Championnat du Monde de Tarot-Bière" in html
    assert "Saison 2010-2011" in html
    assert "Connexion" in html
    assert "Président" in html


def test_it_shows_the_home_page_without_any_season(client, db):
    response = client.get(reverse("federation:home"))
    assert response.status_code == 200
    assert "Aucune saison n'est encore ouverte." in response.content.decode()


def test_it_serves_english_when_asked(client, season):
    response = client.get(reverse("federation:home"), headers={"accept-language": "en"})
    assert response.status_code == 200
    assert '<html lang="en">' in response.content.decode()


def test_it_logs_a_player_in_and_out(client, member):
    response = client.get(reverse("login"))
    assert "Se connecter" in response.content.decode()
    response = client.post(reverse("login"), {"username": "membre", "password": "secret-pass-1"})
    assert response.status_code == 302
    assert response.url == reverse("federation:home")
    response = client.get(reverse("federation:home"))
    assert "Déconnexion (membre)" in response.content.decode()
    client.post(reverse("logout"))
    response = client.get(reverse("federation:home"))
    assert "Déconnexion" not in response.content.decode()


def test_it_refuses_a_wrong_password_in_french(client, member):
    response = client.post(reverse("login"), {"username": "membre", "password": "faux"})
    assert response.status_code == 200
    assert "Saisissez un nom d’utilisateur et un mot de passe valides" in response.content.decode()
