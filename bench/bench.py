#!/usr/bin/env python3
"""Benchmark: git-credential-sqlite against git's own `git credential-store`, and
git-credential-secretservice against git's contrib git-credential-libsecret.

What it measures
----------------
Whole-process cost of one helper invocation, as git experiences it: spawn the
helper, write one request in the git credential protocol to its stdin, read its
stdout/stderr to EOF, reap it. Nothing is measured inside the helpers.

Operations (each one a separate process run):

  get              look up the LAST entry of the credential-store file
                   (the worst case for a linear file); every timed get is
                   checked to return the expected username and password
  store (new)      store a host that is not in the store; it is erased again
                   afterwards, outside the timing, so the count stays fixed
  store (replace)  store an existing host/user with a new password
  erase            erase an existing entry (a different one each run); it is
                   stored again afterwards, outside the timing
  one git operation  what git does around every authenticated fetch or push: get,
                   then store of the credential it answered, unchanged (two
                   process runs; the time is their sum, the RSS their max)

Row sets:

  * git-credential-sqlite (key-file mode) = A  vs  git credential-store = B,
    at 10, 10,000 and 100,000 stored credentials (--sizes). Both stores hold
    exactly the same entries: the credential-store file is written directly
    and the same file is bulk-imported with `git-credential-sqlite import`.
  * git-credential-sqlite in passphrase mode with the key cached in the kernel
    keyring ("unlocked") = A  vs  key-file mode = B, at 10 entries.
  * git-credential-secretservice = A  vs  git-credential-libsecret = B, in one
    throwaway gnome-keyring holding 200 items (--skip-secretservice leaves it
    out). B is built by this script with gcc from the C source that Debian's git
    package ships (/usr/share/doc/git/contrib/credential/libsecret). The 200 items
    are stored with B, in its layout (schema org.gnome.keyring.NetworkPassword),
    which A reads too (B does not read A's schema): both get the same item; for
    store and erase each helper works on its own half of the items, so neither
    ever meets the other's writes. The keyring is the one of
    scripts/with-test-keyring: when the script is not run through it, it runs
    itself again through it (never against the keyring of whoever runs it).

Method: all stores are set up first. Then, per operation, the script runs
rounds; each round runs that operation once on every helper of every row set,
A and B of a row set next to each other, forward on even rounds and backward
on odd ones (A1 B1 A2 B2 ... then ... B2 A2 B1 A1). So A and B are interleaved,
which goes first alternates, and slow drift in machine load hits every size
alike (which matters for the store-flatness target, a ratio across sizes).
Warm-up rounds come first (untimed; they also verify store/erase with a get).
Times are wall-clock, in milliseconds, and include process spawn; the spawn
overhead of this harness (median time to run /bin/true) is printed in the
header for scale. All helpers run with HOME and XDG_* pointing into a
temporary directory that is removed at the end.

Peak RSS is ru_maxrss from os.wait4 on each helper process, max over the runs.
A child forked directly by Python inherits Python's RSS in ru_maxrss (Linux
records the pre-exec memory in it), which would put a ~10 MiB floor under
every number. So RSS is taken from separate runs (--rss-runs per operation and
helper) in which /bin/sh launches the helper in the background; this script is
a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so the helper is re-parented
to it and reaped here with os.wait4. These runs are not timed.

How to read the table
---------------------
  A ms, B ms   median wall time per run (ms)
  A/B          ratio of the medians (< 1.00x: A is faster)
  A MiB, B MiB peak RSS (MiB), max over the RSS runs
  A/B          ratio of the peak RSS values
  target       PASS/MISS of the target attached to that row

Targets (summary at the end):
  * get at 10 entries:       sqlite/credential-store <= 1.5x
  * get at 100,000 entries:  sqlite/credential-store <= 0.5x
  * store is flat in count:  sqlite store (new) median at 100,000 / at 10 <= 1.5
  * peak RSS of git-credential-sqlite <= 20 MiB (every run of every row set)
  * passphrase (unlocked) get / key-file get <= 1.5x
  * get: secretservice / libsecret <= 1.0x
  * one git operation at 10 entries: sqlite/credential-store <= 1.5x
  * one git operation: secretservice / libsecret <= 0.8x (libsecret rewrites the
    item on every store; ours writes nothing when nothing changed)

A MISS is a result, not an error: the script exits 0. It exits non-zero, with
the helper's stderr, if any helper run fails or a get returns the wrong
credential.

Results are also written as JSON (all samples included) to bench/out/results.json
and the table to bench/out/results.txt.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import itertools
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from urllib.parse import quote

SCRIPT_DIR = Path(__file__).resolve().parent
DEFAULT_BIN_DIR = SCRIPT_DIR.parent / ".build" / "release"
DEFAULT_OUT_DIR = SCRIPT_DIR / "out"
HELPER_NAME = "git-credential-sqlite"
SECRETSERVICE_NAME = "git-credential-secretservice"
PASS_NAME = "git-credential-pass"
WITH_TEST_KEYRING = SCRIPT_DIR.parent / "scripts" / "with-test-keyring"
LIBSECRET_SOURCE = Path("/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c")

TARGET_GET_RATIO_SMALL = 1.5     # get at 10 entries: sqlite / credential-store
TARGET_GET_RATIO_LARGE = 0.5     # get at 100,000 entries
TARGET_STORE_FLATNESS = 1.5      # store median at 100,000 / at 10
TARGET_PEAK_RSS_MIB = 20.0       # git-credential-sqlite, any run
TARGET_PASSPHRASE_GET_RATIO = 1.5  # passphrase (unlocked) get / key-file get
TARGET_SECRETSERVICE_GET_RATIO = 1.0  # get: secretservice / libsecret
TARGET_GIT_OPERATION_RATIO = 1.5      # get + store unchanged at 10 entries: sqlite / credential-store
TARGET_SECRETSERVICE_GIT_OPERATION_RATIO = 0.8  # get + store unchanged: secretservice / libsecret
GIT_OPERATION = "one git operation"
SMALL, LARGE = 10, 100_000
KEYRING_ITEMS = 200
PASS_ENTRIES = 10

PASSPHRASE = "correct horse battery staple (bench)"
UNLOCK_TIMEOUT = "1h"   # longer than any run; `lock` drops the key at the end anyway


class BenchError(Exception):
    """A helper run failed or answered wrongly; the benchmark is invalid."""


# --------------------------------------------------------------------------
# Credentials and store files
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Credential:
    host: str
    username: str
    password: str

    def request(self, with_secret: bool = True) -> bytes:
        """The request in the git credential protocol (get omits user/pass)."""
        lines = ["protocol=https", f"host={self.host}"]
        if with_secret:
            lines += [f"username={self.username}", f"password={self.password}"]
        return ("\n".join(lines) + "\n\n").encode()

    def credential_store_line(self) -> str:
        user = quote(self.username, safe="")
        password = quote(self.password, safe="")
        return f"https://{user}:{password}@{self.host}\n"


def make_credential(index: int, prefix: str = "host") -> Credential:
    return Credential(
        host=f"{prefix}-{index:06d}.example.com",
        username=f"user{index:06d}@example.com",
        password=f"ghp_{index:06d}{(index * 2654435761) % 16**12:012x}x/y:z",
    )


def make_credentials(count: int) -> list[Credential]:
    return [make_credential(i) for i in range(count)]


def write_credential_store_file(path: Path, credentials: list[Credential]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(c.credential_store_line() for c in credentials)
    os.chmod(path, 0o600)


# --------------------------------------------------------------------------
# Running processes
# --------------------------------------------------------------------------

@dataclass
class RunResult:
    argv: list[str]
    exit_code: int
    stdout: bytes
    stderr: bytes
    elapsed_ms: float | None = None   # set by run_timed
    maxrss_kib: int | None = None     # set by run_for_peak_rss


@dataclass
class Environment:
    """Where helpers run: a throwaway HOME / XDG tree and a clean env."""
    root: Path
    env: dict[str, str]

    @classmethod
    def create(cls, root: Path) -> "Environment":
        dirs = {name: root / sub for name, sub in [
            ("HOME", "home"), ("XDG_CONFIG_HOME", "home/.config"),
            ("XDG_DATA_HOME", "home/.local/share"), ("XDG_STATE_HOME", "home/.local/state"),
            ("XDG_CACHE_HOME", "home/.cache"), ("XDG_RUNTIME_DIR", "run"), ("TMPDIR", "tmp")]}
        for path in dirs.values():
            path.mkdir(parents=True, exist_ok=True, mode=0o700)
        env = {name: str(path) for name, path in dirs.items()}
        env.update(PATH=os.environ.get("PATH", "/usr/bin:/bin"), LC_ALL="C",
                   GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0")
        if "DBUS_SESSION_BUS_ADDRESS" in os.environ:   # the throwaway keyring's bus (see main)
            env["DBUS_SESSION_BUS_ADDRESS"] = os.environ["DBUS_SESSION_BUS_ADDRESS"]
        return cls(root=root, env=env)


def run_timed(argv: list[str], stdin: bytes, environment: Environment) -> RunResult:
    """Run one process the way git would and time it end to end."""
    start = time.perf_counter_ns()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=environment.env, cwd=environment.root)
    out, err = proc.communicate(stdin)
    elapsed_ms = (time.perf_counter_ns() - start) / 1e6
    return RunResult(argv, proc.returncode, out, err, elapsed_ms=elapsed_ms)


def become_child_subreaper() -> None:
    """Orphaned descendants get re-parented to us (needed by run_for_peak_rss)."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)   # an inherited SIG_IGN would auto-reap children
    PR_SET_CHILD_SUBREAPER = 36
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")


