#!/usr/bin/env python3
"""The Apple-availability check's worker; Scripts/check-availability.sh runs it
and documents the method and its limits. Standard library only.

Inputs: the package's Package.swift (for the `platforms:` floor), an index
store written by the Linux build, the toolchain's libIndexStore and
swift-symbolgraph-extract. Output: one line per failing use, a summary line,
exit status 1 on any failure (2 on a usage or set-up error).
"""

import argparse
import ctypes
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

APPLE = ["macOS", "iOS", "tvOS", "watchOS", "visionOS"]
CACHE_FORMAT = 3  # bump when the cached graph summary changes shape

ROLE_DECLARATION = 1 << 0
ROLE_DEFINITION = 1 << 1
ROLE_REFERENCE = 1 << 2
ROLE_READ = 1 << 3
ROLE_WRITE = 1 << 4
ROLE_CALL = 1 << 5
ROLE_IMPLICIT = 1 << 8
REL_RECEIVEDBY = 1 << 12
DEP_RECORD = 2


def fail_setup(message):
    print(f"check-availability: {message}", file=sys.stderr)
    sys.exit(2)


# --------------------------------------------------------------------------
# Versions

def parse_version(text):
    parts = [int(p) for p in re.findall(r"\d+", text)]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts[:3])


def version_from_graph(obj):
    if obj is None:
        return None
    return (obj.get("major", 0), obj.get("minor", 0), obj.get("patch", 0))


def show_version(v, minimum_parts=2):
    parts = list(v)
    while len(parts) > minimum_parts and parts[-1] == 0:
        parts.pop()
    return ".".join(str(p) for p in parts)


def ios_to_visionos(v):
    """visionOS inherits iOS availability where a declaration names no
    visionOS version: iOS 17.x is visionOS 1.x, iOS 18.x is visionOS 2.x,
    from 26 on the numbers are the same, and anything older than iOS 17 is
    available from visionOS 1.0."""
    if v is None:
        return None
    if v[0] >= 26:
        return v
    if v[0] in (17, 18):
        return (v[0] - 16, v[1], v[2])
    return (1, 0, 0)


# --------------------------------------------------------------------------
# The manifest's floor

def read_floor(package_swift):
    text = open(package_swift, encoding="utf-8").read()
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    m = re.search(r"\bplatforms\s*:\s*\[(.*?)\]", text, flags=re.S)
    if not m:
        fail_setup(f"no `platforms:` list in {package_swift}; the check needs the manifest's floor")
    floor = {}
    for pm in re.finditer(
            r"\.(macOS|iOS|tvOS|watchOS|visionOS|macCatalyst|driverKit)\s*\(\s*"
            r"(?:\.v(\d+(?:_\d+)*)|\"([0-9.]+)\")\s*\)", m.group(1)):
        name = pm.group(1)
        raw = pm.group(2).replace("_", ".") if pm.group(2) else pm.group(3)
        if name in APPLE:
            floor[name] = (parse_version(raw), raw)
    if not floor:
        fail_setup(f"could not read any Apple platform from `platforms: [{m.group(1).strip()}]`")
    return floor


# --------------------------------------------------------------------------
# Symbol graphs: extraction (cached outside git) and a compact summary

def extract_graphs(args, cache_dir):
    import_paths = args.import_path
    modules = []
    missing = []
    for module in args.module:
        if any(os.path.exists(os.path.join(p, module + ".swiftmodule")) for p in import_paths):
            modules.append(module)
        else:
            missing.append(module)
    key_text = json.dumps([CACHE_FORMAT, args.toolchain_version, args.target, modules,
                           os.path.realpath(args.symbolgraph_extract),
                           os.stat(args.symbolgraph_extract).st_mtime,
                           [os.stat(os.path.join(p, m + ".swiftmodule")).st_mtime
                            for m in modules for p in import_paths
                            if os.path.exists(os.path.join(p, m + ".swiftmodule"))]])
    key = hashlib.sha256(key_text.encode()).hexdigest()[:16]
    summary_path = os.path.join(cache_dir, f"graphs-{key}.json")
    if os.path.exists(summary_path):
        with open(summary_path) as f:
            return json.load(f), modules, missing, True

    raw_dir = os.path.join(cache_dir, f"raw-{key}")
    jobs = []
    for module in modules:
        out = os.path.join(raw_dir, module)
        os.makedirs(out, exist_ok=True)
        cmd = [args.symbolgraph_extract, "-module-name", module, "-target", args.target,
               "-minimum-access-level", "public", "-skip-synthesized-members",
               "-module-cache-path", os.path.join(cache_dir, "module-cache"),
               "-output-dir", out]
        for p in import_paths:
            cmd += ["-I", p]
        jobs.append((module, cmd))
    running = []
    width = max(1, min(len(jobs), os.cpu_count() or 1))
    pending = list(jobs)
    errors = []
    while pending or running:
        while pending and len(running) < width:
            module, cmd = pending.pop(0)
            running.append((module, cmd, subprocess.Popen(
                cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)))
        module, cmd, proc = running.pop(0)
        out, _ = proc.communicate()
        if proc.returncode != 0:
            errors.append(f"{' '.join(cmd)}\n{out.decode(errors='replace')}")
    if errors:
        fail_setup("swift-symbolgraph-extract failed:\n" + "\n".join(errors))

    summary = summarize_graphs(raw_dir)
    tmp = summary_path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(summary, f)
    os.replace(tmp, summary_path)
    for name in os.listdir(cache_dir):  # summaries of other toolchains or module lists
        if name.startswith("graphs-") and name != os.path.basename(summary_path):
            os.remove(os.path.join(cache_dir, name))
    shutil.rmtree(raw_dir, ignore_errors=True)  # 60 MB; the summary is what later runs read
    return summary, modules, missing, False


