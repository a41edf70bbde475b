# git credential helpers for Linux. `make install` and `make test` work on a fresh Debian 12.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)

# Two executables, each several programs, chosen by the name it is run by (MultiCall, and
# the table in Sources/credential-helpers*/main.swift): the Swift runtime, Foundation,
# swift-crypto and the argument parser, most of each program's size, are then in the
# suite twice instead of once per program (installed: 74 MB -> 41 MB). Two, not one: the
# desktop's helpers must link libsecret, so dynamically, and a dynamic executable made a
# sqlite get 30% more instructions (the loader binding libc: what a static PIE spares).
# - credential-helpers, a static PIE: the programs that need no library of the desktop;
# - credential-helpers-libsecret: those that use libsecret.
# Each name is a hard link of its executable's file, not a symlink: the kernel then names
# the link that was run (/proc/self/exe), by which configure writes, doctor checks and
# import finds each program.
# What stands between this and 30 MB (lld link maps): the toolchain's prebuilt archives,
# 12.5 MB in each executable: the Swift runtime 5.6, FoundationEssentials 4.1 + 0.85 (which
# the argument parser and swift-crypto import), the Regex libraries 1.33 (referred to by
# FoundationEssentials' own JSONDecoder, CocoaError and String+Comparison, not by us),
# Concurrency and dispatch 0.67; then BoringSSL 1.55 and SQLite 1.16 in each. -Osize
# saved 0.9 MB and made a sqlite get 0.4% more instructions: not taken.
STATIC_NAMES := git-credential-sqlite git-credential-pass basic-auth-header credential-curl
LIBSECRET_NAMES := git-credential-secretservice git-credential-keyring
EXECUTABLES := $(STATIC_NAMES) $(LIBSECRET_NAMES)
COMMANDS := $(EXECUTABLES)
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# What install puts in share/, per directory (uninstall removes the same names).
MAN_PAGES := $(addprefix man/,$(addsuffix .1,$(COMMANDS)))
BASH_COMPLETIONS := $(addprefix completions/bash/,$(COMMANDS))
ZSH_COMPLETIONS := $(addprefix completions/zsh/_,$(COMMANDS))
FISH_COMPLETIONS := $(addsuffix .fish,$(addprefix completions/fish/,$(COMMANDS)))
# libc6-dev and libstdc++-12-dev: the archives the release links statically (libc.a for the
# static PIEs, libstdc++.a); the Swift toolchain needs them anyway, named here to be sure.
BUILD_PACKAGES := libsqlite3-dev libkeyutils-dev libsecret-1-dev pkg-config libc6-dev libstdc++-12-dev
# make deb's, and its test's (a Debian root built by debootstrap, a git server on loopback).
DEB_PACKAGES := dpkg-dev lintian
DEB_TEST_PACKAGES := debootstrap debian-archive-keyring git python3
TEST_PACKAGES := $(BUILD_PACKAGES) $(DEB_PACKAGES) $(DEB_TEST_PACKAGES) pass gnupg pinentry-curses curl sqlite3 dbus dbus-x11 gnome-keyring libsecret-tools gcc \
	mandoc groff man-db bash-completion zsh fish binutils xz-utils keyutils
RELEASE_DIR := .build/release
RELEASE_BINARIES := $(addprefix $(RELEASE_DIR)/,$(EXECUTABLES))
# $(call link,FILE,DIR,NAMES): each of NAMES in DIR a hard link of FILE (replacing what was there).
link = for name in $(3); do ln -f $(1) $(2)/$$name || exit 1; done
# $(call install-names,NAMES): the release build's file of NAMES installed as the first
# name (install's prerequisite, RELEASE_BINARIES), the other names hard links of it.
install-names = install -m 755 $(RELEASE_DIR)/$(firstword $(1)) $(BINDIR)/$(firstword $(1)) && \
	$(call link,$(BINDIR)/$(firstword $(1)),$(BINDIR),$(wordlist 2,$(words $(1)),$(1)))
# The release binaries are rebuilt when a source changes, not on every install: so that
# `make install` after `make build` (as the install test does) runs no second SwiftPM.
SOURCES := Package.swift $(shell find Sources -type f)

.PHONY: all build names install uninstall deb test-deb dist test docs stress bench fuzz fuzz-merge deps-build deps-test clean

all: build

deps-build:
	@scripts/apt-install $(BUILD_PACKAGES)

