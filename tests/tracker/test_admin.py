import pytest
from django.apps import apps
from django.contrib import admin
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db

TRACKER_MODELS = list(apps.get_app_config("tracker").get_models())
#: Kept by the app for itself, not part of the demo family's data.
BOOKKEEPING = {"AddressCount", "AppliedEntry", "ImportJob"}


def test_every_model_is_in_the_admin():
    assert all(admin.site.is_registered(model) for model in TRACKER_MODELS)


@pytest.mark.parametrize("model", TRACKER_MODELS, ids=lambda model: model.__name__)
def test_every_changelist_lists_the_demo_data(client, admin_user, model):
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    client.force_login(admin_user)
    url = reverse(f"admin:tracker_{model._meta.model_name}_changelist")
    page = client.get(url)
    assert page.status_code == 200
    assert model.__name__ in BOOKKEEPING or model.objects.count() > 0
    searched = client.get(url, {"q": "a"})
    assert searched.status_code == 200
