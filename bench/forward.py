#!/usr/bin/env python3
"""Benchmark: a git-credential-forward get over a real ssh connection on loopback, beside
the local get it ends in (issue 25: "costs one round trip on top of the local helper").

What it measures
----------------
Four lanes of whole-process gets of the same credential from the same git-credential-sqlite
store (key file, 10 entries), interleaved in one run:

  A  forwarded get   `git-credential-forward get` run by a throwaway user on the
                     "remote" end of one ssh session (`ssh -R REMOTE.sock:LOCAL.sock`
                     to a throwaway sshd on 127.0.0.1); its request crosses the
                     forwarded socket, ssh, `git-credential-forward serve` here, which
                     runs `git credential fill`, which runs git-credential-sqlite.
                     REMOTE.sock is the remote end's default (~/.git-credential-forward.sock,
                     no --socket: as `setup` configures it), so each get finds its
                     session's socket as git's would (the first get moves it into
                     ~/.git-credential-forward/, there being no ~/.ssh/rc to claim it)
  B  local get       `git-credential-sqlite get` here (what git would run without ssh)
  C  git fill        `git -C / credential fill` here, as serve runs it for each request
  D  forward here    `git-credential-forward get` here, straight to serve's socket (no
                     ssh): A - D is ssh's share, D - C the client's and serve's

A is timed ON THE REMOTE, by a small Python loop that the ssh session runs there (the
same spawn-to-reap timing as bench.py's, in the remote user's session): this script sends
it one line per run and reads back one line with the time and what the get printed.
Every get of every lane, warm-up and timed, must answer the right username and password;
otherwise the benchmark fails. A - B is the target (within 10 ms on this machine); A - C
is what forwarding itself adds (the forward client, ssh both ways, serve's fork).

The set-up needs root: a throwaway user (useradd, home in the temporary directory,
`usermod -p '*'` so that sshd without PAM lets it log in with a key), a throwaway sshd
(Debian's /usr/sbin/sshd: its own config, host key and port, UsePAM no, publickey only,
AllowUsers that user). Everything is removed at the end, the user too, whatever
happened. Not root: the row set is skipped with one line, exit 0.

The programs are the release build's (--bin), copied into the temporary directory (the
remote user cannot reach .build/release under /work; all lanes then run the same
freshly copied file, see bench/README.md on the page cache).

Results: a table on stdout, bench/out/forward.txt, and bench/out/forward.json (all
samples).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import select
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from bench import (DEFAULT_BIN_DIR, DEFAULT_OUT_DIR, HELPER_NAME, SMALL, BenchError, Credential,
                   Environment, RunResult, command_output, filesystem_type, fmt, import_into_sqlite,
                   make_credentials, measure_spawn_overhead, ratio, require_credential, require_success,
                   run_timed, sqlite_helper, summarize, write_credential_store_file)

FORWARD_NAME = "git-credential-forward"
SSHD = Path("/usr/sbin/sshd")
REMOTE_NAME = "bench"                   # serve's NAME: the remote's name (socket, log)
TARGET_FORWARD_DIFFERENCE_MS = 10.0     # forwarded get - local sqlite get, medians
WAIT_SECONDS = 20.0                     # bounded waits: sshd listening, serve's socket, a reply
SUN_PATH_MAX = 107                      # a Unix socket's path, at most (sockaddr_un's 108 with its NUL)
# The longest name the remote end gives a session's socket here (RemoteSessions.sessionName:
# SSH_CONNECTION's words joined by '_', loopback and ports at most 65535).
LONGEST_SESSION_SOCKET = "/.git-credential-forward/127.0.0.1_65535_127.0.0.1_65535.sock"


# --------------------------------------------------------------------------
# The remote's timing loop (run by the ssh session, as the throwaway user)
# --------------------------------------------------------------------------

# One line in, one JSON line out: "get" runs the forwarded get (on its default socket, as
# git's credential.helper line from setup runs it), "true" /bin/true (the remote harness's
# spawn cost). It first waits (bounded) for sshd to have bound the forwarded socket, then
# says "ready". Nothing secret is in its argv: protocol and host.
REMOTE_LOOP = r"""
import gc, json, os, stat, subprocess, sys, time
program, sock, host = sys.argv[1:4]
request = ("protocol=https\nhost=%s\n\n" % host).encode()
deadline = time.monotonic() + float(sys.argv[4])
while True:
    try:
        if stat.S_ISSOCK(os.lstat(sock).st_mode):
            break
    except FileNotFoundError:
        pass
    if time.monotonic() > deadline:
        print(json.dumps({"error": "no forwarded socket at %s" % sock}), flush=True)
        sys.exit(1)
    time.sleep(0.01)
