#!/usr/bin/env bash
# Builds ModelKit's DocC documentation with the toolchain's own docc, from
# the module's symbol graph: no package plugin, no dependency. Fails on any
# DocC warning.
#
#   Scripts/build-docs.sh            # output in .build/docs/ModelKit.doccarchive
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build/docs-build
graphs=.build/docs/symbol-graphs
output=.build/docs/ModelKit.doccarchive
# The graphs are kept between runs: a build with nothing to do emits none.
rm -rf "$output"
mkdir -p "$graphs"
swift build --scratch-path "$scratch" --target ModelKit \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public >/dev/null
# Only ModelKit's own graphs (not those of the modules it imports).
find "$graphs" -type f ! -name 'ModelKit*.symbols.json' -delete
log=$(mktemp)
docc convert Sources/ModelKit/ModelKit.docc \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name ModelKit --fallback-bundle-identifier org.modelkit.ModelKit \
    --output-path "$output" --analyze 2>&1 | tee "$log"
if grep -qE "(^|[^a-z])warning:" "$log"; then
    echo "build-docs: DocC printed warnings (see above); the documentation builds without them." >&2
    exit 1
fi
# Every public symbol declared in ModelKit has a doc comment (conformances
# that implement a documented requirement inherit its documentation).
if command -v python3 >/dev/null; then
    python3 - "$graphs" <<'PY'
import glob, json, sys
missing = set()
for path in glob.glob(sys.argv[1] + "/ModelKit*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open") or symbol.get("docComment") or symbol.get("sourceOrigin"):
            continue
        uri = symbol.get("location", {}).get("uri", "")
        if "Sources/ModelKit/" in uri:
            line = symbol["location"]["position"]["line"] + 1
            missing.add(f"{uri.split('Sources/ModelKit/')[1]}:{line}: {'.'.join(symbol['pathComponents'])}")
for entry in sorted(missing):
    print("undocumented:", entry)
if missing:
    print(f"build-docs: {len(missing)} public symbols have no doc comment", file=sys.stderr)
    sys.exit(1)
PY
fi
echo "build-docs: $output"