def compact_availability(entries):
    out = {}
    for e in entries or []:
        domain = e.get("domain")
        if not domain:
            continue
        out[domain] = [
            version_from_graph(e.get("introduced")),
            version_from_graph(e.get("deprecated")),
            version_from_graph(e.get("obsoleted")),
            bool(e.get("isUnconditionallyUnavailable")),
            bool(e.get("isUnconditionallyDeprecated")),
        ]
    return out


def summarize_graphs(raw_dir):
    symbols = {}      # usr -> [title, kind, availability]
    parent = {}       # usr -> usr (memberOf)
    witnesses = {}    # type usr -> [[member usr, requirement usr]]
    requirement_of = {}  # requirement usr -> protocol usr
    refines = {}      # protocol usr -> [protocol usr]
    files = 0
    for root, _, names in os.walk(raw_dir):
        for name in sorted(names):
            if not name.endswith(".symbols.json"):
                continue
            files += 1
            with open(os.path.join(root, name)) as f:
                graph = json.load(f)
            for s in graph.get("symbols", []):
                usr = s["identifier"]["precise"]
                title = ".".join(s.get("pathComponents") or [s.get("names", {}).get("title", usr)])
                avail = compact_availability(s.get("availability"))
                old = symbols.get(usr)
                if old is None or (not old[2] and avail):
                    symbols[usr] = [title, s["kind"]["identifier"], avail]
            for r in graph.get("relationships", []):
                kind = r["kind"]
                src, tgt = r["source"], r["target"]
                if kind == "memberOf":
                    parent.setdefault(src, tgt)
                    origin = r.get("sourceOrigin")
                    if origin:
                        witnesses.setdefault(tgt, []).append([src, origin["identifier"]])
                elif kind in ("requirementOf", "optionalRequirementOf"):
                    requirement_of[src] = tgt
                elif kind in ("conformsTo", "inheritsFrom"):
                    refines.setdefault(src, [])
                    if tgt not in refines[src]:
                        refines[src].append(tgt)
    # Keep protocol refinement only (types' conformances are not needed).
    protocols = {u for u, v in symbols.items() if v[1] == "swift.protocol"}
    refines = {k: v for k, v in refines.items() if k in protocols}
    return {"files": files, "symbols": symbols, "parent": parent, "witnesses": witnesses,
            "requirementOf": requirement_of, "refines": refines}


class Graphs:
    def __init__(self, summary):
        self.symbols = summary["symbols"]
        self.parent = summary["parent"]
        self.witnesses = summary["witnesses"]
        self.requirement_of = summary["requirementOf"]
        self.refines = summary["refines"]
        self._memo = {}

    def lookup(self, usr):
        """The graph's USR for an index USR (accessors map to their
        property or subscript)."""
        if usr in self.symbols:
            return usr
        m = re.match(r"^(.*)(v|i)(g|s|M|r|x|w|W|l|a|u)(Z?)$", usr)
        if m and (m.group(1) + m.group(2) + "p" + m.group(4)) in self.symbols:
            return m.group(1) + m.group(2) + "p" + m.group(4)
        return None

    def title(self, usr):
        return self.symbols[usr][0]

    def own(self, usr, domain):
        """(introduced, deprecated, obsoleted, unavailable) that `usr`
        itself declares for `domain`, with visionOS inferred from iOS."""
        avail = self.symbols.get(usr, [None, None, {}])[2]
        star = avail.get("*")
        entry = avail.get(domain)
        unavailable = bool(star and star[3])
        if entry is None and domain == "visionOS" and "iOS" in avail:
            ios = avail["iOS"]
            entry = [ios_to_visionos(tuple(ios[0]) if ios[0] else None),
                     ios_to_visionos(tuple(ios[1]) if ios[1] else None),
                     ios_to_visionos(tuple(ios[2]) if ios[2] else None), ios[3], ios[4]]
        if entry is None:
            return None, None, None, unavailable
        tup = lambda v: tuple(v) if v else None
        return tup(entry[0]), tup(entry[1]), tup(entry[2]), unavailable or entry[3]

    def effective(self, usr, domain):
        """Availability of `usr` on `domain`, intersected with that of every
        enclosing declaration (memberOf), as Swift applies it: unavailable
        anywhere up the chain is unavailable; the latest `introduced`; the
        earliest `obsoleted` and `deprecated`. Returns (introduced, deprecated,
        obsoleted, unavailable, whose) where `whose` names the declaration
        that set the binding value."""
        key = (usr, domain)
        if key in self._memo:
            return self._memo[key]
        introduced = deprecated = obsoleted = None
        unavailable = False
        whose = {}
        seen = set()
        current = usr
        while current and current not in seen:
            seen.add(current)
            i, d, o, u = self.own(current, domain)
            if u and not unavailable:
                unavailable = True
                whose["unavailable"] = current
            if i and (introduced is None or i > introduced):
                introduced = i
                whose["introduced"] = current
            if d and (deprecated is None or d < deprecated):
                deprecated = d
                whose["deprecated"] = current
            if o and (obsoleted is None or o < obsoleted):
                obsoleted = o
                whose["obsoleted"] = current
            current = self.parent.get(current)
        result = (introduced, deprecated, obsoleted, unavailable, whose)
        self._memo[key] = result
        return result

    def protocol_closure(self, proto):
        out, todo = set(), [proto]
        while todo:
            p = todo.pop()
            if p in out:
                continue
            out.add(p)
            todo.extend(self.refines.get(p, []))
        return out

    def conformance(self, type_usr, proto, domain):
        """A lower bound on the availability of `type_usr`'s conformance to
        `proto` on `domain`: a witness cannot be less available than the
        conformance it serves, so the conformance is no older than the
        newest witness the type declares for a requirement of `proto` or of a
        protocol it refines. A witness only as new as its requirement (a
        requirement added to the protocol later) says nothing about the
        conformance and is skipped. Returns (introduced, unavailable, witness
        usr)."""
        protos = self.protocol_closure(proto)
        introduced, unavailable, which = None, False, None
        for member, requirement in self.witnesses.get(type_usr, []):
            if self.requirement_of.get(requirement) not in protos:
                continue
            i, _, _, u, _ = self.effective(member, domain)
            ri, _, _, ru, _ = self.effective(requirement, domain)
            if ru or (i and ri and i <= ri):
                continue
            if u and not unavailable:
                unavailable, which = True, member
            if i and (introduced is None or i > introduced):
                introduced = i
                if not unavailable:
                    which = member
        return introduced, unavailable, which


