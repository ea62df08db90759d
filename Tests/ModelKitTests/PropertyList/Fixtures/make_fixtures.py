#!/usr/bin/env python3
"""Writes the property-list fixtures that ModelKit's tests read: documents made
by another implementation (Python's plistlib), in XML and binary.

    python3 make_fixtures.py    # from this folder; rewrites the .plist/.bplist files

The values are listed in BinaryPropertyListTests.swift (`plistlibFixture`);
change both together."""
import datetime
import os
import plistlib

here = os.path.dirname(os.path.abspath(__file__))

# Key order matters (sort_keys=False): ModelKit keeps it.
value = {
    "title": "Fixture",
    "count": 42,
    "negative": -7,
    "large": 2**63 - 1,
    "unsigned": 2**64 - 1,
    "ratio": 0.1,
    "flags": [True, False],
    "when": datetime.datetime(2025, 11, 16, 15, 33, 20),
    "bytes": b"\x00\x01\xfe\xff",
    "unicode": "caf\u00e9 \U0001F389",
    "\u00e9": "precomposed",
    "e\u0301": "decomposed",
    "long": "x" * 40,
    "nested": {"empty": [], "none": {}, "list": [1, 2.5, "three"]},
}

for name, fmt in [("plistlib.plist", plistlib.FMT_XML), ("plistlib.bplist", plistlib.FMT_BINARY)]:
    with open(os.path.join(here, name), "wb") as f:
        f.write(plistlib.dumps(value, fmt=fmt, sort_keys=False))