def run_for_peak_rss(argv: list[str], stdin: bytes, environment: Environment) -> RunResult:
    """Run one process and return its own ru_maxrss (KiB) from os.wait4.

    /bin/sh starts the helper in the background, prints its pid and exits; the
    helper is re-parented to this (subreaper) process and reaped with os.wait4.
    Its ru_maxrss then reflects the small shell it was forked from, not Python.
    The request is written only after the shell is gone, so the helper cannot
    finish (and be reaped by the shell) before it is re-parented to us.
    """
    request_r, request_w = os.pipe()
    pid_r, pid_w = os.pipe()
    script = f'"$@" <&{request_r} {request_r}<&- {pid_w}>&- & echo $! >&{pid_w}'
    shell = subprocess.Popen(["/bin/sh", "-c", script, "sh", *argv],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, pass_fds=(request_r, pid_w),
                             env=environment.env, cwd=environment.root)
    os.close(request_r)
    os.close(pid_w)
    with os.fdopen(pid_r) as f:
        pid_text = f.read().strip()
    if shell.wait() != 0 or not pid_text.isdigit():
        os.close(request_w)
        _, err = shell.communicate()
        raise BenchError(f"/bin/sh launcher failed ({shell.returncode}): {err.decode(errors='replace')}")
    try:
        os.write(request_w, stdin)   # requests are far below the pipe buffer size
    except BrokenPipeError:
        pass   # the helper exited early; its exit code tells why
    finally:
        os.close(request_w)
    out, err = shell.communicate()   # the helper holds these pipes: EOF once it exits
    try:
        _, status, rusage = os.wait4(int(pid_text), 0)
    except ChildProcessError:
        raise BenchError(f"could not reap {argv[0]} for its rusage (exited before the request was sent?)\n"
                         f"--- stderr ---\n{err.decode(errors='replace')}") from None
    return RunResult(argv, os.waitstatus_to_exitcode(status), out, err, maxrss_kib=rusage.ru_maxrss)


