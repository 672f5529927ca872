"""What the scripts that make the maps' geography (make-geography.py, make-coasts.py) share:
the pinned downloads' checks, the LEB128 varints their bytes are written in, and how those
bytes are written beside the C file that builds them in."""
import hashlib
import os
import subprocess
import sys


def sha256(path):
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def zigzag(value):
    return varint(-2 * value - 1 if value < 0 else 2 * value)


def fixed(degrees):
    return int(round(degrees * 10_000))


def wheel(spec, digest, work):
    """`spec` ("name==version") downloaded with pip into `work` and checked against its sha256
    `digest`; its path (a wheel, or the source archive of a package that has none)."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--dest", work, spec], check=True)
    prefix = spec.split("==")[0].replace("-", "_") + "-"
    name = [name for name in os.listdir(work) if name.startswith(prefix) and name.endswith((".whl", ".tar.gz"))][0]
    if sha256(os.path.join(work, name)) != digest:
        sys.exit(f"{os.path.basename(sys.argv[0]).removesuffix('.py')}: {name} is not the wheel this script was written against")
    return os.path.join(work, name)


def write_built_in(data, output, shim):
    """`data` written to `output` (`Sources/CGeography/NAME.c.bin`), and its checksum into the
    line of the C file `shim` that names it: the C file names the data's checksum, so a build
    after a new data file compiles it again (the build does not know the bytes it includes)."""
    with open(output, "wb") as handle:
        handle.write(data)
    marker = "// " + os.path.basename(output) + " sha256"
    digest = hashlib.sha256(data).hexdigest()
    with open(shim, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    lines = [f"{marker} {digest}" if line.startswith(marker) else line for line in lines]
    with open(shim, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