deps-test:
	@scripts/apt-install $(TEST_PACKAGES)

# Release: static Swift runtime (no libswift*.so to find at startup), no $ORIGIN run path
# (nothing to find beside the binary, and no library planted there gets loaded), stripped,
# and no exported symbols: the runtime's dladdr at startup scans the dynamic symbol table,
# which swift-crypto fills with 7,000 names (measured: 5% of a get's instructions).
# Linked for start-up (instructions of a get at 10 entries, callgrind, issue 13):
# - lld with packed relative relocations (DT_RELR): the 47k relative relocations of the
#   binary become a 9 KiB bitmap the loader walks instead of a 1 MiB table.
# - libstdc++ static (the Swift runtime's only C++ dependency): its 1,666 symbols were
#   bound at every start (6.3M -> 4.5M instructions).
# - SQLite and keyutils static too: Debian builds libsqlite3 to bind all its 1,596 symbols
#   at load, a quarter of what a get then did (4.5M -> 3.4M instructions). The price: a
#   fix to Debian's SQLite reaches the helpers only with a rebuild (the .deb then needs
#   Built-Using: sqlite3, and no libsqlite3-0). Taken, because what SQLite reads here is
#   our own SQL and a database that PrivateFiles has checked is the user's own, in the
#   user's own directories: a malicious database needs write access to it, which is
#   already everything. libsecret, GLib and libc stay shared for the two helpers that
#   use the desktop; git-credential-sqlite, -pass, basic-auth-header and credential-curl are static PIEs, libc
#   included (Package.swift: staticPIE; a get 2.49M -> 1.99M instructions).
# - How: STATIC_LIBS holds only archives (linked to the system's) and an sqlite3.pc that
#   points -lsqlite3 there, found first through PKG_CONFIG_PATH; -lstdc++ and -lkeyutils
#   find the archives there first too (that -L precedes the system's).
# - Kept: PIE (ASLR), full RELRO (-z relro -z now: the GOT read-only before main; costs
#   0.25M instructions of binding at load), non-executable stack, no RPATH/RUNPATH
#   (InstallTests checks each, on the installed binaries).
# - Concrete generic types (HMAC<SHA256>, [String: [UInt8]], ...) get their metadata from
#   accessors given the witness tables, not from mangled names: a mangled name makes the
#   runtime check each conformance by a linear scan of all 4,475 conformance records, the
#   first time (5 such checks were 1.2M instructions of a get). For every module, swift-crypto's too.
# - The code a get, store or erase runs placed together (packaging/hot-symbols.txt, written
#   by scripts/hot-symbols): start-up is mostly page faults, one per 64 KiB window of code
#   touched, and those ~1,800 functions were spread over 14 MB. Every function of ours,
#   swift-crypto's and the argument parser's in a section of its own, so that the linker
#   can move it (and drop it when unused: 0.9 MB smaller). A get: 124 -> 53 code faults,
#   2.11 -> 1.75 ms, against git credential-store's 1.12 ms (files read from disk).
STATIC_LIBS := .build/static-libs
HOT_SYMBOLS := packaging/hot-symbols.txt
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker --no-export-dynamic \
	-Xswiftc -use-ld=lld -Xswiftc -L$(CURDIR)/$(STATIC_LIBS) \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now \
	-Xlinker -z -Xlinker noexecstack \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections \
	-Xlinker --symbol-ordering-file=$(CURDIR)/$(HOT_SYMBOLS) -Xlinker --no-warn-symbol-ordering
# $(call strip-names,EXECUTABLE,NAMES): NAMES in RELEASE_DIR, the first a stripped copy of
# SwiftPM's EXECUTABLE (left as it is, with its symbols, for scripts/hot-symbols), the
# others hard links of it (removed first: an older build's names may be links of EXECUTABLE).
strip-names = rm -f $(addprefix $(RELEASE_DIR)/,$(2)) && strip -o $(RELEASE_DIR)/$(firstword $(2)) $(RELEASE_DIR)/$(1) && \
	$(call link,$(RELEASE_DIR)/$(firstword $(2)),$(RELEASE_DIR),$(wordlist 2,$(words $(2)),$(2)))
build: $(RELEASE_BINARIES)

