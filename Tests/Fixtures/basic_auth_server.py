#!/usr/bin/python3
"""A small HTTP server for the end-to-end tests: HTTP Basic auth for one user, on loopback only.

    basic_auth_server.py --credential-file FILE --record-file FILE --elsewhere-record-file FILE
                         [--git-root DIR] [--log-file FILE] [--lifetime SECONDS]
                         [--response-delay SECONDS]

It listens on 127.0.0.1 on a free port and prints on stdout, as the first line, that port
and the addresses of the two listeners behind the redirects (`PORT HOST:PORT HOST:PORT`:
127.0.0.2 on the same port when it is free, and another port of 127.0.0.1);
after that its stdout and stderr go to the log file (or nowhere), so that a caller may
stop reading them. It stops by itself when its stdin closes (the test that started it is done, or died) or
after --lifetime seconds, whichever comes first.

The credential file holds the one accepted credential exactly as Basic auth carries it once
decoded: the bytes `username:password` (UTF-8, no newline added). It is read on every
request, so a test changes the password by rewriting it. A repository may demand a
credential of its own (a second account on the same server): the file named like the
credential file with `.NAME` added, when it exists, replaces it for `/git/NAME.git/...`.

Every path demands that credential. Without it, or with another one: 401 and
`WWW-Authenticate: Basic realm="test"`. With it:
  /echo                   200, the request body sent back.
  /redirect-other-host[/denied]
                          302 to http://127.0.0.2:PORT/landed (or /denied), a listener of ours there.
  /redirect-other-port[/denied]
                          302 to http://127.0.0.1:OTHER_PORT/landed (or /denied), another listener.
  /request-line           200, the request line as the server read it (a query's bytes).
  /git/...                `git http-backend` as CGI, GIT_PROJECT_ROOT the --git-root, every
                          repository exported, push (receive-pack) allowed, REMOTE_USER the user.
  anything else           404.
/bearer asks for a bearer token instead: `Authorization: Bearer TOKEN`, where TOKEN is the
password part of the credential file; 200 `bearer ok` with it, else 401 with a Bearer
challenge. The Authorization header it got (any, or none) is written to the record file
with `.authorization` added to its name.
With --response-delay, every authenticated answer waits that long first (so that a test
sampling the processes of its clients sees them running).
On /echo, the decoded bytes of any Basic credential received (right or wrong) are written to
the record file (replacing what it held), so the test can compare them exactly.

The listeners behind the redirects answer /denied with 401 (and a Basic challenge) and
everything else with 200 `landed`; they append the header block of every request they get
to the elsewhere-record file: a test checks that no Authorization header reached them.

With --oauth-state-dir, /oauth/authorize and /oauth/token are an OAuth 2.0 authorization
server of the forge's own (oauth_authority.py, which needs python3-oauthlib; the rest of
this script is the Python 3 standard library only).
"""

import argparse
import base64
import binascii
import ipaddress
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 64 * 1024 * 1024
GIT_TIMEOUT = 60


def loopback_server(address, handler, port=0):
    """A threading HTTP server on a loopback address, refusing any other address."""
    if not ipaddress.ip_address(address).is_loopback:
        raise SystemExit(f"refusing to listen on {address}: loopback addresses only")
    server = ThreadingHTTPServer((address, port), handler)
    server.daemon_threads = True
    return server


class Settings:
    credential_file = ""
    record_file = ""
    elsewhere_record_file = ""
    git_root = None
    log_file = None
    other_host = ""
    other_port = ""
    response_delay = 0.0
    oauth = None
    lock = threading.Lock()


def log(message):
    if Settings.log_file:
        with Settings.lock, open(Settings.log_file, "a", encoding="utf-8", errors="replace") as log_file:
            log_file.write(f"{time.strftime('%H:%M:%S')} {message}\n")