def run_with_passphrase_on_fd3(argv: list[str], passphrase: str, environment: Environment) -> RunResult:
    """Run a setup command that reads a passphrase from fd 3 (not timed)."""
    shell_argv = ["/bin/sh", "-c", 'exec "$@" 3<&0 </dev/null', "sh", *argv]
    result = run_timed(shell_argv, passphrase.encode(), environment)
    result.argv = argv
    return result


def require_success(result: RunResult) -> RunResult:
    if result.exit_code != 0:
        raise BenchError(
            f"helper run failed with exit code {result.exit_code}: {' '.join(result.argv)}\n"
            f"--- stderr ---\n{result.stderr.decode(errors='replace')}"
            f"--- stdout ---\n{result.stdout.decode(errors='replace')}")
    return result


def parse_credential_output(stdout: bytes) -> dict[str, str]:
    fields = {}
    for line in stdout.decode(errors="replace").splitlines():
        if "=" in line:
            key, value = line.split("=", 1)
            fields.setdefault(key, value)
    return fields


def require_credential(result: RunResult, expected: Credential | None) -> None:
    """A get must answer with exactly the expected user/password (or nothing)."""
    fields = parse_credential_output(result.stdout)
    if expected is None:
        if "password" in fields:
            raise BenchError(f"get returned a password for an erased entry: {' '.join(result.argv)}\n"
                             f"stdout: {result.stdout!r}")
        return
    got = (fields.get("username"), fields.get("password"))
    if got != (expected.username, expected.password):
        raise BenchError(
            f"get for {expected.host} returned the wrong credential: {' '.join(result.argv)}\n"
            f"expected username={expected.username} password={expected.password}\n"
            f"stdout: {result.stdout!r}\n--- stderr ---\n{result.stderr.decode(errors='replace')}")


# --------------------------------------------------------------------------
# Helpers under test
# --------------------------------------------------------------------------

@dataclass
class Helper:
    name: str
    base_argv: list[str]
    environment: Environment

    def argv(self, *args: str) -> list[str]:
        return [*self.base_argv, *args]

    def run(self, op: str, request: bytes,
            runner: Callable[[list[str], bytes, Environment], RunResult] = run_timed) -> RunResult:
        return require_success(runner(self.argv(op), request, self.environment))

    def get(self, credential: Credential) -> RunResult:
        return self.run("get", credential.request(with_secret=False))


def credential_store_helper(path: Path, environment: Environment) -> Helper:
    return Helper("git credential-store", ["git", "credential-store", "--file", str(path)], environment)


def sqlite_helper(binary: Path, db: Path, key_file: Path | None, environment: Environment,
                  name: str) -> Helper:
    argv = [str(binary), "--db", str(db)]
    if key_file is not None:
        argv += ["--key-file", str(key_file)]
    return Helper(name, argv, environment)


def secretservice_helper(binary: Path, environment: Environment) -> Helper:
    return Helper(SECRETSERVICE_NAME, [str(binary)], environment)


def libsecret_compiler() -> str | None:
    return shutil.which("gcc") or shutil.which("cc")


def build_libsecret(workdir: Path, environment: Environment) -> tuple[Helper, dict]:
    """git-credential-libsecret from Debian's copy of git's contrib source, built with gcc."""
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libsecret-1", "glib-2.0"],
                           capture_output=True, text=True)
    if flags.returncode != 0:
        raise BenchError(f"pkg-config libsecret-1 glib-2.0 failed (install libsecret-1-dev):\n{flags.stderr}")
    binary = workdir / "git-credential-libsecret"
    argv = [libsecret_compiler() or "gcc", "-O2", str(LIBSECRET_SOURCE), "-o", str(binary), *flags.stdout.split()]
    compiled = subprocess.run(argv, capture_output=True, text=True)
    if compiled.returncode != 0:
        raise BenchError(f"building git-credential-libsecret failed: {' '.join(argv)}\n{compiled.stderr}")
    return Helper("git-credential-libsecret", [str(binary)], environment), {"command": " ".join(argv)}


def import_into_sqlite(helper: Helper, store_file: Path) -> dict:
    start = time.perf_counter()
    result = require_success(run_timed(helper.argv("import", str(store_file)), b"", helper.environment))
    return {"seconds": round(time.perf_counter() - start, 3),
            "output": (result.stdout + result.stderr).decode(errors="replace").strip()}


def init_passphrase_store(helper: Helper) -> None:
    """init --passphrase, then unlock (caches the key in the kernel keyring)."""
    for args in (["init", "--passphrase", "--passphrase-fd", "3"],
                 ["unlock", "--timeout", UNLOCK_TIMEOUT, "--passphrase-fd", "3"]):
        require_success(run_with_passphrase_on_fd3(helper.argv(*args), PASSPHRASE, helper.environment))


def lock_passphrase_store(helper: Helper) -> None:
    result = run_timed(helper.argv("lock"), b"", helper.environment)
    if result.exit_code != 0:
        print(f"warning: '{' '.join(result.argv)}' failed: {result.stderr.decode(errors='replace')}",
              file=sys.stderr)


# --------------------------------------------------------------------------
# Operations: what one measured run does, and how it is undone untimed
# --------------------------------------------------------------------------

