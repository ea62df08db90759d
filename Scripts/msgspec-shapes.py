#!/usr/bin/env python3
"""msgspec's side of the Benchmarks row "typed decode, twitter.json, by declared shape":
twitter.json decoded into Structs that declare more and more, from nothing to the full
shapes of ../shared/msgspec-bench.py. Median of nine rounds of twenty decodes each.
Usage: python3 Scripts/msgspec-shapes.py ../shared/corpus/twitter.json"""
import statistics
import sys
import time
from typing import Optional

import msgspec


class Nothing(msgspec.Struct):
    pass


class SearchOfEmpties(msgspec.Struct):
    statuses: list[Nothing] = []


class IDStatus(msgspec.Struct):
    id: int = 0


class SearchOfIDs(msgspec.Struct):
    statuses: list[IDStatus] = []


class IDStatusWithEmptyUser(msgspec.Struct):
    id: int = 0
    user: Nothing = msgspec.field(default_factory=Nothing)


class SearchOfIDsAndEmptyUsers(msgspec.Struct):
    statuses: list[IDStatusWithEmptyUser] = []


class User(msgspec.Struct):
    id: int = 0
    name: str = ""
    screen_name: str = ""
    location: str = ""
    followers_count: int = 0
    friends_count: int = 0
    verified: bool = False
    lang: str = ""


class Status(msgspec.Struct):
    id: int = 0
    text: str = ""
    created_at: str = ""
    source: str = ""
    in_reply_to_status_id: Optional[int] = None
    retweet_count: int = 0
    favorite_count: int = 0
    favorited: bool = False
    lang: str = ""
    user: User = msgspec.field(default_factory=User)


class Search(msgspec.Struct):
    statuses: list[Status] = []


def median_time(function, repeats=20, rounds=9):
    function()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeats):
            function()
        times.append((time.perf_counter() - start) / repeats)
    return statistics.median(times)


data = open(sys.argv[1], "rb").read()
shapes = [
    ("nothing declared", Nothing),
    ("statuses, empty", SearchOfEmpties),
    ("statuses, id", SearchOfIDs),
    ("statuses, id, empty user", SearchOfIDsAndEmptyUsers),
    ("full shapes", Search),
]
for label, shape in shapes:
    decoder = msgspec.json.Decoder(shape)
    print(f"{label}: {median_time(lambda: decoder.decode(data)) * 1e6:.1f} us")