$(RELEASE_BINARIES) &: $(SOURCES) $(HOT_SYMBOLS) Makefile
	@scripts/apt-install $(BUILD_PACKAGES)
	mkdir -p $(STATIC_LIBS)
	ln -sf "$$($(dir $(SWIFT))clang -print-file-name=libstdc++.a)" $(STATIC_LIBS)/libstdc++.a
	libdir="$$(pkg-config --variable=libdir sqlite3)" && ln -sf "$$libdir/libsqlite3.a" "$$libdir/libkeyutils.a" $(STATIC_LIBS)/
	printf 'Name: sqlite3\nDescription: SQLite, linked statically (Makefile)\nVersion: %s\nLibs: -L%s -lsqlite3 -lm\nCflags:\n' \
		"$$(pkg-config --modversion sqlite3)" "$(CURDIR)/$(STATIC_LIBS)" > $(STATIC_LIBS)/sqlite3.pc
	@# SwiftPM does not know the ordering file as an input of the link: a newer one relinks.
	for product in credential-helpers credential-helpers-libsecret; do \
		[ ! $(HOT_SYMBOLS) -nt $(RELEASE_DIR)/$$product ] || rm -f $(RELEASE_DIR)/$$product; \
	done
	for product in credential-helpers credential-helpers-libsecret; do \
		PKG_CONFIG_PATH=$(CURDIR)/$(STATIC_LIBS) $(SWIFT) build $(RELEASE_FLAGS) --product $$product || exit 1; \
	done
	$(call strip-names,credential-helpers,$(STATIC_NAMES))
	$(call strip-names,credential-helpers-libsecret,$(LIBSECRET_NAMES))

# Each program's name in NAMES_DIR, linked to its executable there: swift build makes the
# executables, not their names. The tests run this for .build/debug (TestEnvironment.swift).
NAMES_DIR ?= .build/debug
names:
	@$(call link,$(NAMES_DIR)/credential-helpers,$(NAMES_DIR),$(STATIC_NAMES))
	@$(call link,$(NAMES_DIR)/credential-helpers-libsecret,$(NAMES_DIR),$(LIBSECRET_NAMES))

install: $(RELEASE_BINARIES)
	install -d -m 755 $(BINDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	$(call install-names,$(STATIC_NAMES))
	$(call install-names,$(LIBSECRET_NAMES))
	install -m 644 $(MAN_PAGES) $(MANDIR)/
	install -m 644 $(BASH_COMPLETIONS) $(BASHDIR)/
	install -m 644 $(ZSH_COMPLETIONS) $(ZSHDIR)/
	install -m 644 $(FISH_COMPLETIONS) $(FISHDIR)/
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on PATH; add it, or git will not find the helpers" ;; esac

# First says what it leaves behind for the user running it (scripts/uninstall-report: stored
# credentials, git config lines naming the helpers), found before the programs go (it asks
# the installed git-credential-secretservice). Not for a staged DESTDIR (a package build).
uninstall:
	@[ -n "$(DESTDIR)" ] || scripts/uninstall-report $(BINDIR) $(EXECUTABLES) || true
	rm -f $(addprefix $(BINDIR)/,$(COMMANDS)) $(addprefix $(MANDIR)/,$(notdir $(MAN_PAGES))) \
		$(addprefix $(BASHDIR)/,$(notdir $(BASH_COMPLETIONS))) $(addprefix $(ZSHDIR)/,$(notdir $(ZSH_COMPLETIONS))) \
		$(addprefix $(FISHDIR)/,$(notdir $(FISH_COMPLETIONS)))

# The Debian package, from what install puts under /usr (scripts/build-deb adds what Debian
# wants besides), checked by lintian: errors and warnings fail, unless overridden with a
# reason (packaging/debian/lintian-overrides).
DEB_DIR := .build/deb
deb: build
	@scripts/apt-install $(DEB_PACKAGES)
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/debian/git-credential-helpers
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_DIR)/debian/git-credential-helpers PREFIX=/usr >/dev/null
	SWIFT=$(SWIFT) scripts/build-deb $(DEB_DIR) > $(DEB_DIR)/name
	lintian --fail-on error,warning --tag-display-limit 0 $$(cat $(DEB_DIR)/name)
	@echo "built $$(cat $(DEB_DIR)/name)"

# The package on a machine that has never seen Swift: a fresh Debian 12 root (debootstrap,
# cached under /var/cache), with a git server on loopback (scripts/test-deb).
test-deb: deb
	@scripts/apt-install $(DEB_PACKAGES) $(DEB_TEST_PACKAGES)
	scripts/test-deb $$(cat $(DEB_DIR)/name)

