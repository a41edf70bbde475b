#!/usr/bin/env python3
"""Listens on a unix socket as whoever runs it (another user, in the tests), as a bus
another user bound at a stale address would, and records every byte any client sends:
to RECORD, one line per connection with the count and the bytes in hex. Prints "ready"
once listening; runs until killed.

usage: recording_listener.py SOCKET RECORD
"""
import os
import socket
import sys

path, record = sys.argv[1], sys.argv[2]
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
os.chmod(path, 0o777)
server.listen(8)
print("ready", flush=True)
while True:
    client, _ = server.accept()
    client.settimeout(2)
    received = b""
    try:
        while True:
            chunk = client.recv(4096)
            if not chunk:
                break
            received += chunk
    except OSError:
        pass
    client.close()
    with open(record, "a") as out:
        out.write("%d %s\n" % (len(received), received.hex()))
