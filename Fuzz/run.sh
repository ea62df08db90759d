#!/usr/bin/env bash
# Builds the JSON fuzz target with libFuzzer and AddressSanitizer, then runs it.
#
#   Fuzz/run.sh [SECONDS]      # default 60
#
# Seeds come from Fuzz/corpus (small, committed); inputs that libFuzzer finds
# interesting go to .build/fuzz/corpus, and crashing inputs to
# .build/fuzz/crash-*. Reproduce a crash with: .build/fuzz/fuzz-json FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
mkdir -p .build/fuzz/corpus
sources=()
while IFS= read -r file; do sources+=("$file"); done < <(find Sources/ModelKit -name '*.swift' | sort)
swiftc -O -g -sanitize=fuzzer,address -parse-as-library -module-name ModelKit \
    "${sources[@]}" Fuzz/FuzzJSON.swift -o .build/fuzz/fuzz-json
exec .build/fuzz/fuzz-json .build/fuzz/corpus Fuzz/corpus \
    -dict=Fuzz/json.dict -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -artifact_prefix=.build/fuzz/ -print_final_stats=1