# --------------------------------------------------------------------------
# The index store, through libIndexStore's C API

class IndexStore:
    def __init__(self, lib_path, store_path):
        try:
            lib = ctypes.CDLL(lib_path)
        except OSError as e:
            fail_setup(f"cannot load libIndexStore at {lib_path}: {e}")
        self.lib = lib

        class StringRef(ctypes.Structure):
            _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]
        self.StringRef = StringRef
        P = ctypes.c_void_p
        self.NameApplier = ctypes.CFUNCTYPE(ctypes.c_bool, P, StringRef)
        self.Applier = ctypes.CFUNCTYPE(ctypes.c_bool, P, P)

        def fn(name, restype, *argtypes):
            f = getattr(lib, name)
            f.restype = restype
            f.argtypes = list(argtypes)
            return f
        perr = ctypes.POINTER(P)
        self.error_description = fn("indexstore_error_get_description", ctypes.c_char_p, P)
        self.store_create = fn("indexstore_store_create", P, ctypes.c_char_p, perr)
        self.units_apply = fn("indexstore_store_units_apply_f", ctypes.c_bool, P, ctypes.c_uint, P, self.NameApplier)
        self.unit_create = fn("indexstore_unit_reader_create", P, P, ctypes.c_char_p, perr)
        self.unit_dispose = fn("indexstore_unit_reader_dispose", None, P)
        self.unit_is_system = fn("indexstore_unit_reader_is_system_unit", ctypes.c_bool, P)
        self.unit_main_file = fn("indexstore_unit_reader_get_main_file", StringRef, P)
        self.unit_module = fn("indexstore_unit_reader_get_module_name", StringRef, P)
        self.unit_mtime = fn("indexstore_unit_reader_get_modification_time", None, P,
                             ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int64))
        self.unit_deps_apply = fn("indexstore_unit_reader_dependencies_apply_f", ctypes.c_bool, P, P, self.Applier)
        self.dep_kind = fn("indexstore_unit_dependency_get_kind", ctypes.c_int, P)
        self.dep_filepath = fn("indexstore_unit_dependency_get_filepath", StringRef, P)
        self.dep_name = fn("indexstore_unit_dependency_get_name", StringRef, P)
        self.record_create = fn("indexstore_record_reader_create", P, P, ctypes.c_char_p, perr)
        self.record_dispose = fn("indexstore_record_reader_dispose", None, P)
        self.occurrences_apply = fn("indexstore_record_reader_occurrences_apply_f", ctypes.c_bool, P, P, self.Applier)
        self.occ_symbol = fn("indexstore_occurrence_get_symbol", P, P)
        self.occ_roles = fn("indexstore_occurrence_get_roles", ctypes.c_uint64, P)
        self.occ_line_col = fn("indexstore_occurrence_get_line_col", None, P,
                               ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint))
        self.occ_relations_apply = fn("indexstore_occurrence_relations_apply_f", ctypes.c_bool, P, P, self.Applier)
        self.rel_roles = fn("indexstore_symbol_relation_get_roles", ctypes.c_uint64, P)
        self.rel_symbol = fn("indexstore_symbol_relation_get_symbol", P, P)
        self.sym_usr = fn("indexstore_symbol_get_usr", StringRef, P)
        self.sym_name = fn("indexstore_symbol_get_name", StringRef, P)

        err = P()
        self.store = self.store_create(store_path.encode(), ctypes.byref(err))
        if not self.store:
            fail_setup(f"cannot open the index store {store_path}: {self.describe(err)}")

    def describe(self, err):
        if not err:
            return "unknown error"
        d = self.error_description(err)
        return d.decode(errors="replace") if d else "unknown error"

    @staticmethod
    def text(ref):
        return ctypes.string_at(ref.data, ref.length).decode(errors="replace") if ref.data else ""

    def unit_names(self):
        names = []
        cb = self.NameApplier(lambda ctx, name: (names.append(self.text(name)), True)[1])
        self.units_apply(self.store, 0, None, cb)
        return names

    def references(self, wanted_file):
        """Yield (file, unit mtime, [occurrence]) for each non-system unit
        whose main file `wanted_file(path)` accepts; an occurrence is
        (usr, name, roles, line, column, [receiver usr])."""
        P = ctypes.c_void_p
        for unit_name in self.unit_names():
            err = P()
            unit = self.unit_create(self.store, unit_name.encode(), ctypes.byref(err))
            if not unit:
                fail_setup(f"cannot read index unit {unit_name}: {self.describe(err)}")
            try:
                if self.unit_is_system(unit):
                    continue
                main_file = self.text(self.unit_main_file(unit))
                if not wanted_file(main_file):
                    continue
                sec, nsec = ctypes.c_int64(), ctypes.c_int64()
                self.unit_mtime(unit, ctypes.byref(sec), ctypes.byref(nsec))
                records = []

                def on_dep(ctx, dep):
                    if self.dep_kind(dep) == DEP_RECORD:
                        records.append((self.text(self.dep_filepath(dep)), self.text(self.dep_name(dep))))
                    return True
                dep_cb = self.Applier(on_dep)
                self.unit_deps_apply(unit, None, dep_cb)
            finally:
                self.unit_dispose(unit)
            for path, record_name in records:
                if not wanted_file(path):
                    continue
                yield path, sec.value + nsec.value / 1e9, self.read_record(record_name)

    def read_record(self, record_name):
        P = ctypes.c_void_p
        err = P()
        reader = self.record_create(self.store, record_name.encode(), ctypes.byref(err))
        if not reader:
            fail_setup(f"cannot read index record {record_name}: {self.describe(err)}")
        found = []
        line, col = ctypes.c_uint(), ctypes.c_uint()
        wanted_roles = ROLE_REFERENCE | ROLE_CALL | ROLE_READ | ROLE_WRITE

        def on_occurrence(ctx, occ):
            roles = self.occ_roles(occ)
            if not roles & wanted_roles or roles & (ROLE_DECLARATION | ROLE_DEFINITION):
                return True
            sym = self.occ_symbol(occ)
            self.occ_line_col(occ, ctypes.byref(line), ctypes.byref(col))
            receivers = []

            def on_relation(ctx2, rel):
                if self.rel_roles(rel) & REL_RECEIVEDBY:
                    receivers.append(self.text(self.sym_usr(self.rel_symbol(rel))))
                return True
            rel_cb = self.Applier(on_relation)
            self.occ_relations_apply(occ, None, rel_cb)
            found.append((self.text(self.sym_usr(sym)), self.text(self.sym_name(sym)),
                          roles, line.value, col.value, receivers))
            return True
        occ_cb = self.Applier(on_occurrence)
        try:
            self.occurrences_apply(reader, None, occ_cb)
        finally:
            self.record_dispose(reader)
        return found


