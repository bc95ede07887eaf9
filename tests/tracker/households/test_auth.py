"""Signed-in tablets: the user of each request comes from the shared cache, and a change to
the account still counts at the very next request."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse


def signed_in_tablet(user) -> Client:
    tablet = Client()
    tablet.force_login(user)
    assert tablet.get(reverse("home")).wsgi_request.user == user
    return tablet


def test_a_new_password_signs_out_the_other_tablets(host):
    tablet = signed_in_tablet(host)
    host.set_password("a new family password")
    host.save()
    assert not tablet.get(reverse("home")).wsgi_request.user.is_authenticated


def test_an_account_switched_off_is_signed_out(host):
    tablet = signed_in_tablet(host)
    host.is_active = False
    host.save()
    assert not tablet.get(reverse("home")).wsgi_request.user.is_authenticated


def user_queries(queries) -> list[str]:
    return [query["sql"] for query in queries if 'FROM "auth_user"' in query["sql"]]


def test_a_signed_in_page_reads_the_user_from_the_cache(host):
    tablet = signed_in_tablet(host)
    with CaptureQueriesContext(connection) as queries:
        assert tablet.get(reverse("home")).status_code == 200
    assert user_queries(queries) == []
    host.first_name = "Renamed"
    host.save()
    with CaptureQueriesContext(connection) as queries:
        response = tablet.get(reverse("home"))
    assert len(user_queries(queries)) == 1
    assert response.wsgi_request.user.first_name == "Renamed"


@pytest.mark.django_db
def test_no_password_reset_is_offered_while_the_site_sends_no_email(client, settings):
    settings.EMAIL_HOST = ""
    page = client.get(reverse("login")).content.decode()
    assert "password_reset" not in page
    assert "The site's owner can set a new one in the admin." in page
    for path in ("/accounts/password_reset/", "/accounts/password_reset/done/",
                 "/accounts/reset/MQ/set-password/", "/accounts/reset/done/"):
        assert client.get(path).status_code == 404, path
    assert client.post("/accounts/password_reset/", {"email": "a@example.org"}).status_code == 404


@pytest.mark.django_db
def test_password_reset_by_email_where_a_mail_server_is_named(client, settings, mailoutbox):
    settings.EMAIL_HOST = "mail.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    get_user_model().objects.create_user("mama", email="mama@example.org", password="secret")
    page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in page
    response = client.post(reverse("password_reset"), {"email": "mama@example.org"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["mama@example.org"]
