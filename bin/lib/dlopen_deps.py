"""The Debian packages of the libraries that ELF binaries open at run time with dlopen.

A dlopen'd library is not in a binary's NEEDED list, so dpkg-shlibdeps cannot see it. The
binary declares it instead in an ELF note, section .note.dlopen (owner "FDO", type
0x407c0c0a, a JSON array of {"soname": [...], "priority": "required"|"recommended"|
"suggested", ...}: the dlopen metadata format systemd introduced). This reads those notes,
finds each library on this machine, asks dpkg which package holds it and takes the version
bound from that package's shlibs file, as dpkg-shlibdeps would for a linked library.

    python3 bin/lib/dlopen_deps.py BINARY...

prints one line per relation field, e.g. "Depends: libcurl4 (>= 7.88.1)". Exits 65 when a
binary's note is malformed, 69 when a declared library is not installed here.
"""

import json
import os
import struct
import subprocess
import sys

NOTE_OWNER = b"FDO"
NOTE_TYPE = 0x407C0C0A
FIELDS = {"required": "Depends", "recommended": "Recommends", "suggested": "Suggests"}


def fail(status, message):
    print(f"dlopen_deps: {message}", file=sys.stderr)
    sys.exit(status)


def dlopen_notes(path):
    """The JSON entries of every FDO dlopen note in the ELF file at path."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        fail(65, f"{path}: not an ELF file")
    is64 = data[4] == 2
    endian = "<" if data[5] == 1 else ">"
    if is64:
        shoff, = struct.unpack_from(endian + "Q", data, 0x28)
        shentsize, shnum = struct.unpack_from(endian + "HH", data, 0x3A)
    else:
        shoff, = struct.unpack_from(endian + "I", data, 0x20)
        shentsize, shnum = struct.unpack_from(endian + "HH", data, 0x2E)
    entries = []
    for index in range(shnum):
        header = shoff + index * shentsize
        if is64:
            _, kind, _, _, offset, size = struct.unpack_from(endian + "IIQQQQ", data, header)
        else:
            _, kind, _, _, offset, size = struct.unpack_from(endian + "IIIIII", data, header)
        if kind != 7:  # SHT_NOTE
            continue
        position, end = offset, offset + size
        while position + 12 <= end:
            name_size, description_size, note_type = struct.unpack_from(endian + "III", data, position)
            name_start = position + 12
            description_start = name_start + (name_size + 3) // 4 * 4
            name = data[name_start:name_start + name_size].rstrip(b"\0")
            description = data[description_start:description_start + description_size]
            position = description_start + (description_size + 3) // 4 * 4
            if name != NOTE_OWNER or note_type != NOTE_TYPE:
                continue
            try:
                parsed = json.loads(description.rstrip(b"\0").decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                fail(65, f"{path}: the .note.dlopen JSON does not parse: {error}")
            if not isinstance(parsed, list):
                fail(65, f"{path}: the .note.dlopen JSON is not an array")
            entries.extend(parsed)
    return entries


def command(*argv):
    result = subprocess.run(argv, capture_output=True, text=True)
    return result.stdout if result.returncode == 0 else None


def library_file(soname):
    """Where this machine's dynamic loader finds soname for the packaging architecture."""
    multiarch = (command("dpkg-architecture", "-qDEB_HOST_MULTIARCH") or "").strip()
    for directory in (f"/usr/lib/{multiarch}", f"/lib/{multiarch}", "/usr/lib", "/lib"):
        candidate = os.path.join(directory, soname)
        if multiarch and os.path.exists(candidate):
            return candidate
    return None


def owning_package(path):
    """dpkg -S on the path, then on its directory resolved (/lib is /usr/lib when merged)."""
    for candidate in (path, os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))):
        out = command("dpkg-query", "-S", candidate)
        if out:
            return out.split(":", 1)[0].strip().split(",")[0].strip()
    return None


def versioned(package, soname):
    """package with the bound its shlibs file gives for soname ("libcurl.so.4" -> "libcurl 4")."""
    library, _, version = soname.partition(".so.")
    control = (command("dpkg-query", "--control-path", package, "shlibs") or "").strip()
    if control and os.path.exists(control):
        with open(control) as f:
            for line in f:
                fields = line.split(None, 2)
                if len(fields) == 3 and fields[0] == library and fields[1] == version:
                    return fields[2].strip()
    return package


def main(paths):
    relations = {}  # field -> [relation, ...] in first-seen order
    for path in paths:
        for entry in dlopen_notes(path):
            sonames = entry.get("soname") if isinstance(entry, dict) else None
            if not isinstance(sonames, list) or not sonames:
                fail(65, f"{path}: a .note.dlopen entry without a soname list: {entry!r}")
            field = FIELDS.get(entry.get("priority", "recommended"))
            if field is None:
                fail(65, f"{path}: unknown priority in .note.dlopen: {entry.get('priority')!r}")
            # Several sonames are alternatives (any one will do).
            choices = []
            for soname in sonames:
                found = library_file(soname)
                package = owning_package(found) if found else None
                if package:
                    choices.append(versioned(package, soname))
            if not choices:
                fail(69, f"{path} opens {' or '.join(sonames)} at run time, which is not installed here "
                         "(install it to tell which package provides it)")
            relation = " | ".join(choices)
            if relation not in relations.setdefault(field, []):
                relations[field].append(relation)
    for field in ("Depends", "Recommends", "Suggests"):
        if relations.get(field):
            print(f"{field}: {', '.join(relations[field])}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        fail(64, "usage: dlopen_deps.py BINARY...")
    main(sys.argv[1:])