def write_file(path, data, append=False):
    with Settings.lock, open(path, "ab" if append else "wb") as output:
        output.write(data)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "basic-auth-test-server"

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        log(f"{self.server.server_address[1]} {self.address_string()} {format % args}")

    # Bodies: Content-Length or chunked (curl -T -, git push of a large pack).
    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return body
                if len(body) + size > MAX_BODY:
                    raise ValueError("body too large")
                body += self.rfile.read(size)
                self.rfile.readline()  # the CRLF after each chunk
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise ValueError("body too large")
        return self.rfile.read(length) if length else b""

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True

    def do_GET(self):
        self.handle_any()

    do_POST = do_PUT = do_HEAD = do_DELETE = do_GET

    def handle_any(self):
        try:
            body = self.read_body()
        except (ValueError, OSError) as error:
            self.answer(400, f"bad request body: {error}\n".encode())
            return
        self.route(body)


def redirect_target(path):
    """Where /redirect-other-host[/denied] and /redirect-other-port[/denied] point, else None."""
    for prefix, elsewhere in (("/redirect-other-host", Settings.other_host), ("/redirect-other-port", Settings.other_port)):
        if path in (prefix, prefix + "/denied"):
            return f"http://{elsewhere}/" + ("denied" if path.endswith("/denied") else "landed")
    return None


def credential_file_for(path):
    """The credential file of /git/NAME.git/... when that repository has one, else the server's."""
    parts = path.split("/")
    if len(parts) > 2 and parts[1] == "git" and parts[2].endswith(".git") and "." not in parts[2][:-4]:
        own = Settings.credential_file + "." + parts[2][:-4]
        if os.path.exists(own):
            return own
    return Settings.credential_file


