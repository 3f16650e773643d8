#!/usr/bin/env python3
"""Doc-comment coverage of RowKit's public API, per module, from Swift symbol graphs.

    swift package dump-symbol-graph --minimum-access-level public
    python3 scripts/doc_coverage.py [SYMBOLGRAPH_DIR] [--list]

Every public symbol declared in a module's sources (types, members, enum cases, functions,
extension members; not the members the compiler synthesizes) needs a doc comment of its own —
a comment inherited from a protocol requirement does not count. Prints documented / total per
module; lists the missing symbols (file:line) of the modules in STRICT, which fail the run
when any is missing. Other modules are reported only (all of them with --list). The lead
turns the check on for a module by adding it to STRICT.
"""
import glob
import json
import os
import sys

# Modules whose every public symbol must be documented (the run fails otherwise).
STRICT = ["RowKitText", "RowKitCells", "RowKitList", "RowKitListCells", "RowKitDraw", "RowKitIO", "RowKitView", "RowKitWindow"]
# The library modules checked (test and C modules are skipped).
MODULES = ["RowKitText", "RowKitCells", "RowKitList", "RowKitListCells", "RowKitDraw", "RowKitIO",
           "RowKitView", "RowKitWindow"]


def find_graph_dir(root):
    found = sorted(glob.glob(os.path.join(root, ".build", "*", "symbolgraph")))
    if not found:
        sys.exit("doc_coverage: no symbol graphs under .build/*/symbolgraph: run "
                 "`swift package dump-symbol-graph --minimum-access-level public` first")
    return found[0]


def own_comment(symbol, module):
    """True when the symbol has a non-empty doc comment written at its own declaration."""
    doc = symbol.get("docComment")
    location = symbol.get("location")
    if not doc or not location:
        return False
    if doc.get("uri", location.get("uri")) != location.get("uri") or doc.get("module", module) != module:
        return False  # inherited from a protocol requirement or an overridden declaration
    return any(line.get("text", "").strip() for line in doc.get("lines", []))


def check(graph_dir, listing):
    report = {}
    for path in sorted(glob.glob(os.path.join(graph_dir, "*.symbols.json"))):
        module = os.path.basename(path).split(".")[0].split("@")[0]
        if module not in MODULES:
            continue
        graph = json.load(open(path))
        entry = report.setdefault(module, {"total": 0, "missing": []})
        for symbol in graph["symbols"]:
            location = symbol.get("location")
            # Declared in this package's sources (synthesized members have no location).
            if not location or "/Sources/" not in location.get("uri", ""):
                continue
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            entry["total"] += 1
            if not own_comment(symbol, module):
                uri = location["uri"].split("/Sources/", 1)[1]
                line = location["position"]["line"] + 1
                name = ".".join(symbol["pathComponents"])
                entry["missing"].append(f"Sources/{uri}:{line}: {symbol['kind']['displayName'].lower()} {name}")
    failed = []
    for module in MODULES:
        if module not in report:
            print(f"{module}: no symbol graph found", file=sys.stderr)
            failed.append(module)
            continue
        entry = report[module]
        missing = sorted(set(entry["missing"]))
        documented = entry["total"] - len(missing)
        strict = module in STRICT
        mark = "checked" if strict else "reported only"
        print(f"{module}: {documented}/{entry['total']} public symbols documented ({mark})")
        if missing and (strict or listing):
            for item in missing:
                print(f"  missing: {item}")
        if missing and strict:
            failed.append(module)
    if failed:
        print(f"doc_coverage: public symbols without a doc comment in {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    graph_dir = args[0] if args else find_graph_dir(root)
    return check(graph_dir, listing)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
