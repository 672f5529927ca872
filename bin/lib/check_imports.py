"""Every module imports only what Package.swift declares it depends on (bin/test runs this).

SwiftPM's own check (swift build --explicit-target-dependency-import-check error, which
bin/test's build also passes) covers the package's own targets, and only those compiled in
that build; a module that imports a product of another package it did not declare (NIOCore
reached through Hummingbird) builds, until the package that brought it in changes. This reads
`swift package dump-package` and every target's sources, and names each import no
dependency of its target declares. System modules (Foundation, Glibc, ...) need no
declaration. Exits 1 when one does not hold.
"""

import json
import os
import re
import subprocess
import sys

SYSTEM = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Darwin", "Musl", "Dispatch",
          "Synchronization", "Testing", "XCTest", "_Concurrency", "CoreFoundation", "os"}
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)*import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def target_path(target):
    if target.get("path"):
        return target["path"]
    return os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])


def declared(target):
    names = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                names.add(dependency[kind][0])
    return names


def main():
    package = json.loads(subprocess.run(["swift", "package", "dump-package"], capture_output=True, text=True, check=True).stdout)
    problems = []
    for target in package["targets"]:
        if target["type"] == "system":
            continue
        allowed = declared(target) | SYSTEM | {target["name"]}
        for directory, _, files in os.walk(target_path(target)):
            for name in sorted(files):
                if not name.endswith(".swift"):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as source:
                    # Not what a multi-line string literal holds (a Python script a test runs).
                    text = re.sub(r'"""(?:.|\n)*?"""', '""', source.read())
                    for module in IMPORT.findall(text):
                        if module not in allowed:
                            problems.append(f"{path}: imports {module}, which target {target['name']} does not declare")
    for problem in problems:
        print("check_imports: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
