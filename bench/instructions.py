#!/usr/bin/env python3
"""Instructions (valgrind --tool=callgrind, children included) of two everyday calls, which
do not vary with the machine's load as times do:

  sqlite get      one `git-credential-sqlite get` of the last of 10 stored credentials
                  (key-file mode), as git runs it
  credential-curl one `credential-curl -sS -o /dev/null URL` against a local Basic-auth
                  server (Tests/Fixtures/basic_auth_server.py, 127.0.0.1), the credential
                  from git-credential-sqlite through `git credential fill`, approved after
                  the 200: every process it starts counted (git, the helper, curl)

    bench/instructions.py --bin DIR [--curl PATH] [--runs N]

DIR holds the built programs (make build: .build/release). --curl names the credential-curl
to measure (default: DIR/credential-curl, else scripts/credential-curl beside DIR's
basic-auth-header, as an older tree installed it), so that two trees can be compared side
by side. A shell script's subshells are counted as a lower bound (see callgrind()). Each
figure is the median of --runs runs (default 3); the part of credential-curl
itself (what is not git, curl or the helper) is given beside its total.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "Tests" / "Fixtures" / "basic_auth_server.py"
SHARED = ("git", "curl", "git-credential-sqlite")


def callgrind(argv, stdin, env, directory):
    """Instructions of argv and its children, by program name. A child that a process forks
    without exec (a shell's subshell) starts as a copy of its parent, counters included,
    and callgrind writes it as a process with the parent's command line: so each command
    line counts once, at its largest figure (the process that ran longest). For a shell
    script that forks, that is a lower bound: the subshells' own work after the fork is
    left out. Programs that exec (git, curl, posix_spawn) are counted whole."""
    for old in directory.glob("cg.*"):
        old.unlink()
    result = subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", "--callgrind-out-file=" + str(directory / "cg.%p"),
                             *argv], input=stdin, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if result.returncode != 0:
        sys.exit(f"{argv[0]} failed under valgrind ({result.returncode}): {result.stderr.decode(errors='replace')[-2000:]}")
    by_line = {}
    for path in directory.glob("cg.*"):
        command, total = "?", 0
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("cmd: "):
                command = line[5:].strip()
            elif line.startswith("summary: ") or line.startswith("totals: "):
                total = int(line.split()[1])
        by_line[command] = max(by_line.get(command, 0), total)
    counts = {}
    for command, total in by_line.items():
        name = os.path.basename(command.split()[0]) if command.split() else "?"
        counts[name] = counts.get(name, 0) + total
    return counts, result.stdout


def keyring_gets(bin_dir, work, median):
    """git-credential-keyring's get at the desktop (the test keyring's bus), answered from
    the keyring: alone, then with a SQLite store beside it (written where no bus was), whose
    items it reads and compares with the keyring's by when they were stored."""
    home = work / "keyring-home"
    home.mkdir(mode=0o700)
    env = {"HOME": str(home), "PATH": f"{bin_dir}:/usr/bin:/bin", "LC_ALL": "C.UTF-8", "GIT_CONFIG_NOSYSTEM": "1",
           "DBUS_SESSION_BUS_ADDRESS": os.environ["DBUS_SESSION_BUS_ADDRESS"]}
    helper = str(bin_dir / "git-credential-keyring")
    over_ssh = {k: v for k, v in env.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    request = b"protocol=https\nhost=keyring.example\n\n"
    subprocess.run([helper, "store"], input=b"protocol=https\nhost=keyring.example\nusername=alice\npassword=at-the-desktop\n\n",
                   env=env, check=True)
    alone, _, _ = median([helper, "get"], request, env)
    subprocess.run([helper, "store"], input=b"protocol=https\nhost=keyring.example\nusername=bob\npassword=over-ssh\n\n",
                   env=over_ssh, check=True)
    beside, _, _ = median([helper, "get"], request, env)
    return alone, beside


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", type=Path, default=ROOT / ".build" / "release")
    parser.add_argument("--curl", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    bin_dir = args.bin.resolve()
    curl = args.curl or (bin_dir / "credential-curl" if (bin_dir / "credential-curl").exists() else ROOT / "scripts" / "credential-curl")
    if not shutil.which("valgrind"):
        sys.exit("valgrind is not installed: apt-get install valgrind")
    work = Path(tempfile.mkdtemp(prefix="instructions-"))
    try:
        home = work / "home"
        home.mkdir(mode=0o700)
        traces = work / "cg"
        traces.mkdir()
        env = {"HOME": str(home), "PATH": f"{bin_dir}:/usr/bin:/bin", "LC_ALL": "C.UTF-8",
               "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
        credential_file = work / "credential"
        credential_file.write_bytes(b"alice:s3cret")
        server = subprocess.Popen([sys.executable, str(SERVER), "--credential-file", str(credential_file),
                                   "--record-file", str(work / "record"), "--elsewhere-record-file", str(work / "elsewhere")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        port = server.stdout.readline().split()[0].decode()
        helper = str(bin_dir / "git-credential-sqlite")
        for index in range(10):
            host = f"127.0.0.1:{port}" if index == 9 else f"host{index}.example"
            subprocess.run([helper, "store"], input=f"protocol=http\nhost={host}\nusername=alice\npassword=s3cret\n\n".encode(),
                           env=env, check=True)
        subprocess.run(["git", "config", "--global", "credential.helper", helper], env=env, check=True)
        request = f"protocol=http\nhost=127.0.0.1:{port}\n\n".encode()

        def median(argv, stdin, environment=env):
            runs = [callgrind(argv, stdin, environment, traces)[0] for _ in range(args.runs)]
            totals = [sum(run.values()) for run in runs]
            own = [sum(v for k, v in run.items() if k not in SHARED) for run in runs]
            return statistics.median(totals), statistics.median(own), runs[-1]

        get_total, _, _ = median([helper, "get"], request)
        keyring = keyring_gets(bin_dir, work, median) if "DBUS_SESSION_BUS_ADDRESS" in os.environ else None
        curl_total, curl_own, curl_parts = median([str(curl), "-sS", "-o", "/dev/null", f"http://127.0.0.1:{port}/echo"], b"")
        server.stdin.close()
        server.wait(timeout=10)
        print(f"instructions (callgrind, median of {args.runs}):")
        print(f"  sqlite get            {get_total:>12,}")
        if keyring:
            print(f"  keyring get, desktop  {keyring[0]:>12,}   with a SQLite store beside it {keyring[1]:,} ({keyring[1] / keyring[0]:.2f}x: its items are compared by age)")
        print(f"  credential-curl call  {curl_total:>12,}   of which credential-curl itself {curl_own:,} ({curl})")
        print("    by program: " + ", ".join(f"{k} {v:,}" for k, v in sorted(curl_parts.items(), key=lambda kv: -kv[1])))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
