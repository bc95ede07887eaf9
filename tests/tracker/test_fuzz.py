"""Garbage into every URL pattern, as a logged-in member: never a server error.

Every pattern of the URLconf is resolved and its path parameters are filled with ids of the
household's own objects and with garbage; each address then gets GET parameters and POST
bodies built from nasty values (huge and malformed numbers, deep and misshapen JSON drafts,
unicode, control characters, very long text). The values come from a seeded generator, so
a failure repeats, and their number is bounded so the test stays quick.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

import games
from tests.factories import GameNightFactory, InvitationFactory, OwnGameFactory, SeriesFactory
from tracker.common import pdf
from tracker.evenings.models import Tournament, TournamentEntry
from tracker.evenings.recording import start_tournament_round
from tracker.paper import printing
from tracker.room.models import ShareLink
from tracker.table.recording import record_result, start_play, write_cell

pytestmark = pytest.mark.django_db

# Requests at an address with real ids, and at one with garbage in its path (a 404 mostly).
REQUESTS_PER_ADDRESS = 24
REQUESTS_PER_GARBAGE_ADDRESS = 3
SEED = 13

DEEP = "[" * 3000 + "]" * 3000
NASTY_NUMBERS = [
    "", "0", "-1", "--5", "+5", "1e309", "NaN", "Infinity", "0x1F", "1_000", "٣", "²",
    "9" * 20, "9" * 400, "9" * 5000, "-" + "9" * 5000, "18446744073709551616", "2147483648",
]
NASTY_TEXT = [
    " ",  "null", "true", "[]", "{}", "a" * 20_000, "Ünïcødé 🎲", "\x00", "\ufeff", "\u202e",
    "<script>alert(1)</script>", "../../etc/passwd", "%s%n", "1,2,3", "1;;2", "a:b:c",
    ",,,,", ":" * 50,
]


def json_drafts(keys: list[str]) -> list[str]:
    """Drafts of every wrong shape: too deep, too large, numbers too long, wrong types."""
    first = keys[0] if keys else "1"
    return [
        DEEP, "{" + '"a":{' * 3000 + "}" * 3001, "[" * 900 + "]" * 900,
        '{"x": ' + "9" * 5000 + "}", '{"x": 1e999}', '{"x": NaN}',
        "5", '"text"', "[1, 2]", "null",
        json.dumps({"order": 5}), json.dumps({"order": [[first]]}),
        json.dumps({"order": {first: 1}}),
        json.dumps({"captures": 5}), json.dumps({"captures": [5, "x", {"mice": 5, "by": []}]}),
        json.dumps({"_picked": 5}), json.dumps({"_picked": [[1]]}),
        json.dumps({"hands": {first: 1}}), json.dumps({"hands": [5, "x", {first: [1]}]}),
        json.dumps({"hands": [{key: 1 for key in keys}] * 5000}),
        json.dumps({"elephants": 5}), json.dumps({"elephants": {first: {"a": 1}}}),
        json.dumps({"elephants": {first: ["home:" + "9" * 5000] * 4}}),
        json.dumps({"mice": 5, "first_home": 5}),
        json.dumps({"mice": {first: {"home": "x"}}, "first_home": [[first]]}),
        json.dumps({"mice": {first: {"home": 10**30}}, "first_home": {first: 1}}),
        json.dumps({"winner": [first], "squares": 5, "scores": [1]}),
        json.dumps({"scores": {first: 10**30}}), json.dumps({"scores": {first: "9" * 5000}}),
        json.dumps({"cheese": {first: -10**30}}), json.dumps({"_choosing": [1]}),
        json.dumps({"sheets": 5, "dice": 5, "extra_kniffels": 5}),
    ]


def field_names(keys: list[str]) -> list[str]:
    """Every name a form of the app reads, with the players' keys where a name has one."""
    per_player = [f"{prefix}_{key}" for key in keys
                  for prefix in ("score", "square", "cheese", "hand_0", "hand_1")]
    rules = [f"rule_{option.key}" for rules in games.all_games() for option in rules.house_rules]
    return [
        "draft", "tap", "save", "version", "points", "dice", "choose", "set", "players",
        "player", "game", "seats", "starter", "start", "name", "colour", "date", "winner",
        "races_planned", "rounds_planned", "final_table", "tiebreak_1", "tiebreak_2",
        "action", "page", "since", "until", "series", "next", "anyway", "format", "lang",
        "sheets", "columns", "variant", "paper", "races", "create", "username",
        "password1", "password2", "new-name", "new-colour", "language",
        *per_player, *rules,
    ]


