"""Writes the two files a family brings from the apps it used before, as those apps write
them: ``bgstats_family.json`` (a BG Stats export) and ``bgg_plays.xml`` (BoardGameGeek's log
of plays). Run it again only to change them: ``python tests/data/make_family_files.py``.

The Sommer-Berg family, 2021 to 2025: eight players (two called Lena, one known only by
her BGG user name, one without a name at all, one anonymous guest), a dozen games (a
co-operative one, a team game, a game without points, a fewest-points game, an expansion,
Yahtzee), plays at home, at Oma's and on holiday, and the odd lines of years of use: the
plays of a game deleted since, a play without a date, the Dixit evening whose winner is a
player the file no longer lists, a score with decimals, a player without a score, a
401-digit length, tags, groups and challenges.
"""

import json
import random
import uuid
from datetime import date, timedelta
from pathlib import Path
from xml.sax.saxutils import quoteattr

HERE = Path(__file__).parent
rng = random.Random(46)


def ident() -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()


PLAYERS = [
    {"id": 1, "name": "Mama", "isAnonymous": False, "bggUsername": "mama_sommer"},
    {"id": 2, "name": "Lena", "isAnonymous": False},
    {"id": 3, "name": "Papa", "isAnonymous": False, "bggUsername": "papaberg"},
    {"id": 4, "name": "Jonas", "isAnonymous": False},
    {"id": 5, "name": "", "isAnonymous": False, "bggUsername": "max_meeple"},
    {"id": 6, "name": "Lena", "isAnonymous": False, "metaData": "{\"color\":\"#f0a\"}"},
    {"id": 7, "isAnonymous": False},
    {"id": 8, "name": "Anonymous player", "isAnonymous": True},
]
for player in PLAYERS:
    player["uuid"] = ident()
    player["modificationDate"] = "2025-11-02 10:00:00"

GAMES = [
    # id, name, cooperative, highestWins, noPoints, usesTeams, bggId, year, min, max, expansion
    (1, "Catan", False, True, False, False, 13, 1995, 3, 4, False),
    (2, "Dixit", False, True, False, False, 39856, 2008, 3, 8, False),
    (3, "Pandemic", True, True, False, False, 30549, 2008, 2, 4, False),
    (4, "Codenames", False, True, True, True, 178900, 2015, 2, 8, False),
    (5, "Skyjo", False, False, False, False, 245888, 2015, 2, 8, False),
    (6, "Carcassonne", False, True, False, False, 822, 2000, 2, 5, False),
    (7, "Wingspan", False, True, False, False, 266192, 2019, 1, 5, False),
    (8, "Yahtzee", False, True, False, False, 2243, 1956, 1, 10, False),
    (9, "Catan: Seafarers", False, True, False, False, 325, 1997, 3, 4, True),
    (10, "Azul", False, True, False, False, 230802, 2017, 2, 4, False),
    (11, "Love Letter", False, True, True, False, 129622, 2012, 2, 6, False),
    (12, "Ticket to Ride", False, True, False, False, 9209, 2004, 2, 5, False),
]
LOCATIONS = [{"id": 1, "name": "Home"}, {"id": 2, "name": "Bei Oma"},
             {"id": 3, "name": "Ferienhaus Sylt"}]
for location in LOCATIONS:
    location["uuid"] = ident()
    location["modificationDate"] = "2024-01-01 12:00:00"
FAMILY = [1, 2, 3, 4]
GUESTS = [5, 6, 7, 8]


def games_out() -> list[dict]:
    out = []
    for (ref, name, coop, highest, no_points, teams, bgg, year, low, high, expansion) in GAMES:
        out.append({
            "id": ref, "uuid": ident(), "name": name, "modificationDate": "2023-05-01 09:00:00",
            "cooperative": coop, "highestWins": highest, "noPoints": no_points,
            "usesTeams": teams, "urlThumb": f"https://cf.geekdo-images.com/{bgg}_t.jpg",
            "urlImage": f"https://cf.geekdo-images.com/{bgg}.jpg", "bggName": name,
            "bggYear": year, "bggId": bgg, "designers": "", "isBaseGame": 0 if expansion else 1,
            "isExpansion": 1 if expansion else 0, "rating": 0, "minPlayerCount": low,
            "maxPlayerCount": high, "minPlayTime": 30, "maxPlayTime": 90, "minAge": 8,
            "preferredImage": 0, "previouslyPlayedAmount": 0,
            "metaData": "{\"bggType\":\"boardgame\"}"})
    return out


def row(player: int, score: str, *, winner: bool, seat: int, start: bool, rank: int = 0,
        team: str = "", new: bool = False) -> dict:
    return {"score": score, "winner": winner, "newPlayer": new, "startPlayer": start,
            "playerRefId": player, "rank": rank, "seatOrder": seat, "role": "",
            "team": team, "teamRole": ""}