class AuthHandler(Handler):
    def received_credential(self):
        """The decoded bytes of a Basic credential in the request, or None."""
        header = self.headers.get("Authorization")
        if header is None:
            return None
        scheme, _, encoded = header.partition(" ")
        if scheme.lower() != "basic":
            return None
        try:
            return base64.b64decode(encoded.strip(), validate=True)
        except (binascii.Error, ValueError):
            return None

    def bearer(self):
        header = self.headers.get("Authorization", "").encode("latin-1", "replace")
        write_file(Settings.record_file + ".authorization", header)
        with open(Settings.credential_file, "rb") as credential_file:
            token = credential_file.read().split(b":", 1)[-1]
        if header != b"Bearer " + token:
            log("401 for /bearer: " + ("no credential" if not header else "wrong credential"))
            self.answer(401, b"authentication required\n", [("WWW-Authenticate", 'Bearer realm="test"')])
        else:
            self.answer(200, b"bearer ok\n")

    def route(self, body):
        path = self.path.split("?", 1)[0]
        if path == "/bearer":
            self.bearer()
            return
        if Settings.oauth and path.startswith("/oauth/"):
            url = "http://127.0.0.1:%d%s" % (self.server.server_address[1], self.path)
            status, headers, answer = Settings.oauth.respond(self.command, url, body, dict(self.headers))
            self.answer(status, answer, list(headers.items()))
            return
        received = self.received_credential()
        if path == "/echo" and received is not None:
            write_file(Settings.record_file, received)
        with open(credential_file_for(path), "rb") as credential_file:
            expected = credential_file.read()
        if received != expected:
            log(f"401 for {path}: {'no credential' if received is None else 'wrong credential'}")
            self.answer(401, b"authentication required\n", [("WWW-Authenticate", 'Basic realm="test"')])
            return
        user = expected.split(b":", 1)[0].decode("utf-8", "replace")
        time.sleep(Settings.response_delay)
        if path == "/echo":
            self.answer(200, body, [("Content-Type", "application/octet-stream")])
        elif path == "/request-line":
            self.answer(200, self.requestline.encode("latin-1", "replace") + b"\n")
        elif redirect_target(path):
            self.answer(302, b"", [("Location", redirect_target(path))])
        elif (path == "/git" or path.startswith("/git/")) and Settings.git_root:
            self.run_git_http_backend(path[len("/git"):], user, body)
        else:
            self.answer(404, b"not found\n")

    def run_git_http_backend(self, path_info, user, body):
        query = self.path.split("?", 1)[1] if "?" in self.path else ""
        environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": Settings.git_root,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": "/dev/null",
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": "http.receivepack",
            "GIT_CONFIG_VALUE_0": "true",
            "GIT_PROJECT_ROOT": Settings.git_root,
            "GIT_HTTP_EXPORT_ALL": "1",
            "REMOTE_USER": user,
            "REMOTE_ADDR": self.client_address[0],
            "GATEWAY_INTERFACE": "CGI/1.1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REQUEST_METHOD": self.command,
            "PATH_INFO": path_info,
            "QUERY_STRING": query,
            "CONTENT_TYPE": self.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
        }
        for header, variable in (("Content-Encoding", "HTTP_CONTENT_ENCODING"), ("Git-Protocol", "GIT_PROTOCOL")):
            if self.headers.get(header):
                environment[variable] = self.headers[header]
        try:
            result = subprocess.run(["git", "http-backend"], input=body, env=environment,
                                    capture_output=True, timeout=GIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.answer(504, b"git http-backend timed out\n")
            return
        if result.stderr:
            log("git http-backend: " + result.stderr.decode("utf-8", "replace").strip())
        head, separator, content = result.stdout.partition(b"\r\n\r\n")
        if not separator:
            head, separator, content = result.stdout.partition(b"\n\n")
        status, headers = 200, []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = int(value.strip().split(" ", 1)[0])
            elif name:
                headers.append((name.strip(), value.strip()))
        self.answer(status, content, headers)


class ElsewhereHandler(Handler):
    def route(self, body):
        record = f"{self.requestline}\n{self.headers}".encode("latin-1", "replace")
        write_file(Settings.elsewhere_record_file, record, append=True)
        if self.path.split("?", 1)[0] == "/denied":
            self.answer(401, b"denied\n", [("WWW-Authenticate", 'Basic realm="elsewhere"')])
        else:
            self.answer(200, b"landed\n")


def serve_in_background(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()


def exit_when_stdin_closes():
    while sys.stdin.buffer.read(4096):
        pass
    log("stdin closed: stopping")
    os._exit(0)


def exit_after(seconds):
    time.sleep(seconds)
    log(f"lifetime of {seconds} s over: stopping")
    os._exit(3)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--credential-file", required=True)
    parser.add_argument("--record-file", required=True)
    parser.add_argument("--elsewhere-record-file", required=True)
    parser.add_argument("--git-root")
    parser.add_argument("--log-file")
    parser.add_argument("--lifetime", type=float, default=600)
    parser.add_argument("--response-delay", type=float, default=0)
    parser.add_argument("--oauth-state-dir")
    parser.add_argument("--oauth-expires-in", type=int, default=3600)
    options = parser.parse_args()
    if options.oauth_state_dir:
        # Not the standard library: only the tests of a sign-in need it (python3-oauthlib).
        import oauth_authority
        oauth_authority.configure(options.oauth_state_dir, options.credential_file, options.oauth_expires_in)
        Settings.oauth = oauth_authority
    Settings.credential_file = options.credential_file
    Settings.record_file = options.record_file
    Settings.elsewhere_record_file = options.elsewhere_record_file
    Settings.git_root = options.git_root
    Settings.log_file = options.log_file
    Settings.response_delay = options.response_delay

    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    threading.Thread(target=exit_after, args=(options.lifetime,), daemon=True).start()

    main_server = loopback_server("127.0.0.1", AuthHandler)
    # The same port on another host when free: a URL glob over the host (127.0.0.[1-2])
    # then reaches both.
    try:
        other_host = loopback_server("127.0.0.2", ElsewhereHandler, main_server.server_address[1])
    except OSError:
        other_host = loopback_server("127.0.0.2", ElsewhereHandler)
    other_port = loopback_server("127.0.0.1", ElsewhereHandler)
    Settings.other_host = "127.0.0.2:%d" % other_host.server_address[1]
    Settings.other_port = "127.0.0.1:%d" % other_port.server_address[1]
    for server in (other_host, other_port):
        serve_in_background(server)
    log(f"listening on 127.0.0.1:{main_server.server_address[1]}, elsewhere {Settings.other_host} {Settings.other_port}")
    sys.stdout.write(f"{main_server.server_address[1]} {Settings.other_host} {Settings.other_port}\n")
    sys.stdout.flush()
    output = os.open(options.log_file or os.devnull, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(output, 1)
    os.dup2(output, 2)
    main_server.serve_forever()


if __name__ == "__main__":
    main()
