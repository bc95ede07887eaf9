"""Headers every page of the app gets."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control


class PrivatePagesMiddleware:
    """Pages, fragments and PDFs carry a household's data: no browser or proxy keeps them.

    Static files are answered by WhiteNoise before this runs and stay cacheable.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        patch_cache_control(response, private=True, no_store=True)
        return response
