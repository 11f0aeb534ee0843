#!/usr/bin/env python3
"""fatbin.py FILE...: what the CUDA fat binaries inside each FILE hold, one line per
file: "FILE: ptx N, sass M" (entries of each kind). For a machine without cuobjdump:
tools/grade/dist-check.sh asks it whether a shipped binary holds PTX. A fat binary
starts with the magic 0xBA55ED50, a 16-bit version, a 16-bit header size and a
64-bit payload size; its entries each start with a 16-bit kind (1 PTX, 2 SASS), a
16-bit version, a 32-bit header size and a 64-bit payload size."""
import struct
import sys

MAGIC = struct.pack("<I", 0xBA55ED50)


def kinds(data):
    counts = {1: 0, 2: 0}
    at = data.find(MAGIC)
    while at >= 0:
        _, _, header, size = struct.unpack_from("<IHHQ", data, at)
        entry, end = at + header, at + header + size
        while entry + 16 <= end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            if entry_header == 0:
                break
            counts[kind] = counts.get(kind, 0) + 1
            entry += entry_header + payload
        at = data.find(MAGIC, max(end, at + 4))
    return counts


for path in sys.argv[1:]:
    with open(path, "rb") as f:
        c = kinds(f.read())
    print(f"{path}: ptx {c.get(1, 0)}, sass {c.get(2, 0)}")
