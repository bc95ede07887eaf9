"""Signed-in tablets: the user of each request comes from the shared cache, and a change to
the account still counts at the very next request."""

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
