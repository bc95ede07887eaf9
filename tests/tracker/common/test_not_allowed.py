"""An address of a button or a form opened in the browser says what it is, changes nothing,
and keeps telling the browser what it takes."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name,args", [
    ("pad_finish", [1]), ("household_leave", []), ("ratings_switch", []),
    ("tournament_end", [1]), ("player_add", []),
])
def test_a_form_s_address_opened_as_a_page_says_so(host_client, name, args):
    response = host_client.get(reverse(name, args=args))
    assert response.status_code == 405 and "POST" in response["Allow"]
    page = response.content.decode()
    assert "<h1>Not a page to open</h1>" in page
    assert "This address is for a button or a form of the app" in page
    # It is a page of the household's like the others: same headers.
    assert "script-src" in response["Content-Security-Policy"]
    assert "no-store" in response["Cache-Control"]
    assert "HX-Request" in response["Vary"]


def test_htmx_gets_the_bare_refusal(host_client):
    response = host_client.get(reverse("pad_finish", args=[1]), HTTP_HX_REQUEST="true")
    assert response.status_code == 405 and response.content == b""