@dataclass
class Operation:
    name: str
    op: str                                           # get | store | erase | get+store
    request: Callable[[int], bytes]                   # run index -> stdin
    expected_get: Callable[[int], Credential | None] | None = None  # for get: checked every run
    verify: Callable[[Helper, int], None] | None = None  # untimed check (warm-up runs only)
    undo: Callable[[Helper, int], None] | None = None    # untimed, after every run


def operations_for(credentials: list[Credential], git_operation_index: int = -1) -> list[Operation]:
    count = len(credentials)
    get_target = credentials[-1]               # last line of the credential-store file
    git_operation_target = credentials[git_operation_index]
    replace_index = count // 2
    erase_indices = [i for i in range(count) if i not in (count - 1, replace_index)]

    def new_credential(k: int) -> Credential:
        return make_credential(k, prefix="new")

    def replaced(k: int) -> Credential:
        original = credentials[replace_index]
        return Credential(original.host, original.username, f"replaced-{k}-{original.password}")

    def erased(k: int) -> Credential:
        return credentials[erase_indices[k % len(erase_indices)]]

    def expect_get(credential: Credential | None, host: str, helper: Helper) -> None:
        probe = Credential(host, "", "")
        require_credential(helper.get(probe), credential)

    return [
        Operation("get", "get",
                  request=lambda k: get_target.request(with_secret=False),
                  expected_get=lambda k: get_target),
        Operation(GIT_OPERATION, "get+store",
                  request=lambda k: git_operation_target.request(with_secret=False),
                  expected_get=lambda k: git_operation_target),
        Operation("store (new)", "store",
                  request=lambda k: new_credential(k).request(),
                  verify=lambda h, k: expect_get(new_credential(k), new_credential(k).host, h),
                  undo=lambda h, k: h.run("erase", new_credential(k).request())),
        Operation("store (replace)", "store",
                  request=lambda k: replaced(k).request(),
                  verify=lambda h, k: expect_get(replaced(k), replaced(k).host, h)),
        Operation("erase", "erase",
                  request=lambda k: erased(k).request(),
                  verify=lambda h, k: expect_get(None, erased(k).host, h),
                  undo=lambda h, k: h.run("store", erased(k).request())),
    ]


def run_operation_once(helper: Helper, operation: Operation, k: int, runner, verify: bool) -> RunResult:
    if operation.op == "get+store":
        # git's two runs: the get, then the store of exactly what it answered.
        got = helper.run("get", operation.request(k), runner)
        require_credential(got, operation.expected_get(k))
        stored = helper.run("store", operation.expected_get(k).request(), runner)
        return RunResult(got.argv, 0, got.stdout, got.stderr,
                         elapsed_ms=None if got.elapsed_ms is None else got.elapsed_ms + stored.elapsed_ms,
                         maxrss_kib=None if got.maxrss_kib is None else max(got.maxrss_kib, stored.maxrss_kib))
    result = helper.run(operation.op, operation.request(k), runner)
    if operation.expected_get is not None:
        require_credential(result, operation.expected_get(k))
    if verify and operation.verify is not None:
        operation.verify(helper, k)
    if operation.undo is not None:
        operation.undo(helper, k)
    return result


# --------------------------------------------------------------------------
# Row sets: two helpers holding the same entries
# --------------------------------------------------------------------------

@dataclass
class RowSet:
    label: str
    entries: int
    a: Helper
    b: Helper
    credentials: list[Credential]
    operations: list[Operation]
    b_operations: list[Operation] | None = None   # when B works on entries of its own

    def operations_of(self, helper: Helper) -> list[Operation]:
        return self.b_operations if helper is self.b and self.b_operations else self.operations


def prepare_data(workdir: Path, size: int) -> tuple[list[Credential], Path]:
    workdir.mkdir()
    credentials = make_credentials(size)
    store_file = workdir / f"credential-store-{size}.txt"
    write_credential_store_file(store_file, credentials)
    return credentials, store_file


def sqlite_vs_credential_store(binary: Path, size: int, environment: Environment, setup_log: dict) -> RowSet:
    credentials, store_file = prepare_data(environment.root / f"n{size}", size)
    ours = sqlite_helper(binary, store_file.parent / "credentials.db", store_file.parent / "key",
                         environment, f"{HELPER_NAME} (key file)")
    setup_log[f"import_{size}"] = import_into_sqlite(ours, store_file)   # before git touches the file
    theirs = credential_store_helper(store_file, environment)
    return RowSet("sqlite vs credential-store", size, ours, theirs, credentials, operations_for(credentials))


def passphrase_vs_key_file(binary: Path, environment: Environment, setup_log: dict,
                           cleanups: list) -> RowSet:
    credentials, store_file = prepare_data(environment.root / "passphrase", SMALL)
    workdir = store_file.parent
    key_file_mode = sqlite_helper(binary, workdir / "keyfile.db", workdir / "key", environment,
                                  f"{HELPER_NAME} (key file)")
    passphrase_mode = sqlite_helper(binary, workdir / "passphrase.db", None, environment,
                                    f"{HELPER_NAME} (passphrase, unlocked)")
    setup_log[f"import_keyfile_{SMALL}"] = import_into_sqlite(key_file_mode, store_file)
    cleanups.append(lambda: lock_passphrase_store(passphrase_mode))
    init_passphrase_store(passphrase_mode)
    setup_log[f"import_passphrase_{SMALL}"] = import_into_sqlite(passphrase_mode, store_file)
    return RowSet("passphrase vs key file", SMALL, passphrase_mode, key_file_mode, credentials,
                  operations_for(credentials))