def taps(keys: list[str]) -> list[str]:
    first = keys[0] if keys else "1"
    return [f"{name}:{first}:{index}" for name in ("home", "seat", "caught", "pyramid")
            for index in ("0", "3", "9" * 30, "-1")] + [
        f"seatvalue:{first}:0:" + "9" * 5000, f"order:{first}", f"pick:{first}",
        f"capture:{first}", "uncapture", f"first:{first}", f"more:{first}", f"fewer:{first}",
        "addhand", "removehand", "die:" + "9" * 5000, "die:7", "undie:" + "9" * 5000,
        "undie:-1", "clear", f"seat:{first}", "seat:" + "9" * 30]


def plausible_values(keys: list[str]) -> dict[str, list[str]]:
    """Values a form would send, so that garbage in one field gets past the others; a
    player's key is their id."""
    ids = keys
    return {
        "game": [rules.key for rules in games.all_games()], "players": ids, "player": ids,
        "seats": [",".join(keys), ",".join(keys[:2])], "starter": keys, "winner": keys,
        "date": ["2024-05-01"], "version": ["1", "2", "3"], "name": ["Cup"],
        "races_planned": ["3"], "rounds_planned": ["2"], "start": ["1"], "save": ["1"],
        "create": ["1"], "choose": ["chance", "ones"], "points": ["5"], "dice": ["1,2,3,4,5"],
        "rule_seat_values": ["1,2,3"], "rule_scoring": ["penalty_points"],
        "set": [f"{key}:1" for key in ids], "action": ["ended_early", "more"],
        "format": ["html", "pdf", "preview"], "draft": ["{}"], "tap": taps(keys),
    }


class Garbage:
    """Seeded nasty requests: each field a form reads is left out, sent plausible or sent
    as garbage, so garbage reaches each field with the others filled in."""

    def __init__(self, seed: int, keys: list[str]):
        self.random = random.Random(seed)
        self.keys = keys
        self.values = NASTY_TEXT + json_drafts(keys) + taps(keys) + keys + [
            f"{key}:{count}" for key in keys for count in ("1", "9" * 30, "-1")]
        self.plausible = plausible_values(keys)
        self.names = field_names(keys)

    def value(self) -> str:
        pool = self.random.choice((NASTY_NUMBERS, self.values))
        return self.random.choice(pool)

    def field(self, name: str) -> str:
        if name in self.plausible and self.random.random() < 0.5:
            return self.random.choice(self.plausible[name])
        if name == "draft":
            return self.random.choice(json_drafts(self.keys))
        return self.value()

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {name: self.field(name) for name in self.names
                                if self.random.random() < 0.3}
        if self.random.random() < 0.6:
            body["draft"] = self.random.choice(json_drafts(self.keys))
        if self.random.random() < 0.5:
            body["players"] = [*self.random.sample(self.plausible["players"], 2),
                               self.value(), self.value()]
        return body