def play_rows(game: tuple, players: list[int]) -> tuple[list[dict], bool]:
    ref, name, coop, highest, no_points, teams = game[:6]
    rng.shuffle(players)
    start = rng.randrange(len(players))
    if coop:
        won = rng.random() < 0.55
        return [row(p, "", winner=won, seat=i, start=i == start)
                for i, p in enumerate(players)], False
    if teams:
        half = len(players) // 2
        red_won = rng.random() < 0.5
        return [row(p, "", winner=(i < half) == red_won, seat=i, start=i == start,
                    team="Red" if i < half else "Blue") for i, p in enumerate(players)], True
    if no_points:
        order = rng.sample(players, len(players))
        return [row(p, "", winner=order[0] == p, seat=i, start=i == start,
                    rank=order.index(p) + 1) for i, p in enumerate(players)], False
    low, high = {1: (4, 10), 2: (12, 34), 5: (8, 80), 6: (40, 120), 7: (45, 100),
                 8: (150, 320), 9: (5, 12), 10: (30, 95), 12: (60, 150)}[ref]
    scores = {p: rng.randint(low, high) for p in players}
    best = (max if highest else min)(scores.values())
    return [row(p, str(scores[p]), winner=scores[p] == best, seat=i, start=i == start)
            for i, p in enumerate(players)], False


def plays_out() -> list[dict]:
    plays = []
    day = date(2021, 3, 6)
    base_games = [game for game in GAMES if not game[10]]
    while len(plays) < 318:
        day += timedelta(days=rng.choice([4, 5, 6, 7, 8, 9]))
        location = rng.choices([1, 2, 3, None], [6, 2, 1, 3])[0]
        for number in range(rng.choice([1, 1, 2, 3])):
            game = rng.choice(base_games)
            size = rng.randint(max(2, game[8]), min(game[9], 6))
            if game[5]:
                size = 4
            players = FAMILY + rng.sample(GUESTS, max(0, size - 4)) if size > 4 else rng.sample(
                FAMILY, size)
            rows, teams = play_rows(game, list(players))
            if rng.random() < 0.3:
                for seat_row in rows:
                    seat_row["seatOrder"] = 0
            hour = 18 + number
            uid = ident()
            minute = rng.choice(["00", "15", "30", "45"])
            play = {
                "uuid": uid, "modificationDate": f"{day} 23:10:00",
                "entryDate": f"{day} 23:00:00", "playDate": f"{day} {hour}:{minute}:00",
                "usesTeams": teams, "durationMin": rng.choice([0, 25, 40, 55, 75, 90]),
                "ignored": rng.random() < 0.03, "manualWinner": False, "rounds": 0,
                "gameRefId": game[0], "board": "", "rating": rng.choice([0, 0, 0, 7, 8, 9]),
                "scoringSetting": 0, "playImages": "[]", "playerScores": rows,
                "expansionPlays": [], "comments": rng.choice(
                    ["", "", "", "Oma's first win", "Close call!", "Jonas explained it"]),
                "metaData": "{\"scoringVersion\":2}"}
            if location is not None:
                play["locationRefId"] = location
            if game[0] == 1 and rng.random() < 0.4:
                play["expansionPlays"] = [{"gameRefId": 9, "bggId": 325}]
            if game[0] == 7 and rng.random() < 0.5:
                play["board"] = "Oceania"
            if rng.random() < 0.05:
                play["tags"] = [1]
            plays.append(play)
    # The odd lines of years of use.
    plays[40]["playerScores"][0]["score"] = "12.5" if plays[40]["gameRefId"] not in (3, 4, 11) \
        else plays[40]["playerScores"][0]["score"]
    plays[41]["playerScores"][-1]["score"] = ""
    plays[60]["durationMin"] = int("9" * 401)
    plays.append({"uuid": ident(), "playDate": "2022-02-19 20:00:00", "gameRefId": 99,
                  "usesTeams": False, "durationMin": 30, "entryDate": "2022-02-19 22:00:00",
                  "playerScores": [row(1, "31", winner=True, seat=0, start=True),
                                   row(3, "22", winner=False, seat=1, start=False)]})
    plays.append({"uuid": ident(), "playDate": "2023-07-02 16:00:00", "gameRefId": 99,
                  "usesTeams": False, "durationMin": 45, "entryDate": "2023-07-02 18:00:00",
                  "playerScores": [row(2, "18", winner=False, seat=0, start=True),
                                   row(4, "27", winner=True, seat=1, start=False)]})
    plays.append({"uuid": ident(), "playDate": "", "gameRefId": 6, "usesTeams": False,
                  "entryDate": "2023-01-01 00:00:00", "durationMin": 0,
                  "playerScores": [row(1, "80", winner=True, seat=0, start=True),
                                   row(3, "70", winner=False, seat=1, start=False)]})
    plays.append({"uuid": ident(), "playDate": "2024-08-09 20:30:00", "gameRefId": 2,
                  "usesTeams": False, "durationMin": 35, "entryDate": "2024-08-09 22:00:00",
                  "locationRefId": 3, "comments": "Urlaub, Onkel Theo zu Besuch",
                  "ignored": False, "manualWinner": False, "rounds": 0, "board": "",
                  "rating": 8, "scoringSetting": 0, "playImages": "[]", "expansionPlays": [],
                  "playerScores": [row(777, "30", winner=True, seat=0, start=True),
                                   row(2, "27", winner=False, seat=1, start=False),
                                   row(1, "22", winner=False, seat=2, start=False),
                                   row(4, "19", winner=False, seat=3, start=False)]})
    plays.append({"uuid": ident(), "playDate": "2025-12-24 17:00:00", "gameRefId": 8,
                  "usesTeams": False, "durationMin": 30, "entryDate": "2025-12-24 19:00:00",
                  "playerScores": [row(p, str(s), winner=s == 281, seat=i, start=i == 0)
                                   for i, (p, s) in enumerate([(1, 281), (5, 203), (6, 190),
                                                               (7, 240), (8, 150)])]})
    return plays


