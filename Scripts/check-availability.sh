#!/usr/bin/env bash
# Apple availability of every symbol the Linux build of ModelKit uses
# (issue 56): fails when ModelKit or the Demo uses a declaration of the
# standard library, Foundation or Dispatch that is unavailable, obsoleted, or
# introduced above the manifest's floor on an Apple platform the manifest
# lists, without an #available guard.
#
# Usage: Scripts/check-availability.sh [--scratch-path DIR] [--no-build]
#                                      [--index-store DIR] [--include-tests]
#                                      [--verbose]
#   --scratch-path  SwiftPM's build folder (default .build), as for swift build.
#   --no-build      use the index store as the last debug build left it.
#   --index-store   read this index store instead (implies --no-build).
#   --include-tests check Tests/ too (builds them unless --no-build).
#   --verbose       also print the uses that a guard covers, and where the
#                   references the graphs do not hold point.
#
# How it works
#   1. The floor: Package.swift's `platforms:` list (.macOS(.v15), .v10_15,
#      or "15.0" forms; the tools-version line does not matter).
#   2. What the platforms offer: swift-symbolgraph-extract of the toolchain's
#      own Swift, _Concurrency, _StringProcessing, Synchronization,
#      Observation, Foundation, FoundationEssentials,
#      FoundationInternationalization, Dispatch and Testing (for the tests),
#      public symbols, no SPI (nor underscored implementation details).
#      Each symbol's `availability` (domain, introduced, deprecated,
#      obsoleted, isUnconditionallyUnavailable) is keyed by its USR. They are
#      the same declarations as on Apple platforms: swift-foundation and the
#      standard library carry their Apple @available on Linux too. The
#      extraction takes 20 to 45 s; a summary of it (USR, availability,
#      memberOf parent, protocol witnesses and refinements) is cached under
#      <scratch>/availability, keyed by the toolchain, never in git.
#      FileManager.homeDirectoryForCurrentUser, for one, is in
#      FoundationEssentials' graph as unconditionally unavailable on iOS,
#      tvOS and watchOS, with no visionOS entry (see 4).
#   3. What ModelKit uses: the debug build writes an index store (SwiftPM
#      turns -index-store-path on for debug builds on Linux; this script runs
#      `swift build --product Demo`, which builds ModelKit and the Demo, and
#      is a no-op after .ci/run's first build). The helper reads the store
#      through libIndexStore's C API with ctypes: every occurrence with the
#      reference, call, read or write role in a file under Sources/ModelKit or
#      Demo, with its USR, line, column and `receivedBy` relation. An
#      accessor's USR (getter, setter, static too) counts as its property's.
#      Units for files that no longer exist are skipped; a unit older than
#      its source file stops the check (rebuild first).
#   4. Availability of a use on each listed platform: the symbol's own
#      entries intersected with its enclosing declarations' (memberOf), as
#      Swift applies them; visionOS inherits iOS where a declaration names no
#      visionOS (as the compiler does: inheritsAvailabilityFromPlatform;
#      iOS 17/18 = visionOS 1/2, 26 = 26); `*` counts only when it
#      says unavailable; the `Swift` domain (language versions) is ignored.
#      A use fails when unavailable or obsoleted at the floor, or introduced
#      above it. A protocol extension's member called on a type (the index's
#      receivedBy, e.g. BidirectionalCollection.reversed() on
#      EnumeratedSequence) also needs that type's conformance: the graphs
#      have no conformance availability, so its lower bound is taken from the
#      newest witness the type declares for a requirement of that protocol or
#      one it refines (a witness cannot be less available than its
#      conformance; a witness no newer than its requirement is skipped).
#      Deprecation at or below the floor is a warning only.
#   5. Guards, read from the source with comments and strings blanked and
#      braces matched: an enclosing `if #available(...)` / `else if` /
#      `while` then-block; a `guard #available(...) else {...}` earlier in an
#      enclosing block; a `#available` earlier in the same condition list; an
#      `@available(...)` among the attributes of an enclosing declaration
#      (walking back over modifiers from its keyword), or of a declaration
#      with no braces on the same statement. A guard covers a platform only
#      if it names that platform with a version at least the one needed
#      (`*` covers nothing; visionOS must be named, not inferred from iOS);
#      `@available(<platform>, unavailable)` or `@available(*, unavailable)`
#      on an enclosing declaration covers everything on that platform.
#   6. #if: each `#if`/`#elseif`/`#else` condition is evaluated per platform
#      with three-valued logic (canImport(Darwin), ObjectiveC, Combine true;
#      Glibc, Musl false; os(...) exact; arch and compiler unknown; a -D flag
#      false). A use in a branch that an Apple platform definitely does not
#      compile (`#if canImport(Glibc)`, `#if !canImport(Darwin)`, the #else of
#      `#if canImport(Darwin)`, `#if os(Linux)`) is exempt on that platform.
#   7. Output: `path:line:col: error: ...` for each failing use and platform,
#      then notes (lines the check cannot see) and a summary line with the
#      counts; exit 1 on any failure, 2 when it cannot run (no python3, no
#      libIndexStore, no index store, a stale one, or a failing self-test of
#      the source reading, run first on a fixture of its own).
#
# Limits
#   - The index sees only what Linux compiles. Branches compiled only on
#     Apple platforms (`#if canImport(Darwin)` and the like) are not checked;
#     their line count is printed as a note on every run.
#   - Only the graphs' modules are checked; C declarations (Glibc/Darwin)
#     and other modules are not (the note lists missing modules).
#   - Conformances: only through a protocol member called on a receiver the
#     index records; a conformance used by a generic function's constraint
#     (e.g. passing an EnumeratedSequence where a BidirectionalCollection is
#     expected) is not seen. The bound comes from witnesses; a conformance
#     newer than all its witnesses is missed.
#   - Guards are read from text, not from the type checker: a guard that a
#     closure or a nested function inherits is honoured (as Swift does), but
#     unusual layouts (an #if between an attribute and its declaration, an
#     @available on a local `let` followed by a closure) may be misread;
#     `#unavailable` guards nothing; `#available(iOS ...)` does not count for
#     visionOS; members of an extension of an @available type are not given
#     the type's availability.
#   - Linux and Apple may resolve an overload differently: Apple's compiler
#     at an older deployment target may skip an overload whose conformance
#     is unavailable there (e.g. take Sequence.reversed() instead); the check
#     reports what Linux chose, so such a finding says "needs its
#     conformance" and is either a real diagnostic there or an overload that
#     resolves differently per platform; both are worth removing.
#
# Measured on 2026-12-07 on 2 cores shared with other builds: 26 s with a
# cold cache (71 s while a test build ran beside it), 8 to 12 s after for
# Sources and Demo, 20 to 23 s with --include-tests; the `swift build` it
# runs first is a no-op after a debug build.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build
build=1
store=
verbose=()
sources=(--sources Sources/ModelKit --sources Demo)
build_args=(--product Demo)
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --index-store) store=$2; build=0; shift 2 ;;
        --verbose) verbose=(--verbose); shift ;;
        --include-tests) sources+=(--sources Tests); build_args=(--build-tests); shift ;;
        *) echo "check-availability: unknown option $1" >&2; exit 2 ;;
    esac
