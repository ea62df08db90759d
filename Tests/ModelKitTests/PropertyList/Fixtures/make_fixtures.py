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

# The values of CPython's test_plistlib TESTDATA, whose binary form Apple's
# CoreFoundation wrote: plistlib's test_appleformatting checks that plistlib
# writes those exact 894 bytes for them (sorted keys), so the file written
# here is CoreFoundation's output, and ModelKit must write it again.
gunk = b"<lots of binary gunk>\0\1\2\3" * 10
apple = {
    "aBigInt": 2**63 - 44,
    "aBigInt2": 2**63 + 44,
    "aDate": datetime.datetime(2004, 10, 26, 10, 33, 33),
    "aDict": {
        "aFalseValue": False,
        "aTrueValue": True,
        "aUnicodeValue": "M\u00e4ssig, Ma\u00df",
        "anotherString": "<hello & 'hi' there!>",
        "deeperDict": {"a": 17, "b": 32.5, "c": [1, 2, "text"]},
    },
    "aFloat": 0.5,
    "aList": ["A", "B", 12, 32.5, [1, 2, 3]],
    "aNegativeBigInt": -80000000000,
    "aNegativeInt": -5,
    "aString": "Doodah",
    "anEmptyDict": {},
    "anEmptyList": [],
    "anInt": 728,
    "nestedData": [gunk],
    "someData": b"<binary gunk>",
    "someMoreData": gunk,
    "\u00c5benraa": "That was a unicode key.",
}
for name, fmt in [("apple-testdata.plist", plistlib.FMT_XML), ("apple-testdata.bplist", plistlib.FMT_BINARY)]:
    with open(os.path.join(here, name), "wb") as f:
        f.write(plistlib.dumps(apple, fmt=fmt, sort_keys=True))
