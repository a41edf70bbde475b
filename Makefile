# git credential helpers for Linux. `make install` and `make test` work on a fresh Debian 12.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)

# Two executables, each several programs chosen by the name it is run by (MultiCall): the
# static PIE credential-helpers, and credential-helpers-libsecret for the programs that link
# libsecret. Each name a hard link of its executable. Why, measured: docs/BUILD.md.
# Which program is a name of which executable: packaging/programs, the one list of them.
PROGRAMS := packaging/programs
programs-of = $(shell awk '!/^\#/ && $$2 == "$(1)" { print $$1 }' $(PROGRAMS))
STATIC_NAMES := $(call programs-of,credential-helpers)
LIBSECRET_NAMES := $(call programs-of,credential-helpers-libsecret)
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
TEST_PACKAGES := $(BUILD_PACKAGES) $(DEB_PACKAGES) $(DEB_TEST_PACKAGES) openssh-server git-credential-oauth python3-oauthlib pass gnupg pinentry-curses curl sqlite3 dbus dbus-x11 gnome-keyring libsecret-tools gcc \
	mandoc groff man-db bash-completion zsh fish binutils xz-utils keyutils keepassxc xvfb xauth
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
SOURCES := Package.swift $(PROGRAMS) $(shell find Sources -type f)

.PHONY: all build names install uninstall deb test-deb dist test docs stress bench fuzz fuzz-merge deps-build deps-test clean

all: build

deps-build:
	@scripts/apt-install $(BUILD_PACKAGES)

deps-test:
	@scripts/apt-install $(TEST_PACKAGES)

# Release, linked for start-up (why each flag, measured: docs/BUILD.md): static Swift runtime,
# libstdc++, SQLite and keyutils; no run path, no exported symbols; lld with packed relative
# relocations; PIE, full RELRO, non-executable stack (InstallTests checks them); type metadata
# by accessor; every function in its own section, the hot ones placed together.
# STATIC_LIBS: only archives, and an sqlite3.pc pointing -lsqlite3 there (PKG_CONFIG_PATH).
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
# gives `swift test` a throwaway gnome-keyring on a private bus. The tests against
# KeePassXC start their own with scripts/with-test-keepassxc (keepassxc, xvfb).
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

# Times against git's own helpers (bench/bench.py), a git-credential-forward get over ssh on
# loopback beside the local get (bench/forward.py: a throwaway sshd and user, so root), then
# instructions, which do not vary with the machine's load: a sqlite get, a keyring get (alone,
# and with a SQLite store beside it) and a credential-curl call (bench/instructions.py, in the
# test keyring).
bench: deps-test build
	@scripts/apt-install valgrind
	python3 bench/bench.py --bin $(RELEASE_DIR)
	python3 bench/forward.py --bin $(RELEASE_DIR)
	scripts/with-test-keyring python3 bench/instructions.py --bin $(RELEASE_DIR)

clean:
	rm -rf .build