print(json.dumps({"ready": True}), flush=True)
gc.disable()
for line in sys.stdin:
    argv = {"get": [program, "get"], "true": ["/bin/true"]}[line.strip()]
    start = time.perf_counter_ns()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(request if argv[0] == program else b"")
    ms = (time.perf_counter_ns() - start) / 1e6
    print(json.dumps({"ms": ms, "exit": proc.returncode, "stdout": out.decode("utf-8", "replace"),
                      "stderr": err.decode("utf-8", "replace")}), flush=True)
"""


class RemoteLoop:
    """The ssh session running REMOTE_LOOP: one request line, one reply line, bounded."""

    def __init__(self, process: subprocess.Popen, stderr_file: Path):
        self.process = process
        self.stderr_file = stderr_file
        self.buffer = b""

    def what_ssh_said(self) -> str:
        text = self.stderr_file.read_text(errors="replace").strip() if self.stderr_file.exists() else ""
        return f"--- ssh's stderr ---\n{text or '(nothing)'}"

    def reply(self) -> dict:
        deadline = time.monotonic() + WAIT_SECONDS
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise BenchError(f"the remote loop said nothing within {WAIT_SECONDS:.0f} s\n{self.what_ssh_said()}")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BenchError(f"the ssh session ended (exit {self.process.poll()})\n{self.what_ssh_said()}")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        answer = json.loads(line)
        if "error" in answer:
            raise BenchError(f"on the remote: {answer['error']}\n{self.what_ssh_said()}")
        return answer

    def run(self, what: str) -> RunResult:
        self.process.stdin.write(what.encode() + b"\n")
        self.process.stdin.flush()
        answer = self.reply()
        argv = [f"(remote) {FORWARD_NAME} get" if what == "get" else "(remote) /bin/true"]
        return RunResult(argv, answer["exit"], answer["stdout"].encode(), answer["stderr"].encode(),
                         elapsed_ms=answer["ms"])

    def close(self) -> None:
        try:
            self.process.stdin.close()   # the loop ends at EOF, and the session with it
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            stop(self.process)


def stop(process: subprocess.Popen) -> None:
    """End a process this script started, by its pid: SIGTERM, a bounded wait, then SIGKILL."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# --------------------------------------------------------------------------
# The two ends
# --------------------------------------------------------------------------

def run_checked(argv: list[str], **kwargs) -> str:
    """A set-up command (not timed); its stderr in the error when it fails."""
    result = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise BenchError(f"{' '.join(argv)} failed ({result.returncode}):\n{result.stderr.strip()}")
    return result.stdout


