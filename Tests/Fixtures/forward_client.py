#!/usr/bin/python3
"""A hostile (or plain) client of git-credential-forward's socket, for the end-to-end tests:
what a remote's user, or its root, can send through the forwarded socket.

    forward_client.py SOCKET send              stdin's bytes as one connection; prints the answer
    forward_client.py SOCKET flood COUNT WIDTH COUNT connections, WIDTH open at once, each sending a
                                               ping; prints `OUTCOME COUNT` lines (pong, busy, closed...)
    forward_client.py SOCKET stall COUNT       COUNT connections that send half a request and never
                                               finish it; prints `stalled COUNT` once all are open,
                                               then holds them until its stdin closes
    forward_client.py SOCKET huge MEBIBYTES    one line of that many MiB with no end; prints `sent N`
                                               (the bytes the other end took) and the answer

Python 3 standard library only. Exit 0 whatever the other end does (the test judges it).
"""

import socket
import sys
import collections


def connect(path, timeout=30):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    return s


def read_all(s):
    data = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError as error:
        data += ("<%s>" % type(error).__name__).encode()
    return data


def send(path):
    s = connect(path)
    try:
        s.sendall(sys.stdin.buffer.read())
        s.shutdown(socket.SHUT_WR)
    except OSError as error:
        sys.stdout.write("<%s while sending>\n" % type(error).__name__)
    sys.stdout.buffer.write(read_all(s))


def flood(path, count, width):
    outcomes = collections.Counter()
    done = 0
    while done < count:
        batch = []
        for _ in range(min(width, count - done)):
            try:
                s = connect(path)
            except OSError as error:
                outcomes["connect-" + type(error).__name__] += 1
                continue
            try:
                s.sendall(b"git-credential-forward/1 ping\n\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # ssh closed it at once (serve's queue full): read below as closed
            batch.append(s)
        for s in batch:
            answer = read_all(s)
            s.close()
            word = answer.split(b" ", 1)[0].split(b"\n", 1)[0].decode("utf-8", "replace")
            outcomes[word or "closed"] += 1
        done += width
    for outcome, n in sorted(outcomes.items()):
        print(outcome, n)


def stall(path, count):
    held = []
    for _ in range(count):
        s = connect(path)
        try:
            s.sendall(b"git-credential-forward/1 get\nprotocol=http\nhost=")
        except OSError:
            pass  # answered busy and closed at once: held all the same
        held.append(s)
    print("stalled", len(held), flush=True)
    sys.stdin.read()


def huge(path, mebibytes):
    s = connect(path)
    sent = 0
    block = b"git-credential-forward/1 get\nhost=" + b"x" * (1 << 20)
    try:
        for _ in range(mebibytes):
            s.sendall(block)
            sent += len(block)
            block = b"x" * (1 << 20)
    except OSError:
        pass
    print("sent", sent)
    sys.stdout.buffer.write(read_all(s))


def main():
    path, mode = sys.argv[1], sys.argv[2]
    if mode == "send":
        send(path)
    elif mode == "flood":
        flood(path, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "stall":
        stall(path, int(sys.argv[3]))
    elif mode == "huge":
        huge(path, int(sys.argv[3]))
    else:
        raise SystemExit("unknown mode " + mode)


main()