# --------------------------------------------------------------------------
# Source text: comments and string literals blanked, byte offsets kept

def blank_source(data):
    """`data` decoded as Latin-1 (one character per byte, so offsets are the
    index's UTF-8 columns). Comments and the contents of string literals
    (interpolations included) become spaces; newlines stay."""
    out = list(data)
    n = len(data)

    def wipe(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    def skip_code(i, closer):
        # From inside an interpolation `\(`: to just past its `)`.
        depth = 0
        while i < n:
            c = data[i]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return i + 1
                depth -= 1
            elif c == '"' or (c == "#" and re.match(r"#+\"", data[i:i + 8])):
                i = skip_string(i)
                continue
            elif data.startswith("//", i):
                j = data.find("\n", i)
                i = n if j < 0 else j
                continue
            elif data.startswith("/*", i):
                i = skip_block_comment(i)
                continue
            i += 1
        return n

    def skip_block_comment(i):
        depth = 0
        while i < n:
            if data.startswith("/*", i):
                depth += 1
                i += 2
            elif data.startswith("*/", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        return n

    def skip_string(i):
        hashes = 0
        while i < n and data[i] == "#":
            hashes += 1
            i += 1
        multi = data.startswith('"""', i)
        i += 3 if multi else 1
        close = ('"""' if multi else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if data.startswith(escape, i):
                j = i + len(escape)
                if j < n and data[j] == "(":
                    i = skip_code(j + 1, ")")
                else:
                    i = j + 1
                continue
            if data.startswith(close, i):
                return i + len(close)
            if not multi and data[i] == "\n":
                return i  # unterminated: stop at the line end
            i += 1
        return n

    i = 0
    while i < n:
        c = data[i]
        if data.startswith("//", i):
            j = data.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif data.startswith("/*", i):
            j = skip_block_comment(i)
            wipe(i, j)
            i = j
        elif c == '"' or (c == "#" and re.match(r"#+\"", data[i:i + 8])):
            j = skip_string(i)
            # keep the delimiters' first character so `"` still separates tokens
            wipe(i + 1, j)
            i = j
        else:
            i += 1
    return "".join(out)


# --------------------------------------------------------------------------
# #if structure, evaluated per platform with three-valued logic

class Conditions:
    def __init__(self, linux_arch, compiler_version):
        self.linux_arch = linux_arch
        self.compiler = compiler_version

    APPLE_MODULES = {"Darwin", "ObjectiveC", "Foundation", "Dispatch", "Combine", "os",
                     "CoreFoundation", "Synchronization", "Observation", "Security",
                     "CryptoKit", "SwiftUI", "Network"}
    NOT_APPLE = {"Glibc", "Musl", "WinSDK", "Android", "Bionic", "WASILibc", "ucrt", "CRT"}
    LINUX_MODULES = {"Glibc", "Foundation", "Dispatch", "FoundationEssentials",
                     "FoundationInternationalization", "FoundationNetworking", "FoundationXML",
                     "Synchronization", "Observation", "SwiftGlibc"}
    NOT_LINUX = {"Darwin", "ObjectiveC", "Combine", "UIKit", "AppKit", "WatchKit", "SwiftUI",
                 "os", "CoreFoundation", "Musl", "WinSDK", "Android", "Bionic", "WASILibc"}

    def atom(self, name, arg, env):
        arg = arg.strip()
        if name == "canImport":
            module = arg.split(",")[0].strip()
            if env == "linux":
                return True if module in self.LINUX_MODULES else False if module in self.NOT_LINUX else None
            if module in self.APPLE_MODULES:
                return True
            if module in self.NOT_APPLE:
                return False
            if module == "AppKit":
                return env == "macOS"
            if module == "UIKit":
                return True if env in ("iOS", "tvOS", "visionOS") else (False if env == "macOS" else None)
            return None
        if name == "os":
            if env == "linux":
                return arg == "Linux"
            return arg == env or (arg == "xrOS" and env == "visionOS")
        if name == "arch":
            if env == "linux":
                return arg == self.linux_arch
            return None if arg in ("arm64", "x86_64", "arm64_32", "i386", "arm", "arm64e") else False
        if name == "_endian":
            return arg == "little"
        if name == "_pointerBitWidth":
            if env == "watchOS":
                return None
            return arg == "_64"
        if name == "targetEnvironment":
            return False if env == "linux" else None
        if name in ("compiler", "swift"):
            if env != "linux" or self.compiler is None:
                return None
            m = re.match(r"\s*(>=|<)\s*([\d.]+)", arg)
            if not m:
                return None
            ok = self.compiler >= parse_version(m.group(2))
            return ok if m.group(1) == ">=" else not ok
        return None  # hasFeature, hasAttribute, ... : unknown

    def evaluate(self, text, env):
        tokens = re.findall(r"&&|\|\||!|\(|\)|[A-Za-z_$][A-Za-z0-9_$]*\s*\([^()]*\)|[A-Za-z_$][A-Za-z0-9_$]*", text)
        pos = [0]

        def peek():
            return tokens[pos[0]] if pos[0] < len(tokens) else None

        def take():
            t = peek()
            pos[0] += 1
            return t

        def primary():
            t = take()
            if t is None:
                return None
            if t == "!":
                v = primary()
                return None if v is None else not v
            if t == "(":
                v = disjunction()
                if peek() == ")":
                    take()
                return v
            m = re.match(r"([A-Za-z_$][A-Za-z0-9_$]*)\s*\((.*)\)$", t)
            if m:
                return self.atom(m.group(1), m.group(2), env)
            if t == "true":
                return True
            if t == "false":
                return False
            if t == "DEBUG":
                return True if env == "linux" else None
            return False  # a -D flag this package does not define

        def conjunction():
            v = primary()
            while peek() == "&&":
                take()
                w = primary()
                v = False if (v is False or w is False) else (None if (v is None or w is None) else True)
            return v

        def disjunction():
            v = conjunction()
            while peek() == "||":
                take()
                w = conjunction()
                v = True if (v is True or w is True) else (None if (v is None or w is None) else False)
            return v

        return disjunction()


def kleene_and(a, b):
    if a is False or b is False:
        return False
    if a is None or b is None:
        return None
    return True


def kleene_not(a):
    return None if a is None else not a


def conditional_activity(blanked, conditions, envs):
    """For each line (1-based), whether it is compiled in each env: True,
    False, or None (unknown). Directive lines themselves are marked False."""
    lines = blanked.split("\n")
    activity = {env: [True] * (len(lines) + 2) for env in envs}
    stack = []  # frames: {env: (branch active, some earlier branch true)}
    for number, line in enumerate(lines, start=1):
        s = line.strip()
        m = re.match(r"#(if|elseif|else|endif)\b(.*)", s)
        if m:
            kind, rest = m.group(1), m.group(2)
            if kind == "if":
                frame = {}
                for env in envs:
                    c = conditions.evaluate(rest, env)
                    frame[env] = (c, c)
                stack.append(frame)
            elif kind in ("elseif", "else") and stack:
                frame = stack[-1]
                for env in envs:
                    _, earlier = frame[env]
                    c = True if kind == "else" else conditions.evaluate(rest, env)
                    active = kleene_and(c, kleene_not(earlier))
                    earlier = True if (earlier is True or c is True) else (None if (earlier is None or c is None) else False)
                    frame[env] = (active, earlier)
            elif kind == "endif" and stack:
                stack.pop()
            for env in envs:
                activity[env][number] = False
            continue
        for env in envs:
            v = True
            for frame in stack:
                v = kleene_and(v, frame[env][0])
            activity[env][number] = v
    return activity


# --------------------------------------------------------------------------
# Guards in the source: #available and @available

AVAIL_RE = re.compile(r"([#@])(available|unavailable)\s*\(")
DECL_KEYWORDS = {"func", "init", "deinit", "subscript", "var", "let", "struct", "class", "enum",
                 "extension", "actor", "protocol", "typealias", "case", "macro", "get", "set",
                 "willSet", "didSet", "_modify", "_read", "modify", "read"}
MODIFIERS = {"public", "private", "fileprivate", "internal", "package", "open", "static", "class",
             "final", "override", "mutating", "nonmutating", "nonisolated", "lazy", "weak",
             "unowned", "dynamic", "optional", "required", "convenience", "indirect", "consuming",
             "borrowing", "isolated", "distributed", "prefix", "postfix", "infix", "async"}


def match_paren(text, open_index):
    depth = 0
    for k in range(open_index, len(text)):
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    return -1


def parse_spec(body, sigil):
    """The platforms an availability spec names: {platform: version} for a
    version, {platform: 'unavailable'} for an unavailability ('*' included)."""
    items = [p.strip() for p in body.split(",")]
    out = {}
    if sigil == "@" and items and re.fullmatch(r"[A-Za-z*]+", items[0] or "") and len(items) > 1 \
            and re.match(r"(introduced|deprecated|obsoleted|unavailable|message|renamed|noasync)\b", items[1]):
        platform = items[0]
        for item in items[1:]:
            if item == "unavailable":
                out[platform] = "unavailable"
            m = re.match(r"introduced\s*:\s*([\d.]+)", item)
            if m:
                out[platform] = parse_version(m.group(1))
        return out
    for item in items:
        m = re.fullmatch(r"([A-Za-z]+)\s+([\d.]+)", item)
        if m:
            out[m.group(1)] = parse_version(m.group(2))
    return out


class SourceFile:
    def __init__(self, path, envs, conditions):
        with open(path, "rb") as f:
            self.data = f.read().decode("latin-1")
        self.blank = blank_source(self.data)
        self.line_starts = [0]
        for k, c in enumerate(self.data):
            if c == "\n":
                self.line_starts.append(k + 1)
        self.activity = conditional_activity(self.blank, conditions, envs)
        self.pairs = []   # (open, close) of every brace pair
        self.parent_pair = {}
        stack = []
        for k, c in enumerate(self.blank):
            if c == "{":
                stack.append(k)
            elif c == "}" and stack:
                o = stack.pop()
                self.pairs.append((o, k))
        self.pairs.sort()
        self.specs = []   # (sigil, start, end, spec)
        for m in AVAIL_RE.finditer(self.blank):
            close = match_paren(self.blank, m.end() - 1)
            if close < 0:
                continue
            spec = parse_spec(self.blank[m.end():close], m.group(1))
            if m.group(2) == "unavailable":  # #unavailable(...): the else side is guarded
                spec = {"#unavailable": spec}
            self.specs.append((m.group(1), m.start(), close + 1, spec))

    def offset(self, line, column):
        return self.line_starts[line - 1] + column - 1

    def enclosing_pairs(self, offset):
        pairs = [p for p in self.pairs if p[0] < offset <= p[1]]
        pairs.sort(key=lambda p: -p[0])
        return pairs

    def boundary_before(self, index):
        """Start of the statement that ends at `index`: just past the nearest
        `{`, `}` or `;` outside any (...) or [...] that closes before it."""
        depth = 0
        k = index - 1
        while k >= 0:
            c = self.blank[k]
            if c in ")]":
                depth += 1
            elif c in "([":
                if depth > 0:
                    depth -= 1
            elif depth == 0 and c in "{};":
                return k + 1
            k -= 1
        return 0

    def specs_between(self, start, end, sigil):
        return [s for s in self.specs if s[0] == sigil and start <= s[1] and s[2] <= end]

    def guards(self, offset):
        """Every availability spec that guards `offset`, with how it does:
        [(description, spec)]."""
        found = []
        # 1. Inside the condition list of an if/guard/while, after #available.
        start = self.boundary_before(offset)
        prefix = self.blank[start:offset]
        if re.search(r"\b(if|guard|while)\b", prefix):
            for s in self.specs_between(start, offset, "#"):
                found.append(("#available in the same condition", s[3]))
        for o, c in self.enclosing_pairs(offset):
            hstart = self.boundary_before(o)
            header = self.blank[hstart:o]
            # 2. The then-block of `if #available(...)` (also `else if`).
            ifs = [m for m in re.finditer(r"\b(if|while)\b", header)]
            if ifs:
                last_if = ifs[-1].start()
                for s in self.specs_between(hstart + last_if, o, "#"):
                    found.append(("if #available", s[3]))
            # 3. A declaration whose attributes include @available.
            for s in self.declaration_attributes(hstart, o):
                found.append(("@available on the declaration", s[3]))
            # 4. `guard #available(...) else {...}` earlier in this block.
            found += self.guard_statements(o + 1, offset)
        found += self.guard_statements(0, offset, top=True)
        # 5. A declaration without braces: `@available(...) let x = ...`.
        for s in self.declaration_attributes(start, offset):
            found.append(("@available on the declaration", s[3]))
        return found

    def guard_statements(self, block_start, offset, top=False):
        found = []
        for m in re.finditer(r"\bguard\b", self.blank[block_start:offset]):
            p = block_start + m.start()
            inner = self.enclosing_pairs(p + 1)
            inner_start = inner[0][0] + 1 if inner else 0
            if inner_start != (0 if top else block_start):
                continue  # nested deeper than this block
            e = re.compile(r"\belse\b").search(self.blank, p)
            if not e or e.start() > offset:
                continue
            # The use must come after the guard's else block, not inside it.
            brace = self.blank.find("{", e.end())
            block = next((pair for pair in self.pairs if pair[0] == brace), None)
            if block is None or block[1] >= offset:
                continue
            for s in self.specs_between(p, e.start(), "#"):
                found.append(("guard #available", s[3]))
        return found

    def declaration_attributes(self, start, end):
        """The @available attributes of the declaration that the text
        [start, end) introduces: found by taking its last declaration
        keyword and walking back over modifiers and attributes."""
        text = self.blank
        keyword = None
        for m in re.finditer(r"\b[A-Za-z_]+\b", text[start:end]):
            word = m.group(0)
            if word in DECL_KEYWORDS:
                # skip words inside parentheses (parameter lists, etc.)
                if text[start:start + m.start()].count("(") == text[start:start + m.start()].count(")"):
                    keyword = start + m.start()
        if keyword is None:
            return []
        attrs = []
        k = keyword
        while True:
            j = k - 1
            while j >= start and text[j].isspace():
                j -= 1
            if j < start:
                break
            if text[j] == ")":
                depth, q = 0, j
                while q >= start:
                    if text[q] == ")":
                        depth += 1
                    elif text[q] == "(":
                        depth -= 1
                        if depth == 0:
                            break
                    q -= 1
                if q < start:
                    break
                w = re.search(r"(@?[A-Za-z_][A-Za-z0-9_]*)\s*$", text[start:q])
                if not w:
                    break
                word_start = start + w.start(1)
                word = w.group(1)
                if word.startswith("@"):
                    attrs += [s for s in self.specs if s[0] == "@" and s[1] == word_start]
                elif word not in MODIFIERS:
                    break
                k = word_start
                continue
            w = re.search(r"(@?[A-Za-z_][A-Za-z0-9_.]*)$", text[start:j + 1])
            if not w:
                break
            word = w.group(1)
            if not (word.startswith("@") or word in MODIFIERS):
                break
            k = start + w.start(1)
        return attrs


def covers(spec, platform, needed):
    """Whether one guard spec covers a use needing `needed` on `platform`
    (needed = a version, or 'unavailable')."""
    if "#unavailable" in spec:
        return False
    if spec.get("*") == "unavailable" or spec.get(platform) == "unavailable":
        return True  # the enclosing declaration is itself unavailable there
    if needed == "unavailable":
        return False
    v = spec.get(platform)
    return isinstance(v, tuple) and v >= needed



# --------------------------------------------------------------------------
# A self-test of the source reading, run before every check (milliseconds)

SELF_TEST_SOURCE = """import Foundation
let s = "a { \\(x.map { "}" }) {"  // } {
/* { /* } */ { */
let r = #"raw " { "#
let m = \"\"\"
  { "quoted" \\(f("}"))
  \"\"\"
struct S {
    @available(macOS 26, *) var a: Int = 0
    func f() {
        guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
            INSIDE_ELSE()
            return
        }
        AFTER_GUARD()
    }
    func g() {
        NOT_COVERED()
        if #available(macOS 26, *), let v = SAME_COND() {
            THEN()
        } else {
            ELSE()
        }
    }
    @available(macOS, introduced: 26.0)
    @available(iOS, unavailable)
    public static func h() -> Int { H_BODY() }
}
#if canImport(Darwin)
DARWIN()
#elseif canImport(Glibc)
GLIBC()
#else
OTHER()
#endif
#if !canImport(Darwin) || os(Linux)
NOT_DARWIN()
#endif
"""

# name: (covered on macOS at 26, covered on iOS for an unavailable symbol,
#        compiled on linux, on macOS)
SELF_TEST_EXPECTED = {
    "INSIDE_ELSE": (False, False, True, True),
    "AFTER_GUARD": (True, False, True, True),
    "NOT_COVERED": (False, False, True, True),
    "SAME_COND": (True, False, True, True),
    "THEN": (True, False, True, True),
    "ELSE": (False, False, True, True),
    "H_BODY": (True, True, True, True),
    "DARWIN": (False, False, False, True),
    "GLIBC": (False, False, True, False),
    "OTHER": (False, False, False, False),
    "NOT_DARWIN": (False, False, True, False),
}


def self_test():
    import tempfile
    problems = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "Fixture.swift")
        with open(path, "w") as f:
            f.write(SELF_TEST_SOURCE)
        src = SourceFile(path, ["linux", "macOS", "iOS"], Conditions("x86_64", (6, 3, 1)))
        if len(src.pairs) != 7:
            problems.append(f"brace pairs: {len(src.pairs)}, expected 7 (strings or comments misread)")
        for name, expected in SELF_TEST_EXPECTED.items():
            offset = SELF_TEST_SOURCE.index(name + "(")
            line = SELF_TEST_SOURCE[:offset].count("\n") + 1
            guards = src.guards(offset)
            got = (any(covers(g, "macOS", (26, 0, 0)) for _, g in guards),
                   any(covers(g, "iOS", "unavailable") for _, g in guards),
                   src.activity["linux"][line], src.activity["macOS"][line])
            if got != expected:
                problems.append(f"{name}: {got}, expected {expected}")
        with open(os.path.join(d, "Package.swift"), "w") as f:
            f.write('// swift-tools-version: 6.2\nlet p = Package(name: "X",\n  platforms: [\n'
                    '    .macOS(.v10_15), // old\n    .iOS("18.0"), .visionOS(.v2)\n  ])\n')
        floor = read_floor(os.path.join(d, "Package.swift"))
        if {k: v[0] for k, v in floor.items()} != {"macOS": (10, 15, 0), "iOS": (18, 0, 0),
                                                   "visionOS": (2, 0, 0)}:
            problems.append(f"floor: {floor}")
    if [ios_to_visionos(v) for v in [(16, 4, 0), (17, 2, 0), (18, 0, 0), (26, 0, 0)]] != \
            [(1, 0, 0), (1, 2, 0), (2, 0, 0), (26, 0, 0)]:
        problems.append("iOS to visionOS mapping")
    for p in problems:
        print(f"check-availability: self-test: {p}", file=sys.stderr)
    return 1 if problems else 0

# --------------------------------------------------------------------------

def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--package", required=True)
    ap.add_argument("--index-store", required=True)
    ap.add_argument("--libindexstore", required=True)
    ap.add_argument("--symbolgraph-extract", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("--import-path", action="append", required=True)
    ap.add_argument("--toolchain-version", required=True)
    ap.add_argument("--cache-dir", required=True)
    ap.add_argument("--module", action="append", required=True)
    ap.add_argument("--sources", action="append", required=True,
                    help="folders, relative to the package, whose files are checked")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()

    started = time.monotonic()
    root = os.path.realpath(args.package)
    floor = read_floor(os.path.join(root, "Package.swift"))
    platforms = [p for p in APPLE if p in floor]
    os.makedirs(args.cache_dir, exist_ok=True)

    summary, modules, missing, cached = extract_graphs(args, args.cache_dir)
    graphs = Graphs(summary)
    t_graphs = time.monotonic()

    source_roots = [os.path.join(root, s).rstrip("/") + "/" for s in args.sources]

    def wanted(path):
        return any(os.path.realpath(path).startswith(r) or path.startswith(r) for r in source_roots)

    store = IndexStore(args.libindexstore, args.index_store)
    occurrences = {}   # (file, line, col, usr) -> occurrence
    stale = []
    files_seen = set()
    for path, unit_time, found in store.references(wanted):
        if not os.path.exists(path):
            continue  # a unit for a file since deleted or moved
        if os.stat(path).st_mtime > unit_time + 1:
            stale.append(path)
        files_seen.add(path)
        for usr, name, roles, line, col, receivers in found:
            # An accessor and its property at one place are one use.
            key = (path, line, col, graphs.lookup(usr) or usr)
            old = occurrences.get(key)
            occurrences[key] = (name, roles, receivers + (old[2] if old else []))
    if not files_seen:
        fail_setup(f"the index store {args.index_store} has no units for {', '.join(args.sources)}; "
                   "was the package built in debug with the index store on?")
    if stale:
        fail_setup("the index store is older than these sources; rebuild first:\n  " +
                   "\n  ".join(sorted(set(stale))))

    m = re.search(r"Swift version (\d+(?:\.\d+)*)", args.toolchain_version)
    conditions = Conditions(args.target.split("-")[0], parse_version(m.group(1)) if m else None)
    envs = ["linux"] + platforms
    sources = {}

    def source(path):
        if path not in sources:
            sources[path] = SourceFile(path, envs, conditions)
        return sources[path]

    errors, warnings = [], []
    checked = 0
    outside = {}
    for (path, line, col, usr), (name, roles, receivers) in sorted(occurrences.items()):
        g = graphs.lookup(usr)
        if g is None:
            mm = re.match(r"s:(\d+)([A-Za-z_][A-Za-z0-9_]*)", usr)
            owner = ("c" if usr.startswith("c:") else
                     mm.group(2)[:int(mm.group(1))] if mm else "other")
            outside[owner] = outside.get(owner, 0) + 1
            continue
        checked += 1
        rel = os.path.relpath(path, root)
        title = graphs.title(g)
        problems = []  # (platform, needed, message)
        for p in platforms:
            fv, fraw = floor[p]
            introduced, deprecated, obsoleted, unavailable, whose = graphs.effective(g, p)
            via = ""
            if unavailable:
                w = whose.get("unavailable")
                via = f" (through {graphs.title(w)})" if w and w != g else ""
                problems.append((p, "unavailable",
                                 f"'{title}' is unavailable on {p}{via} (the manifest supports {p} {fraw})"))
                continue
            if obsoleted and obsoleted <= fv:
                problems.append((p, "unavailable",
                                 f"'{title}' is obsoleted in {p} {show_version(obsoleted)}, "
                                 f"at or below the manifest's {p} {fraw} floor"))
                continue
            if introduced and introduced > fv:
                w = whose.get("introduced")
                via = f" (through {graphs.title(w)})" if w and w != g else ""
                problems.append((p, introduced,
                                 f"'{title}' is introduced in {p} {show_version(introduced)}{via}, "
                                 f"above the manifest's {p} {fraw} floor"))
                continue
            # A protocol's member reached through a type's conformance.
            owner = graphs.parent.get(g)
            if owner and graphs.symbols.get(owner, [None, None])[1] == "swift.protocol":
                for receiver in receivers:
                    if receiver == owner or receiver not in graphs.symbols:
                        continue
                    ci, cu, witness = graphs.conformance(receiver, owner, p)
                    ti, _, _, tu, _ = graphs.effective(receiver, p)
                    rname, pname = graphs.title(receiver), graphs.title(owner)
                    wname = graphs.title(witness) if witness else ""
                    if cu or tu:
                        problems.append((p, "unavailable",
                                         f"'{title}' on {rname} needs its conformance to {pname}, "
                                         f"unavailable on {p} ({wname} is) (the manifest supports {p} {fraw})"))
                        break
                    need = max(v for v in (ci, ti, (0, 0, 0)) if v)
                    if need > fv:
                        problems.append((p, need,
                                         f"'{title}' on {rname} needs its conformance to {pname}, "
                                         f"introduced in {p} {show_version(need)} or later ({wname} is), "
                                         f"above the manifest's {p} {fraw} floor"))
                        break
            if deprecated and deprecated <= fv:
                warnings.append(f"{rel}:{line}:{col}: warning: '{title}' is deprecated in "
                                f"{p} {show_version(deprecated)}, at or below the manifest's {p} {fraw} floor")
        if not problems:
            continue
        src = source(path)
        offset = src.offset(line, col)
        guards = None
        for p, needed, message in problems:
            if src.activity[p][line] is False:
                continue  # an #if branch that Apple platform does not compile
            if guards is None:
                guards = src.guards(offset)
            covering = [how for how, spec in guards if covers(spec, p, needed)]
            if covering:
                if args.verbose:
                    print(f"{rel}:{line}:{col}: note: guarded on {p} ({covering[0]}): {message}")
                continue
            if needed != "unavailable":
                message += ", with no #available guard"
            errors.append(f"{rel}:{line}:{col}: error: {message}")

    # What the index cannot see: lines compiled on an Apple platform only.
    invisible = {}
    for base in source_roots:
        for dirpath, _, names in os.walk(base):
            for name in names:
                if not name.endswith(".swift"):
                    continue
                src = source(os.path.join(dirpath, name))
                count = 0
                for k, text in enumerate(src.blank.split("\n"), start=1):
                    if not text.strip():
                        continue
                    if src.activity["linux"][k] is False and \
                            any(src.activity[p][k] is not False for p in platforms) and \
                            not text.strip().startswith("#"):
                        count += 1
                if count:
                    invisible[os.path.relpath(src_path(dirpath, name), root)] = count

    for w in sorted(set(warnings)):
        print(w)
    for e in errors:
        print(e)
    total_invisible = sum(invisible.values())
    if invisible:
        print(f"note: {total_invisible} lines in {len(invisible)} files sit in #if branches that "
              f"Apple platforms compile and Linux does not (canImport(Darwin) and the like); "
              f"the index never sees them, so this check cannot:")
        for f, n in sorted(invisible.items()):
            print(f"note:   {f}: {n} lines")
    if missing:
        print(f"note: modules not in this toolchain, so not read: {', '.join(missing)}")
    if args.verbose and outside:
        print("note: references to symbols outside the graphs, by module: " +
              ", ".join(f"{k} {v}" for k, v in sorted(outside.items(), key=lambda kv: -kv[1])))
    floor_text = ", ".join(f"{p} {floor[p][1]}" for p in platforms)
    print(f"check-availability: {len(graphs.symbols)} symbols read from {summary['files']} symbol graphs "
          f"({', '.join(modules)}{'; cached' if cached else ''}); "
          f"{checked} references checked in {len(files_seen)} files "
          f"({sum(outside.values())} more to symbols outside the graphs, ModelKit's own among them); "
          f"floor {floor_text}; {len(errors)} failures, {len(set(warnings))} deprecation warnings, "
          f"{total_invisible} lines not visible to the check; "
          f"{time.monotonic() - started:.1f} s ({t_graphs - started:.1f} s graphs)")
    return 1 if errors else 0


def src_path(dirpath, name):
    return os.path.join(dirpath, name)


if __name__ == "__main__":
    sys.exit(main())