def wait_until(condition: Callable[[], bool], what: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            said = log.read_text(errors="replace").strip() if log and log.exists() else ""
            raise BenchError(f"{what} within {WAIT_SECONDS:.0f} s" + (f"\n--- {log.name} ---\n{said}" if said else ""))
        time.sleep(0.02)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


@dataclass
class Remote:
    """The throwaway user and sshd: `ssh user@127.0.0.1 -p port` reaches them."""
    user: str
    home: Path
    port: int
    client_key: Path
    known_hosts: Path


def make_remote(root: Path, cleanups: list) -> Remote:
    """A user whose home is in `root`, and an sshd on 127.0.0.1 that lets only it in."""
    user = f"gcf-bench-{os.getpid()}"
    home = root / "remote"
    # The remote end moves the forwarded socket into ~/.git-credential-forward/ under the
    # session's name, and cannot connect to it there when that path is too long for a
    # socket (it does not check: the get then stays silent).
    if len(str(home) + LONGEST_SESSION_SOCKET) > SUN_PATH_MAX:
        raise BenchError(f"the remote home {home} is too long for the session's socket below it"
                         f" (a socket's path is at most {SUN_PATH_MAX} bytes): give a shorter --tmp-root")
    if subprocess.run(["id", user], capture_output=True).returncode == 0:
        raise BenchError(f"user {user} exists already (left by a run that was killed?): userdel {user}, then run again")
    # useradd's default password is '!', which sshd without PAM takes for a locked account.
    run_checked(["useradd", "--home-dir", str(home), "--no-create-home", "--shell", "/bin/sh", "--user-group",
                 "--comment", "git-credential-forward bench (temporary)", user])
    cleanups.append(lambda: remove_user(user))
    run_checked(["usermod", "-p", "*", user])
    ssh_dir = home / ".ssh"
    ssh_dir.mkdir(parents=True, mode=0o700)
    home.chmod(0o700)

    sshd_dir = root / "sshd"
    sshd_dir.mkdir(mode=0o700)
    host_key, client_key = sshd_dir / "host_ed25519", sshd_dir / "client_ed25519"
    for key in (host_key, client_key):
        run_checked(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "git-credential-forward bench", "-f", str(key)])
    shutil.copyfile(client_key.with_suffix(".pub"), ssh_dir / "authorized_keys")
    (ssh_dir / "authorized_keys").chmod(0o600)
    run_checked(["chown", "-R", f"{user}:{user}", str(home)])

    port = free_port()
    known_hosts = sshd_dir / "known_hosts"
    known_hosts.write_text(f"[127.0.0.1]:{port} {host_key.with_suffix('.pub').read_text()}")
    config = sshd_dir / "sshd_config"
    config.write_text("\n".join([
        f"Port {port}", "ListenAddress 127.0.0.1", f"HostKey {host_key}", f"PidFile {sshd_dir / 'sshd.pid'}",
        "UsePAM no", "PubkeyAuthentication yes", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
        "PermitRootLogin no", f"AllowUsers {user}", "AuthorizedKeysFile .ssh/authorized_keys",
        # AllowTcpForwarding no would refuse the socket's forward too (OpenSSH 9.2 sets the
        # remote forwards' permission from it alone): remote, the least that lets -R through.
        "AllowStreamLocalForwarding yes", "AllowTcpForwarding remote", "X11Forwarding no", "PermitTTY no",
        "PrintMotd no", "PrintLastLog no", "LogLevel INFO", ""]))
    # Debian's sshd needs its privilege-separation directory (systemd makes it at boot).
    privsep = Path("/run/sshd")
    if not privsep.exists():
        privsep.mkdir(mode=0o755)
        cleanups.append(lambda: privsep.rmdir())
    sshd_log = sshd_dir / "sshd.log"
    with open(sshd_log, "w") as log:
        sshd = subprocess.Popen([str(SSHD), "-D", "-e", "-f", str(config)], stdin=subprocess.DEVNULL,
                                stdout=log, stderr=log)
    cleanups.append(lambda: stop(sshd))
    wait_until(lambda: sshd.poll() is None and listening(port), f"sshd did not listen on 127.0.0.1:{port}", sshd_log)
    return Remote(user, home, port, client_key, known_hosts)


def remove_user(user: str) -> None:
    """userdel, after this user's last process (the ssh session) has ended."""
    for _ in range(50):
        result = subprocess.run(["userdel", user], capture_output=True, text=True)
        if result.returncode == 0:
            return
        if "currently used by process" not in result.stderr:
            break
        time.sleep(0.1)
    print(f"warning: userdel {user} failed: {result.stderr.strip()} (remove it: userdel {user})", file=sys.stderr)


def start_serve(forward: Path, host: str, environment: Environment, logs: Path, cleanups: list) -> Path:
    """`git-credential-forward serve` here, on its default socket (XDG_RUNTIME_DIR, private)."""
    socket_path = Path(environment.env["XDG_RUNTIME_DIR"]) / FORWARD_NAME / REMOTE_NAME / "socket"
    stderr = logs / "serve.stderr"
    with open(stderr, "w") as err:
        serve = subprocess.Popen([str(forward), "serve", REMOTE_NAME, "--host", host, "--log", str(logs / "serve.log")],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                 env=environment.env, cwd=environment.root)
    cleanups.append(lambda: stop(serve))   # SIGTERM: serve removes its socket and exits
    wait_until(lambda: serve.poll() is None and socket_path.exists(), f"serve did not listen on {socket_path}", stderr)
    return socket_path


