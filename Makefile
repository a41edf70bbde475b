# git credential helpers for Linux. `make install` and `make test` work on a fresh Debian 12.
PREFIX ?= $(HOME)/.local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)

EXECUTABLES := git-credential-sqlite git-credential-secretservice git-credential-keyring basic-auth-header
SCRIPTS := scripts/credential-curl
BUILD_PACKAGES := libsqlite3-dev libkeyutils-dev libsecret-1-dev pkg-config
TEST_PACKAGES := $(BUILD_PACKAGES) git curl python3 sqlite3 dbus dbus-x11 gnome-keyring libsecret-tools gcc
RELEASE_DIR := .build/release

.PHONY: all build install uninstall test stress bench fuzz fuzz-merge deps-build deps-test clean

all: build

deps-build:
	@scripts/apt-install $(BUILD_PACKAGES)

deps-test:
	@scripts/apt-install $(TEST_PACKAGES)

# Release: static Swift runtime (no libswift*.so to find at startup), no $ORIGIN run path
# (nothing to find beside the binary, and no library planted there gets loaded), stripped.
build: deps-build
	for product in $(EXECUTABLES); do \
		$(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath --product $$product || exit 1; \
	done
	strip $(addprefix $(RELEASE_DIR)/,$(EXECUTABLES))

install: build
	install -d -m 755 $(BINDIR)
	install -m 755 $(addprefix $(RELEASE_DIR)/,$(EXECUTABLES)) $(SCRIPTS) $(BINDIR)/
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "note: $(PREFIX)/bin is not on PATH; add it, or git will not find the helpers" ;; esac

uninstall:
	rm -f $(addprefix $(BINDIR)/,$(EXECUTABLES) $(notdir $(SCRIPTS)))

# The Secret Service tests need a session bus and an unlocked keyring: with-test-keyring
# gives `swift test` a throwaway gnome-keyring on a private bus.
# The reliability parts append their figures to REPORT; the table comes at the end.
REPORT := .build/reliability.tsv
test: deps-test
	$(SWIFT) build --build-tests
	rm -f $(REPORT)
	RELIABILITY_REPORT=$(CURDIR)/$(REPORT) scripts/with-test-keyring $(SWIFT) test --skip-build --disable-xctest
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
	$(addprefix Sources/CredentialCore/,Value.swift Credential.swift WireFormat.swift CredentialURL.swift SystemIO.swift BasicAuth.swift Base64.swift)

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