def secretservice_vs_libsecret(binary: Path, environment: Environment, setup_log: dict) -> RowSet:
    """One keyring (the caller's throwaway one), KEYRING_ITEMS items stored by libsecret.

    Both helpers get the same (last) item; store and erase work on separate halves, so
    that neither helper meets items the other wrote (libsecret reads only its schema).
    """
    workdir = environment.root / "secretservice"
    workdir.mkdir()
    theirs, setup_log["libsecret_build"] = build_libsecret(workdir, environment)
    ours = secretservice_helper(binary, environment)
    credentials = make_credentials(KEYRING_ITEMS)
    start = time.perf_counter()
    for credential in credentials:
        theirs.run("store", credential.request())
    setup_log[f"keyring_{KEYRING_ITEMS}"] = {"seconds": round(time.perf_counter() - start, 3),
                                              "stored_with": "git-credential-libsecret store"}
    half = len(credentials) // 2
    # The git operation's store writes: each helper gets and stores an item of its own half.
    return RowSet("secretservice vs libsecret", KEYRING_ITEMS, ours, theirs, credentials,
                  operations_for(credentials[:half] + credentials[-1:], git_operation_index=0),
                  b_operations=operations_for(credentials[half:], git_operation_index=0))


def pass_vs_sqlite(sqlite_binary: Path, pass_binary: Path, environment: Environment, setup_log: dict,
                   cleanups: list) -> RowSet:
    """git-credential-pass on a password store of its own (a gpg key without passphrase made
    here, a git repository: pass commits every store), beside the SQLite store with the same
    entries. Its get is one run of pass, which runs gpg, which asks gpg-agent to decrypt:
    those set the floor. The keyring's row set is not this one: gpg is not libsecret."""
    workdir = environment.root / "pass"
    credentials, store_file = prepare_data(workdir, PASS_ENTRIES)
    gnupg = workdir / "gnupg"
    gnupg.mkdir(mode=0o700)
    env = dict(environment.env, GNUPGHOME=str(gnupg), PASSWORD_STORE_DIR=str(workdir / "store"),
               GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
               GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.invalid")
    cleanups.append(lambda: subprocess.run(["gpgconf", "--kill", "all"], env=env, check=False))

    def run(argv: list[str]) -> str:
        return subprocess.run(argv, env=env, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout
    unattended = ["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", ""]
    run(unattended + ["--quick-gen-key", "Bench <bench@example.invalid>", "ed25519", "cert,sign", "never"])
    fingerprint = next(line.split(":")[9] for line in run(["gpg", "--with-colons", "--list-keys"]).splitlines()
                       if line.startswith("fpr:"))
    run(unattended + ["--quick-add-key", fingerprint, "cv25519", "encr", "never"])
    run(["pass", "init", fingerprint])
    run(["pass", "git", "init"])
    ours = Helper(PASS_NAME, [str(pass_binary)], Environment(root=environment.root, env=env))
    start = time.perf_counter()
    for credential in credentials:
        ours.run("store", credential.request())
    setup_log[f"pass_{PASS_ENTRIES}"] = {"seconds": round(time.perf_counter() - start, 3),
                                         "stored_with": f"{PASS_NAME} store"}
    sqlite = sqlite_helper(sqlite_binary, workdir / "credentials.db", workdir / "key", environment,
                           f"{HELPER_NAME} (key file)")
    setup_log[f"import_pass_{PASS_ENTRIES}"] = import_into_sqlite(sqlite, store_file)
    return RowSet("pass vs sqlite", PASS_ENTRIES, ours, sqlite, credentials, operations_for(credentials))


def check_same_data(row_set: RowSet) -> None:
    """Both helpers must answer for the first and last entry before anything is timed."""
    for helper in (row_set.a, row_set.b):
        for credential in (row_set.credentials[0], row_set.credentials[-1]):
            require_credential(helper.get(credential), credential)


# --------------------------------------------------------------------------
# Measuring, interleaved
# --------------------------------------------------------------------------

@dataclass
class Config:
    get_runs: int
    store_runs: int
    warmup: int
    rss_runs: int


@dataclass
class Lane:
    """One helper of one row set doing one operation; collects its samples."""
    row_set: RowSet
    helper: Helper
    operation: Operation
    samples_ms: list[float]
    rss_kib: list[int]


def rounds_in_alternating_order(lanes: list[Lane], round_index: int) -> list[Lane]:
    """Forward on even rounds, backward on odd ones: A1 B1 A2 B2 .. / .. B2 A2 B1 A1.

    A and B of a row set are always neighbours in time, and every round visits
    every row set, so slow drift in machine load hits all of them alike.
    """
    return lanes if round_index % 2 == 0 else lanes[::-1]


def measure_operation(row_sets: list[RowSet], op_index: int, config: Config) -> list[Lane]:
    lanes = [Lane(rs, helper, rs.operations_of(helper)[op_index], [], [])
             for rs in row_sets for helper in (rs.a, rs.b)]
    runs = config.get_runs if lanes[0].operation.op in ("get", "get+store") else config.store_runs
    print(f"  {lanes[0].operation.name}: {config.warmup} warm-up + {runs} timed + {config.rss_runs} RSS"
          f" rounds over {len(lanes)} helper/store combinations", file=sys.stderr, flush=True)
    counter = itertools.count()   # run index k: picks new hosts, erase targets, passwords
    phases = [("warm-up", config.warmup), ("timed", runs), ("rss", config.rss_runs)]
    for phase, rounds in phases:
        for round_index in range(rounds):
            k = next(counter)
            for lane in rounds_in_alternating_order(lanes, round_index):
                if phase == "warm-up":
                    run_operation_once(lane.helper, lane.operation, k, run_timed, verify=True)
                elif phase == "timed":
                    result = run_operation_once(lane.helper, lane.operation, k, run_timed, verify=False)
                    lane.samples_ms.append(result.elapsed_ms)
                else:
                    result = run_operation_once(lane.helper, lane.operation, k, run_for_peak_rss, verify=False)
                    lane.rss_kib.append(result.maxrss_kib)
    return lanes


def summarize(samples_ms: list[float], rss_kib: list[int]) -> dict:
    ordered = sorted(samples_ms)
    deciles = statistics.quantiles(ordered, n=10) if len(ordered) >= 2 else [ordered[0]] * 9
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) >= 2 else [ordered[0]] * 3
    return {
        "runs": len(ordered),
        "median_ms": round(statistics.median(ordered), 3),
        "mean_ms": round(statistics.fmean(ordered), 3),
        "min_ms": round(ordered[0], 3),
        "max_ms": round(ordered[-1], 3),
        "p10_ms": round(deciles[0], 3),
        "p90_ms": round(deciles[-1], 3),
        "iqr_ms": round(quartiles[2] - quartiles[0], 3),
        "peak_rss_mib": round(max(rss_kib) / 1024, 2) if rss_kib else None,
        "rss_runs": len(rss_kib),
        "samples_ms": [round(s, 3) for s in samples_ms],
        "rss_kib_samples": rss_kib,
    }


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def measure_all(row_sets: list[RowSet], config: Config) -> list[dict]:
    """Every operation, every row set; returns one result dict per row set."""
    for row_set in row_sets:
        check_same_data(row_set)
    results = [{"label": rs.label, "entries": rs.entries, "a": rs.a.name, "b": rs.b.name, "rows": []}
               for rs in row_sets]
    for op_index in range(len(row_sets[0].operations)):
        gc.disable()
        try:
            lanes = measure_operation(row_sets, op_index, config)
        finally:
            gc.enable()
        for i, result in enumerate(results):
            lane_a, lane_b = lanes[2 * i], lanes[2 * i + 1]
            a = summarize(lane_a.samples_ms, lane_a.rss_kib)
            b = summarize(lane_b.samples_ms, lane_b.rss_kib)
            result["rows"].append({
                "operation": lane_a.operation.name, "a": a, "b": b,
                "time_ratio": ratio(a["median_ms"], b["median_ms"]),
                "rss_ratio": ratio(a["peak_rss_mib"], b["peak_rss_mib"]),
            })
    return results


# --------------------------------------------------------------------------
# Targets
# --------------------------------------------------------------------------

def find_row(row_sets: list[dict], label: str, entries: int, operation: str) -> dict | None:
    for row_set in row_sets:
        if row_set["label"] == label and row_set["entries"] == entries:
            for row in row_set["rows"]:
                if row["operation"] == operation:
                    return row
    return None


def evaluate_targets(row_sets: list[dict]) -> list[dict]:
    """Each target: what, measured value, limit, PASS/MISS (or n/a), and the row it belongs to."""
    targets = []

    def add(name, value, limit, unit, row_key):
        status = "n/a" if value is None else ("PASS" if value <= limit else "MISS")
        targets.append({"target": name, "value": value, "limit": limit, "unit": unit,
                        "status": status, "row": row_key})

    vs = "sqlite vs credential-store"
    for size, limit in ((SMALL, TARGET_GET_RATIO_SMALL), (LARGE, TARGET_GET_RATIO_LARGE)):
        row = find_row(row_sets, vs, size, "get")
        add(f"get at {size:,} entries: sqlite/credential-store", row and row["time_ratio"], limit, "x",
            (vs, size, "get"))

    small, large = find_row(row_sets, vs, SMALL, "store (new)"), find_row(row_sets, vs, LARGE, "store (new)")
    flatness = ratio(large["a"]["median_ms"], small["a"]["median_ms"]) if small and large else None
    add(f"store flat: sqlite store (new) at {LARGE:,} / at {SMALL}", flatness, TARGET_STORE_FLATNESS, "",
        (vs, LARGE, "store (new)"))

    sqlite_peaks = [side["peak_rss_mib"]
                    for row_set in row_sets for row in row_set["rows"]
                    for side, name in ((row["a"], row_set["a"]), (row["b"], row_set["b"]))
                    if name.startswith(HELPER_NAME) and side["peak_rss_mib"] is not None]
    add("peak RSS of git-credential-sqlite (all runs)", max(sqlite_peaks) if sqlite_peaks else None,
        TARGET_PEAK_RSS_MIB, " MiB", None)

    row = find_row(row_sets, "passphrase vs key file", SMALL, "get")
    add("get: passphrase (unlocked) / key file", row and row["time_ratio"], TARGET_PASSPHRASE_GET_RATIO,
        "x", ("passphrase vs key file", SMALL, "get"))

    row = find_row(row_sets, vs, SMALL, GIT_OPERATION)
    add(f"{GIT_OPERATION} at {SMALL} entries: sqlite/credential-store", row and row["time_ratio"],
        TARGET_GIT_OPERATION_RATIO, "x", (vs, SMALL, GIT_OPERATION))

    ss = "secretservice vs libsecret"
    row = find_row(row_sets, ss, KEYRING_ITEMS, "get")
    add("get: secretservice / libsecret", row and row["time_ratio"], TARGET_SECRETSERVICE_GET_RATIO,
        "x", (ss, KEYRING_ITEMS, "get"))
    row = find_row(row_sets, ss, KEYRING_ITEMS, GIT_OPERATION)
    add(f"{GIT_OPERATION}: secretservice / libsecret", row and row["time_ratio"],
        TARGET_SECRETSERVICE_GIT_OPERATION_RATIO, "x", (ss, KEYRING_ITEMS, GIT_OPERATION))
    return targets


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def fmt(value, spec: str, suffix: str = "") -> str:
    return "-" if value is None else f"{value:{spec}}{suffix}"


def format_report(meta: dict, row_sets: list[dict], targets: list[dict]) -> str:
    lines = [
        "git credential helper benchmark  (whole-process runs; medians in ms, peak RSS in MiB)",
        f"  {meta['started']}  {meta['machine']}, {meta['cpus']} CPUs, load {meta['loadavg_start']}"
        f"  |  {meta['git_version']}  |  temp dir on {meta['temp_fs']}",
        f"  runs per helper: get {meta['config']['get_runs']}, store/erase {meta['config']['store_runs']},"
        f" warm-up {meta['config']['warmup']}, RSS {meta['config']['rss_runs']}"
        "  (interleaved rounds over all rows)",
        f"  spawn overhead of this harness (median /bin/true, included in all times):"
        f" {meta['spawn_overhead_ms']:.2f} ms",
    ]
    target_for_row = {t["row"]: t for t in targets if t["row"] is not None}
    header = (f"{'entries':>8}  {'operation':<18}{'A ms':>9}{'B ms':>9}{'A/B':>8}"
              f"{'A MiB':>9}{'B MiB':>9}{'A/B':>8}   target")
    titles = {"sqlite vs credential-store": "A = git-credential-sqlite (key file)   B = git credential-store",
              "passphrase vs key file": "A = git-credential-sqlite, passphrase mode, key cached (unlocked)"
                                        "   B = git-credential-sqlite, key-file mode",
              "secretservice vs libsecret": "A = git-credential-secretservice   B = git-credential-libsecret"
                                            " (git contrib, gcc -O2); one gnome-keyring",
              "pass vs sqlite": "A = git-credential-pass (pass, gpg, a key without passphrase, a git repository)"
                                "   B = git-credential-sqlite (key file)"}
    previous_label = None
    for row_set in row_sets:
        if row_set["label"] != previous_label:
            lines += ["", titles[row_set["label"]], header, "-" * len(header)]
            previous_label = row_set["label"]
        for row in row_set["rows"]:
            target = target_for_row.get((row_set["label"], row_set["entries"], row["operation"]))
            target_text = ""
            if target:
                target_text = f"{fmt(target['value'], '.2f', target['unit'])} <= {target['limit']}{target['unit']} {target['status']}"
                if row["operation"].startswith("store"):
                    target_text = f"A @{LARGE:,}/@{SMALL}: " + target_text
            lines.append(
                f"{row_set['entries']:>8}  {row['operation']:<18}"
                f"{fmt(row['a']['median_ms'], '9.2f')}{fmt(row['b']['median_ms'], '9.2f')}"
                f"{fmt(row['time_ratio'], '7.2f', 'x')}"
                f"{fmt(row['a']['peak_rss_mib'], '9.1f')}{fmt(row['b']['peak_rss_mib'], '9.1f')}"
                f"{fmt(row['rss_ratio'], '7.2f', 'x')}   {target_text}".rstrip())
    lines += ["", "Targets"]
    for t in targets:
        lines.append(f"  {t['status']:<5} {t['target']}: {fmt(t['value'], '.2f', t['unit'])}"
                     f" (limit {t['limit']}{t['unit']})")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------
# Machine facts for the report
# --------------------------------------------------------------------------

def filesystem_type(path: Path) -> str:
    best, fstype = "", "unknown"
    try:
        with open("/proc/mounts") as mounts:
            for line in mounts:
                _, mount_point, kind, *_ = line.split()
                if str(path).startswith(mount_point) and len(mount_point) > len(best):
                    best, fstype = mount_point, kind
    except OSError:
        pass
    return f"{fstype} ({best or '?'})"


def command_output(argv: list[str]) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def measure_spawn_overhead(environment: Environment, runs: int = 30, warmup: int = 5) -> float:
    samples = [require_success(run_timed(["/bin/true"], b"", environment)).elapsed_ms
               for _ in range(warmup + runs)]
    return statistics.median(samples[warmup:])


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Benchmark git-credential-sqlite against git credential-store (see module docstring).")
    parser.add_argument("--bin", type=Path, default=DEFAULT_BIN_DIR,
                        help=f"directory holding {HELPER_NAME} (default: %(default)s)")
    parser.add_argument("--sizes", default="10,10000,100000",
                        help="comma-separated store sizes (default: %(default)s)")
    parser.add_argument("--get-runs", type=int, help="timed runs per helper for get (default 30; quick 5)")
    parser.add_argument("--store-runs", type=int,
                        help="timed runs per helper for store and erase (default 20; quick 3)")
    parser.add_argument("--warmup", type=int, help="untimed warm-up runs per helper and operation (default 3; quick 1)")
    parser.add_argument("--rss-runs", type=int, help="untimed runs per helper and operation for peak RSS (default 5; quick 2)")
    parser.add_argument("--quick", action="store_true", help="smoke run: few repetitions")
    parser.add_argument("--skip-passphrase", action="store_true",
                        help="leave out the passphrase vs key-file row set")
    parser.add_argument("--skip-secretservice", action="store_true",
                        help="leave out the git-credential-secretservice vs git-credential-libsecret row set")
    parser.add_argument("--skip-pass", action="store_true",
                        help="leave out the git-credential-pass vs git-credential-sqlite row set")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT_DIR,
                        help="where results.json and results.txt go (default: %(default)s)")
    parser.add_argument("--tmp-root", type=Path, default=None,
                        help="parent of the temporary directory (default: system temp dir)")
    parser.add_argument("--keep-tmp", action="store_true", help="do not delete the temporary directory")
    args = parser.parse_args(argv)
    quick = args.quick
    args.config = Config(
        get_runs=args.get_runs if args.get_runs is not None else (5 if quick else 30),
        store_runs=args.store_runs if args.store_runs is not None else (3 if quick else 20),
        warmup=args.warmup if args.warmup is not None else (1 if quick else 3),
        rss_runs=args.rss_runs if args.rss_runs is not None else (2 if quick else 5),
    )
    if min(args.config.get_runs, args.config.store_runs) < 1 or min(args.config.warmup, args.config.rss_runs) < 0:
        parser.error("run counts must be >= 1 (warm-up and RSS runs >= 0)")
    if args.config.warmup < 1:
        print("note: with --warmup 0 store/erase results are not verified by a get", file=sys.stderr)
    try:
        args.sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes must be comma-separated integers")
    if not args.sizes or min(args.sizes) < 3 or max(args.sizes) > 999_999:
        parser.error("--sizes must be between 3 and 999999")
    return args