done

die() { echo "check-availability: $*" >&2; exit 2; }

command -v python3 >/dev/null || die "python3 is missing; the check needs it (standard library only)."
command -v swift >/dev/null || die "swift is not on PATH."
toolchain=$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/.." && pwd)
extract=$toolchain/bin/swift-symbolgraph-extract
[ -x "$extract" ] || die "no swift-symbolgraph-extract in $toolchain/bin."
libindexstore=
for candidate in "$toolchain/lib/libIndexStore.so" "$toolchain/lib/libIndexStore.dylib"; do
    if [ -e "$candidate" ]; then libindexstore=$candidate; break; fi
done
[ -n "$libindexstore" ] || die "no libIndexStore in $toolchain/lib; the check reads the index store with it."
# The helper's reading of guards, #if and the manifest, on a fixture of its own.
python3 Scripts/check-availability.py --self-test || die "the helper's self-test failed (see above)."

if [ "$build" = 1 ]; then
    swift build --scratch-path "$scratch" "${build_args[@]}"
fi
if [ -z "$store" ]; then
    store=$(swift build --scratch-path "$scratch" --show-bin-path)/index/store
fi
[ -d "$store" ] || die "no index store at $store (a debug build writes one; build first)."

target_info=$(swift -print-target-info)
read_info() { python3 -c 'import json,sys; i=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1" <<<"$target_info"; }
triple=$(read_info 'i["target"]["triple"]')
import_args=()
while IFS= read -r path; do
    import_args+=(--import-path "$path")
done < <(read_info '"\n".join(i["paths"]["runtimeLibraryImportPaths"])')

modules=()
for m in Swift _Concurrency _StringProcessing Synchronization Observation Foundation \
         FoundationEssentials FoundationInternationalization Dispatch Testing; do
    modules+=(--module "$m")
done

exec python3 Scripts/check-availability.py \
    --package . \
    --index-store "$store" \
    --libindexstore "$libindexstore" \
    --symbolgraph-extract "$extract" \
    --target "$triple" \
    "${import_args[@]}" \
    --toolchain-version "$(swift --version 2>&1 | head -1)" \
    --cache-dir "$scratch/availability" \
    "${modules[@]}" \
    "${sources[@]}" \
    "${verbose[@]}"