def open_session(remote: Remote, forward: Path, local_socket: Path, host: str, logs: Path,
                 cleanups: list) -> RemoteLoop:
    """One ssh session: the forwarded socket (-R), and REMOTE_LOOP running at its end."""
    remote_socket = remote.home / ".git-credential-forward.sock"   # the remote end's arrival path
    command = " ".join(["python3", "-u", "-c", shlex.quote(REMOTE_LOOP), shlex.quote(str(forward)),
                        shlex.quote(str(remote_socket)), shlex.quote(host), str(WAIT_SECONDS)])
    argv = ["ssh", "-F", "/dev/null", "-T", "-p", str(remote.port), "-i", str(remote.client_key),
            "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "BatchMode=yes",
            "-o", f"UserKnownHostsFile={remote.known_hosts}", "-o", "GlobalKnownHostsFile=/dev/null",
            "-o", "StrictHostKeyChecking=yes", "-o", "ExitOnForwardFailure=yes",
            "-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "LogLevel=ERROR",
            "-R", f"{remote_socket}:{local_socket}", f"{remote.user}@127.0.0.1", command]
    stderr = logs / "ssh.stderr"
    with open(stderr, "w") as err:
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
    loop = RemoteLoop(process, stderr)
    cleanups.append(loop.close)
    loop.reply()   # "ready": logged in, and sshd has bound the forwarded socket
    return loop


# --------------------------------------------------------------------------
# Measuring, interleaved
# --------------------------------------------------------------------------

@dataclass
class Lane:
    key: str
    title: str
    run: Callable[[], RunResult]
    samples_ms: list[float]


def measure(lanes: list[Lane], expected: Credential, runs: int, warmup: int) -> None:
    """Rounds of one run per lane, forward on even rounds and backward on odd ones (as
    bench.py does); every run, warm-up or timed, must answer `expected`."""
    print(f"  get: {warmup} warm-up + {runs} timed rounds over {len(lanes)} lanes", file=sys.stderr, flush=True)
    gc.disable()
    try:
        for round_index in range(warmup + runs):
            for lane in (lanes if round_index % 2 == 0 else lanes[::-1]):
                result = require_success(lane.run())
                require_credential(result, expected)
                if round_index >= warmup:
                    lane.samples_ms.append(result.elapsed_ms)
    finally:
        gc.enable()


def evaluate(lanes: dict[str, dict]) -> tuple[list[dict], dict]:
    forwarded, local, fill, here = (lanes[k]["median_ms"] for k in ("forwarded", "sqlite", "fill", "here"))
    difference = round(forwarded - local, 3)
    return [{"target": "forwarded get - local sqlite get (medians)", "value": difference,
             "limit": TARGET_FORWARD_DIFFERENCE_MS, "unit": " ms",
             "status": "PASS" if difference <= TARGET_FORWARD_DIFFERENCE_MS else "MISS"}], {
        "forwarded_minus_sqlite_ms": difference, "forwarded_over_sqlite": ratio(forwarded, local),
        "forwarded_minus_fill_ms": round(forwarded - fill, 3), "forwarded_over_fill": ratio(forwarded, fill),
        "forwarded_minus_here_ms": round(forwarded - here, 3), "here_minus_fill_ms": round(here - fill, 3)}


