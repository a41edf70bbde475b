#!/usr/bin/env python3
"""How the fixtures of format 2 were made, kept as a record: never run it to replace them.

Run in an empty directory with the release build's git-credential-sqlite:
    how-they-were-made.py /path/to/.build/release/git-credential-sqlite
It writes out/sqlite-2-keyfile/ (the database at its default place, with its key file and
the key file's list of stores), out/sqlite-2-passphrase/credentials.db and out/export-2.gitcred.
"""
import os, subprocess, sys

helper = os.path.abspath(sys.argv[1])
os.umask(0o077)
work = os.getcwd()
for d in ("home", "data", "config", "out"):
    os.mkdir(d)
env = {"PATH": "/usr/bin:/bin", "HOME": work + "/home", "XDG_DATA_HOME": work + "/data",
       "XDG_CONFIG_HOME": work + "/config", "GIT_CONFIG_NOSYSTEM": "1", "LANG": "C.UTF-8"}
PASSPHRASE = b"fixture passphrase of format 2\n"
with open("phrase", "wb") as f:
    f.write(PASSPHRASE)

def run(options, input=b""):
    phrase = os.open("phrase", os.O_RDONLY)  # read afresh by each run that asks for it on fd 3
    if phrase != 3:
        os.dup2(phrase, 3)
        os.close(phrase)
    result = subprocess.run([helper, *options], input=input, env=env, capture_output=True, pass_fds=(3,))
    os.close(3)
    if result.returncode != 0 or result.stdout:
        sys.exit(f"{options}: {result}")
    return result.stderr

# Stored one by one, as git stores them; the order makes bob the newest of example.com.
STORED = [
    b"protocol=https\nhost=example.com\nusername=alice\npassword=alice-pw\n",
    b"protocol=https\nhost=example.com\nusername=bob\npassword=bob-pw\npassword_expiry_utc=4102444800\n",
    b"protocol=https\nhost=example.com:8443\nusername=alice\npassword=alice-on-8443\n",
    b"protocol=https\nhost=git.example.org\npath=team/repo.git\nusername=carol\npassword=carol-pw\n",
    b"protocol=https\nhost=api.example.net\nusername=dave\npassword=dave-access-token\npassword_expiry_utc=4102444800\noauth_refresh_token=dave-refresh-token\n",
    b"capability[]=authtype\nprotocol=https\nhost=forge.example\nauthtype=Bearer\ncredential=forge-bearer-token\n",
    b"protocol=http\nhost=127.0.0.1:3000\nusername=\npassword=token-with-empty-username\n",
    b"protocol=https\nhost=b\xc3\xbccher.example\npath=dir with space/%41\xc3\xa9.git\nusername=o'dd \"\xc3\xbcser\"\t=\npassword= lead=trail\xff\xfe\x01\x7f\\ \n",
    b"protocol=https\nhost=long.example\nusername=jwt\npassword=" + b"0123456789abcdef" * 100 + b"\n",
    # git calls store for an ephemeral credential too: it is never kept.
    b"capability[]=authtype\nprotocol=https\nhost=ephemeral.example\nusername=eve\npassword=eve-pw\nephemeral=1\n",
]
# Expired, with a refresh token: store refuses an expired password, import keeps it.
with open("expired", "wb") as f:
    f.write(b"protocol=https\nhost=old.example\nusername=frank\npassword=frank-old-pw\npassword_expiry_utc=1000000000\noauth_refresh_token=frank-refresh-token\n\n")

passphrase_db = work + "/passphrase/credentials.db"
run(["--db", passphrase_db, "--passphrase-fd", "3", "init", "--passphrase", "--scrypt-cost", "15"])
for options in ([], ["--db", passphrase_db, "--passphrase-fd", "3"]):
    for record in STORED:
        run(options + ["store"], record + b"\n")
    run(options + ["import", "expired"])
run(["export", "--file-passphrase-fd", "3", "--scrypt-cost", "15", "--output", "out/export-2.gitcred"])

os.makedirs("out/sqlite-2-keyfile/data/git-credential-sqlite")
os.makedirs("out/sqlite-2-keyfile/config/git-credential-sqlite")
os.makedirs("out/sqlite-2-passphrase")
for source, target in [("data/git-credential-sqlite/credentials.db", "sqlite-2-keyfile/data/git-credential-sqlite/credentials.db"),
                       ("config/git-credential-sqlite/key", "sqlite-2-keyfile/config/git-credential-sqlite/key"),
                       ("config/git-credential-sqlite/key.stores", "sqlite-2-keyfile/config/git-credential-sqlite/key.stores"),
                       ("passphrase/credentials.db", "sqlite-2-passphrase/credentials.db")]:
    wal = source + "-wal"
    assert not os.path.exists(wal) or os.path.getsize(wal) == 0, wal  # everything is in the database file
    os.link(source, "out/" + target)