# The release archive for other glibc distributions: what `make install` stages (the one
# description of the layout) and install.sh (scripts/dist-install.sh), packed by
# scripts/make-dist into DIST_DIR with SHA256SUMS.
VERSION := $(shell sed -n 's/.*static let number = "\(.*\)".*/\1/p' Sources/CredentialCore/Version.swift)
DIST_DIR ?= .build/dist
DIST_NAME := git-credential-helpers-$(VERSION)-linux-x86_64
# xz and readelf (which glibc the binaries need) are not in a minimal Debian.
DIST_PACKAGES := xz-utils binutils
dist: build
	@scripts/apt-install $(DIST_PACKAGES)
	rm -rf $(DIST_DIR)/stage
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DIST_DIR)/stage) PREFIX=/$(DIST_NAME) >/dev/null
	scripts/make-dist $(DIST_DIR)/stage/$(DIST_NAME) $(DIST_DIR) $(VERSION)
	rm -rf $(DIST_DIR)/stage

# man/*.1 and completions/ from the argument parser and man/sections/ (make test checks
# that the committed ones are what this writes).
docs:
	$(SWIFT) build
	SWIFT=$(SWIFT) scripts/generate-docs

# The Secret Service tests need a session bus and an unlocked keyring: with-test-keyring
# gives `swift test` a throwaway gnome-keyring on a private bus.
# The reliability parts append their figures to REPORT; the table comes at the end.
REPORT := .build/reliability.tsv
# The install test installs the release build: it is built first, outside `swift test`.
# test-deb after `swift test`, alone: its apt and dpkg runs do not slow the timed tests.
test: deps-test build
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/generate-docs --check
	rm -f $(REPORT)
	RELIABILITY_REPORT=$(CURDIR)/$(REPORT) scripts/with-test-keyring $(SWIFT) test --skip-build --disable-xctest
	$(MAKE) --no-print-directory test-deb
	RELIABILITY_REPORT=$(CURDIR)/$(REPORT) $(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_TEST_SECONDS)
	@scripts/reliability-summary $(REPORT)

# The reliability suites (Tests/EndToEndTests/Reliability and the figures they record)
# at larger sizes: 16 x 2000 operations, 2000 killed stores, ...
stress: deps-test
	$(SWIFT) build --build-tests
	rm -f $(REPORT)
	CREDENTIAL_STRESS=1 RELIABILITY_REPORT=$(CURDIR)/$(REPORT) scripts/with-test-keyring \
		$(SWIFT) test --skip-build --disable-xctest --filter 'Reliability|HostileInput|SecretServiceLockedTests'
	@scripts/reliability-summary $(REPORT)

# Coverage-guided fuzzing of the codec (libFuzzer): fuzz/FuzzCodec.swift, compiled with the
# codec's sources and the invariants it checks (Tests/CredentialCoreTests/CodecInvariants.swift,
# which make test also runs on the seed corpus). New inputs go to $(FUZZ_DIR)/corpus, never
# to the committed fuzz/corpus; `make fuzz-merge` adds those that bring new coverage there.
SWIFTC ?= $(dir $(SWIFT))swiftc
FUZZ_SECONDS ?= 300
FUZZ_TEST_SECONDS ?= 20
FUZZ_DIR := .build/fuzz
FUZZER := $(FUZZ_DIR)/fuzz-codec
FUZZ_SOURCES := fuzz/FuzzCodec.swift Tests/CredentialCoreTests/CodecInvariants.swift \
	$(addprefix Sources/CredentialCore/,Value.swift Credential.swift WireFormat.swift CredentialURL.swift Hex.swift SystemIO.swift BasicAuth.swift Base64.swift)

$(FUZZER): $(FUZZ_SOURCES)
	mkdir -p $(FUZZ_DIR)
	$(SWIFTC) -parse-as-library -O -sanitize=fuzzer,address -use-ld=lld -module-name FuzzCodec -o $@ $(FUZZ_SOURCES)

fuzz: $(FUZZER)
	scripts/fuzz-codec $(FUZZER) $(FUZZ_SECONDS) $(FUZZ_DIR)

fuzz-merge: $(FUZZER)
	$(FUZZER) -merge=1 fuzz/corpus $(FUZZ_DIR)/corpus

bench: deps-test build
	python3 bench/bench.py --bin $(RELEASE_DIR)

clean:
	rm -rf .build