def format_report(meta: dict, lanes: dict[str, dict], titles: dict[str, str], targets: list[dict],
                  derived: dict) -> str:
    lines = [
        "git-credential-forward get over ssh on loopback  (whole-process gets; medians in ms)",
        f"  {meta['started']}  {meta['machine']}, {meta['cpus']} CPUs, load {meta['loadavg_start']}"
        f"  |  {meta['git_version']}  |  {meta['ssh_version']}  |  temp dir on {meta['temp_fs']}",
        f"  runs per lane: get {meta['config']['get_runs']}, warm-up {meta['config']['warmup']}"
        "  (interleaved rounds)",
        f"  spawn overhead (median /bin/true, included in all times): here {meta['spawn_overhead_ms']:.2f} ms,"
        f" on the remote {meta['remote_spawn_overhead_ms']:.2f} ms",
        "",
        f"{SMALL} entries in one git-credential-sqlite store (key file); the same credential asked by all",
        f"{'lane':<62}{'median':>8}{'p10':>8}{'p90':>8}{'IQR':>8}",
        "-" * 94,
    ]
    for key, summary in lanes.items():
        lines.append(f"{titles[key]:<62}{summary['median_ms']:8.2f}{summary['p10_ms']:8.2f}"
                     f"{summary['p90_ms']:8.2f}{summary['iqr_ms']:8.2f}")
    target = targets[0]
    lines += [
        "",
        f"  forwarded - local sqlite get: {derived['forwarded_minus_sqlite_ms']:.2f} ms"
        f" <= {target['limit']:.0f} ms {target['status']}   ratio {fmt(derived['forwarded_over_sqlite'], '.2f', 'x')}",
        f"  forwarded - git credential fill: {derived['forwarded_minus_fill_ms']:.2f} ms"
        f"   ratio {fmt(derived['forwarded_over_fill'], '.2f', 'x')}   (what forwarding adds), of which",
        f"    ssh both ways (A - D): {derived['forwarded_minus_here_ms']:.2f} ms;"
        f" the forward client and serve (D - C): {derived['here_minus_fill_ms']:.2f} ms",
        "",
        "Targets",
    ]
    for t in targets:
        lines.append(f"  {t['status']:<5} {t['target']}: {t['value']:.2f}{t['unit']} (limit {t['limit']:.0f}{t['unit']})")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Benchmark a git-credential-forward get over ssh on loopback (see module docstring).")
    parser.add_argument("--bin", type=Path, default=DEFAULT_BIN_DIR,
                        help=f"directory holding {HELPER_NAME} (default: %(default)s)")
    parser.add_argument("--get-runs", type=int, help="timed runs per lane (default 100; quick 5)")
    parser.add_argument("--warmup", type=int, help="untimed warm-up rounds (default 3; quick 1)")
    parser.add_argument("--quick", action="store_true", help="smoke run: few repetitions")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT_DIR,
                        help="where forward.json and forward.txt go (default: %(default)s)")
    parser.add_argument("--tmp-root", type=Path, default=None,
                        help="parent of the temporary directory (default: system temp dir)")
    parser.add_argument("--keep-tmp", action="store_true", help="do not delete the temporary directory")
    args = parser.parse_args(argv)
    args.get_runs = args.get_runs if args.get_runs is not None else (5 if args.quick else 100)
    args.warmup = args.warmup if args.warmup is not None else (1 if args.quick else 3)
    if args.get_runs < 1 or args.warmup < 0:
        parser.error("--get-runs must be >= 1, --warmup >= 0")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if os.geteuid() != 0:
        print("forwarded get over ssh: skipped: it needs root (a throwaway user and sshd); run it as root",
              file=sys.stderr)
        return 0
    # The stripped release file (credential-helpers is SwiftPM's, with its symbols): one
    # executable, a program per name it is run by, so the sqlite one is the forward one.
    executable = (args.bin / HELPER_NAME).resolve()
    if not os.access(executable, os.X_OK):
        print(f"error: {executable} not found or not executable; build it first: make build", file=sys.stderr)
        return 1
    missing = [p for p in (str(SSHD), "ssh", "ssh-keygen", "useradd", "git", "python3") if not shutil.which(p)]
    if missing:
        print(f"error: {', '.join(missing)} not found (apt-get install openssh-server openssh-client)", file=sys.stderr)
        return 1
    # SIGTERM (make interrupted, a timeout) unwinds like Ctrl-C, so the user and sshd go.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    # Short: the remote's socket paths are below it (SUN_PATH_MAX).
    tmp_root = Path(tempfile.mkdtemp(prefix="gcf-bench-", dir=args.tmp_root))
    tmp_root.chmod(0o755)   # the remote user reaches its home and the program below it
    cleanups: list[Callable[[], None]] = []
    meta = {
        "started": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "machine": f"{platform.node()} {platform.system()} {platform.release()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "loadavg_start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "git_version": command_output(["git", "--version"]),
        "ssh_version": subprocess.run(["ssh", "-V"], capture_output=True, text=True).stderr.strip(),
        "executable": str(executable),
        "repo_commit": command_output(["git", "-C", str(Path(__file__).resolve().parent.parent), "rev-parse", "--short", "HEAD"]),
        "temp_dir": str(tmp_root),
        "temp_fs": filesystem_type(tmp_root),
        "config": {"get_runs": args.get_runs, "warmup": args.warmup},
    }
    try:
        # One copy of the executable, mode 755 in a 755 directory, by the names each end runs.
        bin_dir = tmp_root / "bin"
        bin_dir.mkdir(mode=0o755)
        sqlite, forward = bin_dir / HELPER_NAME, bin_dir / FORWARD_NAME
        shutil.copyfile(executable, sqlite)
        sqlite.chmod(0o755)
        os.link(sqlite, forward)

        # The person's end: a throwaway HOME whose git names the SQLite store as its helper.
        person = tmp_root / "person"
        person.mkdir(mode=0o700)
        environment = Environment.create(person)
        logs = tmp_root / "logs"
        logs.mkdir(mode=0o700)
        print("setting up the store, serve, sshd and the ssh session ...", file=sys.stderr, flush=True)
        credentials = make_credentials(SMALL)
        expected = credentials[-1]
        store_file = person / "credential-store.txt"
        write_credential_store_file(store_file, credentials)
        store = sqlite_helper(sqlite, person / "credentials.db", person / "key", environment, HELPER_NAME)
        import_into_sqlite(store, store_file)
        store_file.unlink()
        require_success(run_timed(["git", "config", "--global", "credential.helper", shlex.join(store.argv())],
                                  b"", environment))
        local_socket = start_serve(forward, expected.host, environment, logs, cleanups)

        # The remote end: a user of its own, reached through sshd on loopback.
        remote = make_remote(tmp_root, cleanups)
        loop = open_session(remote, forward, local_socket, expected.host, logs, cleanups)

        meta["spawn_overhead_ms"] = round(measure_spawn_overhead(environment), 3)
        remote_true = [require_success(loop.run("true")).elapsed_ms for _ in range(35)][5:]
        meta["remote_spawn_overhead_ms"] = round(statistics.median(remote_true), 3)

        request = expected.request(with_secret=False)
        fill_env = Environment(environment.root, dict(environment.env, GIT_ASKPASS=""))
        lanes = [
            Lane("forwarded", f"A  forwarded: {FORWARD_NAME} get (remote, over ssh)", lambda: loop.run("get"), []),
            Lane("sqlite", f"B  local: {HELPER_NAME} get", lambda: run_timed(store.argv("get"), request, environment), []),
            Lane("fill", "C  local: git credential fill (what serve runs)",
                 lambda: run_timed(["git", "-C", "/", "credential", "fill"], request, fill_env), []),
            Lane("here", f"D  here: {FORWARD_NAME} get to serve's socket (no ssh)",
                 lambda: run_timed([str(forward), "--socket", str(local_socket), "get"], request, environment), []),
        ]
        measure(lanes, expected, args.get_runs, args.warmup)
        meta["serve_log_lines"] = len((logs / "serve.log").read_text().splitlines())
    except BenchError as error:
        print(f"\nBENCHMARK FAILED: {error}", file=sys.stderr)
        for name in ("serve.stderr", "serve.log"):
            if (logs_file := tmp_root / "logs" / name).exists():
                print(f"--- {name} ---\n{logs_file.read_text(errors='replace').strip()}", file=sys.stderr)
        return 1
    finally:
        # A second Ctrl-C or SIGTERM must not cut the cleanup short (the user would stay).
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for cleanup in reversed(cleanups):   # the session, sshd, the user, then serve
            try:
                cleanup()
            except Exception as error:   # one failed step must not keep the user behind
                print(f"warning: cleanup: {error}", file=sys.stderr)
        if args.keep_tmp:
            print(f"kept temporary directory {tmp_root}", file=sys.stderr)
        else:
            shutil.rmtree(tmp_root, ignore_errors=True)

    meta["loadavg_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    summaries = {lane.key: summarize(lane.samples_ms, []) for lane in lanes}
    titles = {lane.key: lane.title for lane in lanes}
    targets, derived = evaluate(summaries)
    report = format_report(meta, summaries, titles, targets, derived)
    print(report, end="")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "forward.txt").write_text(report)
    with open(args.out / "forward.json", "w") as f:
        json.dump({"meta": meta, "lanes": summaries, "derived": derived, "targets": targets}, f, indent=2)
        f.write("\n")
    print(f"\nwrote {args.out / 'forward.json'} and {args.out / 'forward.txt'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