def secretservice_problem(binary: Path) -> str | None:
    """What keeps the Secret Service row set from running, if anything."""
    if not os.access(binary, os.X_OK):
        return f"{binary} not found or not executable; build it first:\n  swift build -c release --static-swift-stdlib"
    if not LIBSECRET_SOURCE.is_file():
        return f"{LIBSECRET_SOURCE} not found (Debian's git package ships it)"
    missing = [name for name, found in [("gcc", libsecret_compiler()), ("pkg-config", shutil.which("pkg-config")),
                                        ("gnome-keyring-daemon", shutil.which("gnome-keyring-daemon")),
                                        ("dbus-run-session", shutil.which("dbus-run-session"))] if not found]
    if missing:
        return f"{', '.join(missing)} not found (apt-get install gcc pkg-config libsecret-1-dev gnome-keyring dbus)"
    return None


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    binary = (args.bin / HELPER_NAME).resolve()
    if not os.access(binary, os.X_OK):
        print(f"error: {binary} not found or not executable; build it first:\n"
              f"  swift build -c release --static-swift-stdlib", file=sys.stderr)
        return 1
    if shutil.which("git") is None:
        print("error: git not found in PATH", file=sys.stderr)
        return 1
    secretservice_binary = (args.bin / SECRETSERVICE_NAME).resolve()
    if not args.skip_secretservice:
        problem = secretservice_problem(secretservice_binary)
        if problem:
            print(f"error: {problem}\n  (or leave the Secret Service out: --skip-secretservice)", file=sys.stderr)
            return 1
        if not os.environ.get("TEST_KEYRING_HOME"):
            # A throwaway keyring, never the one of whoever runs this: run again inside one.
            sys.stdout.flush()
            sys.stderr.flush()
            script = str(WITH_TEST_KEYRING)
            os.execv(script, [script, sys.executable, str(Path(__file__).resolve()), *argv])
    become_child_subreaper()

    tmp_root = Path(tempfile.mkdtemp(prefix="git-credential-bench-", dir=args.tmp_root))
    environment = Environment.create(tmp_root)
    cleanups: list[Callable[[], None]] = []
    meta = {
        "started": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "machine": f"{platform.node()} {platform.system()} {platform.release()} {platform.machine()}",
        "cpus": os.cpu_count(),
        "loadavg_start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "python": platform.python_version(),
        "git_version": command_output(["git", "--version"]),
        "helper": str(binary),
        "helper_mtime": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(binary.stat().st_mtime)),
        "helper_size_bytes": binary.stat().st_size,
        "repo_commit": command_output(["git", "-C", str(SCRIPT_DIR.parent), "rev-parse", "--short", "HEAD"]),
        "temp_dir": str(tmp_root),
        "temp_fs": filesystem_type(tmp_root),
        "sizes": args.sizes,
        "config": vars(args.config),
        "unlock_timeout": UNLOCK_TIMEOUT,
        "setup": {},
    }
    try:
        meta["spawn_overhead_ms"] = round(measure_spawn_overhead(environment), 3)
        print("setting up stores ...", file=sys.stderr, flush=True)
        setups = [sqlite_vs_credential_store(binary, size, environment, meta["setup"]) for size in args.sizes]
        if not args.skip_passphrase:
            setups.append(passphrase_vs_key_file(binary, environment, meta["setup"], cleanups))
        if not args.skip_secretservice:
            setups.append(secretservice_vs_libsecret(secretservice_binary, environment, meta["setup"]))
            meta["secretservice_helper"] = str(secretservice_binary)
            meta["keyring"] = command_output(["gnome-keyring-daemon", "--version"])
        if not args.skip_pass:
            setups.append(pass_vs_sqlite(binary, (args.bin / PASS_NAME).resolve(), environment, meta["setup"], cleanups))
        row_sets = measure_all(setups, args.config)
    except BenchError as error:
        print(f"\nBENCHMARK FAILED: {error}", file=sys.stderr)
        return 1
    finally:
        for cleanup in cleanups:
            cleanup()
        if args.keep_tmp:
            print(f"kept temporary directory {tmp_root}", file=sys.stderr)
        else:
            shutil.rmtree(tmp_root, ignore_errors=True)

    meta["loadavg_end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    targets = evaluate_targets(row_sets)
    report = format_report(meta, row_sets, targets)
    print(report, end="")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.txt").write_text(report)
    with open(args.out / "results.json", "w") as f:
        json.dump({"meta": meta, "row_sets": row_sets, "targets": targets}, f, indent=2)
        f.write("\n")
    print(f"\nwrote {args.out / 'results.json'} and {args.out / 'results.txt'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
