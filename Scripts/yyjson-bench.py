#!/usr/bin/env python3
"""yyjson (C), the practical limit for an untyped JSON DOM: parse and write MB/s
on the corpus, measured the way ../shared/orjson-bench.py measures orjson (the
median of seven rounds; MB/s of the input file). `yyjson.Document(data)` parses
into yyjson's own immutable DOM without building Python objects; `dumps()`
writes it minified, and also makes the Python `str` of its output.
Usage: python3 Scripts/yyjson-bench.py   (CORPUS=folder, ROUNDS=n to change)."""
import os, statistics, sys, time

import yyjson

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.environ.get("CORPUS", os.path.join(here, "..", "..", "shared", "corpus"))
rounds = int(os.environ.get("ROUNDS", "7"))


def per(f, n):
    start = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - start) / n


for name in ["twitter", "citm_catalog", "canada"]:
    path = os.path.join(corpus, name + ".json")
    if not os.path.exists(path):
        print(f"{name} skipped: {path} not found", file=sys.stderr)
        continue
    data = open(path, "rb").read()
    mb = len(data) / 1e6
    reps = max(1, int(8 / mb))
    document = yyjson.Document(data)
    parse = statistics.median(per(lambda: yyjson.Document(data), reps) for _ in range(rounds))
    write = statistics.median(per(lambda: document.dumps(), max(1, reps // 4)) for _ in range(rounds))
    print(f"{name} {mb / parse:.0f} {mb / write:.0f}")