def bgstats_file() -> dict:
    return {
        "about": "BG Stats export, see https://www.bgstatsapp.com/ for more information",
        "players": PLAYERS, "locations": LOCATIONS, "games": games_out(),
        "plays": plays_out(),
        "userInfo": {"meRefId": 1, "bggUsername": "mama_sommer"},
        "tags": [{"id": 1, "uuid": ident(), "name": "Weihnachten", "type": 1}],
        "groups": [{"id": 1, "uuid": ident(), "name": "Familie",
                    "playerRefIds": "1,2,3,4"}],
        "challenges": [{"id": 1, "uuid": ident(), "name": "10x10 2024",
                        "startDate": "2024-01-01", "endDate": "2024-12-31",
                        "gameRefIds": "1,2,5,7", "goal": 10}],
    }


def bgg_log() -> str:
    """The same family's log on BGG: 100 entries of the BG Stats plays, with BGG's odd ones."""
    names = {1: ("Mama", "mama_sommer"), 2: ("Lena", ""), 3: ("Papa", "papaberg"),
             4: ("Jonas", ""), 5: ("", "max_meeple"), 6: ("Lena", "lena_b"),
             7: ("Opa", ""), 8: ("Anonymous player", "")}
    games = {ref: (name, bgg) for (ref, name, *_rest, bgg, _y, _l, _h, _e) in
             [(g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10])
              for g in GAMES]}
    places = {1: "Home", 2: "Bei Oma", 3: "Ferienhaus Sylt"}
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<plays username="mama_sommer" userid="1234567" total="103" page="1" '
             'termsofuse="https://boardgamegeek.com/xmlapi/termsofuse">']
    entries = [play for play in plays_out() if play.get("gameRefId") in games
               and play.get("playDate")][:100]
    first = len(lines)
    for number, play in enumerate(entries, start=1):
        if number == 2:
            first_play = lines[first:]
        name, bgg = games[play["gameRefId"]]
        attributes = {"id": str(80_000_000 + number), "date": play["playDate"][:10],
                      "quantity": "2" if number == 7 else "1",
                      "length": str(play["durationMin"] if number != 61 else 45),
                      "incomplete": "1" if number == 12 else "0",
                      "nowinstats": "1" if play.get("ignored") else "0",
                      "location": places.get(play.get("locationRefId"), "")}
        lines.append("  <play " + " ".join(f"{key}={quoteattr(value)}"
                                           for key, value in attributes.items()) + ">")
        lines.append(f'    <item name={quoteattr(name)} objecttype="thing" objectid="{bgg}">'
                     '<subtypes><subtype value="boardgame"/></subtypes></item>')
        if play.get("comments"):
            lines.append(f"    <comments>{play['comments'].replace('&', '&amp;')}</comments>")
        lines.append("    <players>")
        for seat, score_row in enumerate(play["playerScores"], start=1):
            player_name, username = names.get(score_row["playerRefId"], ("Theo", ""))
            attrs = {"username": username, "userid": "0", "name": player_name,
                     "startposition": str(seat), "color": rng.choice(["", "red", "blue"]),
                     "score": score_row["score"], "new": "0", "rating": "0",
                     "win": "1" if score_row["winner"] else "0"}
            lines.append("      <player " + " ".join(
                f"{key}={quoteattr(value)}" for key, value in attrs.items()) + "/>")
        lines.append("    </players>")
        lines.append("  </play>")
    # A play logged twice (the same BGG id), and one without a date.
    lines.extend(first_play)
    lines.extend(['  <play id="80000201" date="" quantity="1" length="0" incomplete="0" '
                  'nowinstats="0" location="">',
                  '    <item name="Azul" objecttype="thing" objectid="230802"/>',
                  '    <players><player username="" userid="0" name="Papa" '
                  'startposition="1" color="" score="70" new="0" rating="0" win="1"/>'
                  '</players>', '  </play>'])
    lines.append("</plays>")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    rng.seed(46)
    (HERE / "bgstats_family.json").write_text(json.dumps(bgstats_file(), ensure_ascii=False,
                                                         indent=1) + "\n")
    rng.seed(46)
    (HERE / "bgg_plays.xml").write_text(bgg_log())
