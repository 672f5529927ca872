"""What the scripts that make the maps' geography (make-geography.py, make-coasts.py) share:
the pinned downloads' checks and the LEB128 varints their bytes are written in."""
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
    `digest`; its path."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--dest", work, spec], check=True)
    prefix = spec.split("==")[0].replace("-", "_") + "-"
    name = [name for name in os.listdir(work) if name.startswith(prefix) and name.endswith(".whl")][0]
    if sha256(os.path.join(work, name)) != digest:
        sys.exit(f"{os.path.basename(sys.argv[0]).removesuffix('.py')}: {name} is not the wheel this script was written against")
    return os.path.join(work, name)