def url_patterns(resolver: URLResolver | None = None, prefix: str = ""
                 ) -> Iterator[tuple[str, URLPattern]]:
    """The app's patterns with their full routes; Django's admin is Django's to fuzz."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if not route.startswith("admin/"):
                yield from url_patterns(entry, route)
        else:
            yield route, entry


PATTERNS = list(url_patterns())


@pytest.fixture
def household_objects(household, host, family, night):
    """One of each thing a family has: plays of every game (under way, finished, abandoned),
    a series, a tournament with a round, share links and an invitation."""
    plays = {}
    for rules in games.all_games():
        players = family[:max(rules.min_players, 2)]
        own_game = OwnGameFactory(household=household) if rules.key == "generic" else None
        play = start_play(household=household, game=rules.key, players=players,
                          game_night=night, own_game=own_game)
        plays[rules.key] = play
    penalty = start_play(household=household, game="mau_mau", players=family[:3],
                         game_night=night, house_rules={"scoring": "penalty_points"})
    finished = start_play(household=household, game="souriciere", players=family[:3],
                          game_night=night)
    record_result(finished, {"order": [family[1].key]}, expected_version=finished.version)
    abandoned = start_play(household=household, game="generic",
                           own_game=OwnGameFactory(household=household), players=family[:2],
                           game_night=night)
    abandoned.status = "abandoned"
    abandoned.save(update_fields=["status"])
    write_cell(plays["kniffel"], family[0], "chance", 20, expected_version=None)
    series = SeriesFactory(household=household)
    series.players.set(family[:3])
    tournament = Tournament.objects.create(household=household, name="Party", rounds_planned=2)
    for player in family:
        TournamentEntry.objects.create(tournament=tournament, player=player)
    start_tournament_round(tournament)
    old_night = GameNightFactory(household=household, date="2024-05-01")
    links = [ShareLink.objects.create(household=household, play=plays["kniffel"]),
             ShareLink.objects.create(household=household, series=series)]
    invitation = InvitationFactory(household=household)
    return {
        "play_id": [*(p.pk for p in plays.values()), penalty.pk, finished.pk, abandoned.pk],
        "night_id": [night.pk, old_night.pk],
        "series_id": [series.pk], "tournament_id": [tournament.pk],
        "player_id": [p.pk for p in family], "object_id": [night.pk, series.pk],
        "invitation_id": [invitation.pk], "year": [2024, night.date.year],
        "token": [link.token for link in links] + [invitation.token],
        "kind": ["play", "night", "series", "tournament"],
        "field": ["chance", "ones", "kniffel", "ufo"],
        "game": [rules.key for rules in games.all_games()],
        "keys": [p.key for p in family],
    }


GARBAGE_PATH = {"int": ["0", "9" * 25], "id": ["0", "9" * 25], "slug": ["x", "a" * 300],
                "str": ["ü", "a" * 300]}


def addresses(route: str, pattern: URLPattern, objects: dict[str, list[Any]],
              rng: random.Random) -> list[tuple[str, int]]:
    """The route with real values for its parameters, then with garbage in each, and the
    number of requests to send to each."""
    converters = pattern.pattern.converters
    if not converters:
        return [("/" + route, REQUESTS_PER_ADDRESS)]
    real = {name: [str(value) for value in objects.get(name, ["1"])] for name in converters}
    filled = [({name: rng.choice(options) for name, options in real.items()},
               REQUESTS_PER_ADDRESS // 2) for _ in range(2)]
    for name, converter in converters.items():
        kind = type(converter).__name__.removesuffix("Converter").lower()
        for junk in GARBAGE_PATH.get(kind, GARBAGE_PATH["str"]):
            filled.append(({**filled[0][0], name: junk}, REQUESTS_PER_GARBAGE_ADDRESS))
    return [("/" + fill_route(route, values), count) for values, count in filled]


def fill_route(route: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        route = route.replace(f"<{name}>", value)
        for kind in ("int", "id", "slug", "str", "path"):
            route = route.replace(f"<{kind}:{name}>", value)
    return route


@pytest.fixture
def pdfs_as_html(monkeypatch):
    """The sheets are rendered from the same templates, but not laid out by WeasyPrint: the
    input is read before a PDF is drawn, and drawing hundreds would take minutes."""
    def html_bytes(template: str, context: dict[str, Any], language: str, **_: Any) -> bytes:
        return pdf.render_html(template, context, language).encode()

    monkeypatch.setattr("tracker.common.pdf.render_pdf", html_bytes)
    monkeypatch.setattr("tracker.paper.views.render_pad",
                        lambda pad: html_bytes("print/kniffel_pad.html",
                                               printing.pad_context(pad), pad.language))


def test_no_input_gives_a_server_error(client, host, household_objects, pdfs_as_html):
    client.raise_request_exception = os.environ.get("FUZZ_RAISE") == "1"
    client.force_login(host)
    failures = []
    for route, pattern in PATTERNS:
        rng = random.Random(f"{SEED}:{route}")
        garbage = Garbage(rng.randrange(2**32), household_objects["keys"])
        for url, count in addresses(route, pattern, household_objects, rng):
            for number in range(count):
                failure = send(client, url, garbage, number)
                if failure:
                    failures.append(failure)
                if route.startswith("accounts/"):
                    client.force_login(host)
    assert not failures, "\n".join(map(str, failures[:10]))


def send(client, url: str, garbage: Garbage, number: int) -> tuple[Any, ...] | None:
    """One garbage request, GET or POST, plain or htmx; what was sent when it failed."""
    htmx = {"HTTP_HX_REQUEST": "true"} if number % 2 else {}
    body = garbage.body()
    if number % 3 == 0:
        response = client.get(url, body, **htmx)
    else:
        response = client.post(url, body, **htmx)
    if response.status_code < 500:
        return None
    return (response.status_code, "GET" if number % 3 == 0 else "POST", url,
            {key: str(value)[:60] for key, value in body.items()})
