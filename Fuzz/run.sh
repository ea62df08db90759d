#!/usr/bin/env bash
# Builds a fuzz target with libFuzzer and AddressSanitizer, then runs it.
#
#   Fuzz/run.sh [SECONDS]           # the JSON target; default 60 seconds
#   Fuzz/run.sh plist [SECONDS]     # the binary property-list target
#   Fuzz/run.sh xml [SECONDS]       # the XML property-list target
#   Fuzz/run.sh patch [SECONDS]     # JSON Patch, Merge Patch and differences
#   Fuzz/run.sh archive [SECONDS]   # NSKeyedArchiver archives, as values and models
#
# Tokens come from Fuzz/json.dict, Fuzz/plist.dict or Fuzz/xml.dict.
# Seeds come from Fuzz/corpus, Fuzz/corpus-plist, Fuzz/corpus-xml, Fuzz/corpus-patch or Fuzz/corpus-archive (small,
# committed); inputs that libFuzzer finds interesting go to
# .build/fuzz/corpus-NAME, and crashing inputs to .build/fuzz/crash-*.
# Reproduce a crash with: .build/fuzz/fuzz-NAME FILE
set -euo pipefail
cd "$(dirname "$0")/.."
target=json
if [ "${1:-}" = plist ] || [ "${1:-}" = xml ] || [ "${1:-}" = json ] || [ "${1:-}" = patch ] || [ "${1:-}" = archive ]; then target="$1"; shift; fi
seconds="${1:-60}"
case "$target" in
    json) entry=(Fuzz/FuzzJSON.swift); seeds=Fuzz/corpus; extra=(-dict=Fuzz/json.dict -max_len=4096) ;;
    plist) entry=(Fuzz/FuzzPropertyList.swift Fuzz/XMLLosses.swift); seeds=Fuzz/corpus-plist
        extra=(-dict=Fuzz/plist.dict -max_len=4096) ;;
    xml) entry=(Fuzz/FuzzXMLPropertyList.swift Fuzz/XMLLosses.swift); seeds=Fuzz/corpus-xml
        extra=(-dict=Fuzz/xml.dict -max_len=4096) ;;
    patch) entry=(Fuzz/FuzzPatch.swift); seeds=Fuzz/corpus-patch; extra=(-max_len=4096) ;;
    archive) entry=(Fuzz/FuzzKeyedArchive.swift); seeds=Fuzz/corpus-archive
        extra=(-dict=Fuzz/plist.dict -max_len=4096) ;;
esac
mkdir -p ".build/fuzz/corpus-$target"
sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/ModelKit -name '*.swift' | sort)
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name ModelKit \
    "${sources[@]}" "${entry[@]}" -o ".build/fuzz/fuzz-$target"
exec ".build/fuzz/fuzz-$target" ".build/fuzz/corpus-$target" "$seeds" \
    "${extra[@]}" -max_total_time="$seconds" -timeout=10 \
    -artifact_prefix=.build/fuzz/ -print_final_stats=1
