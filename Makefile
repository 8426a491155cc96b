# pushnode — `make run` starts a node on the embedded default; `make test` runs everything.
SHELL := /bin/bash
## What building and running a node needs; the tests add a PostgreSQL server, Chromium (the status
## page test), patchelf (the .deb), curl and Prometheus (promtool and the alert test), which a
## self-hoster's `make release` never installs.
APT_PACKAGES := libsodium-dev libssl-dev libcurl4-openssl-dev libnghttp2-dev libsqlite3-dev libyaml-dev libmicrohttpd-dev pkg-config libpq-dev
TEST_APT_PACKAGES := $(APT_PACKAGES) postgresql patchelf curl chromium prometheus
## `PushBench e2e` sends to nghttpd and measures h2load against it (openssl makes its throwaway CA).
BENCH_APT_PACKAGES := $(APT_PACKAGES) nghttp2-server nghttp2-client openssl
VENV := .venv
PY := $(VENV)/bin/python
SWIFT_BUILD_FLAGS ?=
## Seconds each fuzz target runs: `make fuzz FUZZ_SECONDS=600`; `make test` runs each FUZZ_SHORT_SECONDS.
FUZZ_SECONDS ?= 60
FUZZ_SHORT_SECONDS ?= 10

BIN := .build/release/pushnode
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
# The Debian version of NodeVersion.current: 0.1.0-dev -> 0.1.0~dev (sorts before 0.1.0).
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/PushSupport/NodeVersion.swift | tr - '~')
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB := .build/pushnode_$(VERSION)_$(DEB_ARCH).deb
# zstd: read by dpkg on Debian 12; about 3 s here for the ~90 MB tree (gzip: 25 s, and a larger file).
DEB_COMPRESSION ?= zstd

.PHONY: image-test run test deps test-deps build release venv swift-test interop fuzz fuzz-short fuzz-seeds sanitize sanitize-address sanitize-thread soak fault-test bench clean install deb

## Install the Debian packages that are missing (needs root or sudo): `deps` for building and
## running, `test-deps` for the test suites as well.
install-missing = @missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

deps:
	$(call install-missing,$(APT_PACKAGES))

test-deps:
	$(call install-missing,$(TEST_APT_PACKAGES))

release: deps
	swift build -c release $(SWIFT_BUILD_FLAGS)

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

## Start a node on the embedded default (127.0.0.1:8765, SQLite under ./pushnode-data).
run: release
	.build/release/pushnode serve $(ARGS)

## The Python venv with the independent implementations the interop tests check against.
venv: $(VENV)/.ready
$(VENV)/.ready: Tests/Interop/requirements.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r Tests/Interop/requirements.txt
	touch $@

## Swift tests; suites that start mock providers use the venv's Python (PUSHNODE_PYTHON).
swift-test: test-deps venv
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	PUSHNODE_PYTHON=$(CURDIR)/$(PY) swift test --skip-build $(SWIFT_BUILD_FLAGS)

## Interop and integration tests run against the release binaries.
interop: test-deps release venv
	PUSHNODE_BIN=$(CURDIR)/.build/release/pushnode $(PY) -m pytest -q Tests/Interop

## libFuzzer targets for every parser of outside bytes (Tests/Fuzz/README.md): built apart
## (.build/fuzz, -sanitize=fuzzer,address), each run FUZZ_SECONDS; fails on any crash.
fuzz: deps
	Tests/Fuzz/run.sh $(FUZZ_SECONDS)

fuzz-short: deps
	Tests/Fuzz/run.sh $(FUZZ_SHORT_SECONDS)

## Rewrites the seed corpora Tests/Fuzz/corpus/<target>/ from Spec/vectors and the door's encoders.
fuzz-seeds: deps
	Tests/Fuzz/run.sh seeds

## The Swift tests under AddressSanitizer, then ThreadSanitizer, each built once in its own build path
## (.build/asan, .build/tsan), on a throwaway PostgreSQL cluster as in `make test` (an already set
## PUSHNODE_TEST_PG_URL is used as is). A race fails the run (halt_on_error=1); ASan stops at its
## first error anyway. SWIFT_BACKTRACE=enable=no: Swift's backtracer under ASan made bogus reports.
## --disable-xctest: every suite is Swift Testing, and the empty XCTest pass leaks XCTest's own
## suite objects at exit (368 bytes, all in libXCTest), which LeakSanitizer reports.
## SANITIZE_FILTER narrows both runs (e.g. SANITIZE_FILTER=PushAnySync). Not part of `make test`.
## LeakSanitizer is on (SANITIZE_LEAKS=0 turns it off): a shut-down Node is freed — its sampled
## metrics hold what they sample (the API server, the store) weakly, and a closed store drops its
## enqueue handlers (which hold the delivery engine).
SANITIZE_FILTER ?=
SANITIZE_LEAKS ?= 1
SANITIZE_ENV = SWIFT_BACKTRACE=enable=no PUSHNODE_PYTHON=$(CURDIR)/$(PY)
sanitize: test-deps venv
	@start=$$(date +%s); \
	if [ -n "$$PUSHNODE_TEST_PG_URL" ]; then $(MAKE) --no-print-directory sanitize-address sanitize-thread || exit $$?; \
	else \
	  pgdir=$$(mktemp -d /tmp/pushnode-pg.XXXXXX); \
	  trap 'Tests/pg-cluster.sh stop '"$$pgdir" EXIT; \
	  url=$$(Tests/pg-cluster.sh start "$$pgdir") || exit 1; \
	  PUSHNODE_TEST_PG_URL="$$url" $(MAKE) --no-print-directory sanitize-address sanitize-thread || exit $$?; \
	fi; \
	echo "make sanitize: clean in $$(( $$(date +%s) - start )) s"

sanitize-address: test-deps venv
	swift build --build-tests --sanitize=address --build-path .build/asan $(SWIFT_BUILD_FLAGS)
	$(SANITIZE_ENV) ASAN_OPTIONS=detect_leaks=$(SANITIZE_LEAKS) swift test --skip-build --disable-xctest --sanitize=address --build-path .build/asan $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')

sanitize-thread: test-deps venv
	swift build --build-tests --sanitize=thread --build-path .build/tsan $(SWIFT_BUILD_FLAGS)
	$(SANITIZE_ENV) TSAN_OPTIONS=halt_on_error=1 swift test --skip-build --disable-xctest --sanitize=thread --build-path .build/tsan $(if $(SANITIZE_FILTER),--filter '$(SANITIZE_FILTER)')

## Everything, on SQLite and on a throwaway PostgreSQL cluster (Tests/pg-cluster.sh) whose
## URL both suites get as PUSHNODE_TEST_PG_URL; an already set PUSHNODE_TEST_PG_URL is used as is.
test: test-deps
	@if [ -n "$$PUSHNODE_TEST_PG_URL" ]; then $(MAKE) --no-print-directory swift-test interop fuzz-short; exit $$?; fi; \
	pgdir=$$(mktemp -d /tmp/pushnode-pg.XXXXXX); \
	trap 'Tests/pg-cluster.sh stop '"$$pgdir" EXIT; \
	url=$$(Tests/pg-cluster.sh start "$$pgdir") || exit 1; \
	PUSHNODE_TEST_PG_URL="$$url" $(MAKE) --no-print-directory swift-test interop fuzz-short

## The release binary, built if it is missing (install and deb never rebuild one that exists).
$(BIN):
	$(MAKE) --no-print-directory release

## Install the release binary, the example config, the systemd unit (PREFIX=/usr/local, DESTDIR
## honoured): `make release && sudo make install`. /etc/pushnode/config.yaml (dataDir
## /var/lib/pushnode) is written only when there is none.
install: $(BIN)
	install -Dm755 $(BIN) $(DESTDIR)$(BINDIR)/pushnode
	install -Dm644 config.yaml.example $(DESTDIR)$(PREFIX)/share/pushnode/config.yaml.example
	install -d $(DESTDIR)$(UNITDIR)
	sed 's|/usr/bin/pushnode|$(BINDIR)/pushnode|' contrib/pushnode.service > $(DESTDIR)$(UNITDIR)/pushnode.service
	chmod 644 $(DESTDIR)$(UNITDIR)/pushnode.service
	@if [ ! -e $(DESTDIR)$(SYSCONFDIR)/pushnode/config.yaml ]; then \
	  install -d $(DESTDIR)$(SYSCONFDIR)/pushnode; \
	  sed 's|^dataDir: .*|dataDir: /var/lib/pushnode|' config.yaml.example > $(DESTDIR)$(SYSCONFDIR)/pushnode/config.yaml; \
	  chmod 644 $(DESTDIR)$(SYSCONFDIR)/pushnode/config.yaml; \
	else echo "keeping $(DESTDIR)$(SYSCONFDIR)/pushnode/config.yaml"; fi

## The Debian package (dpkg-deb) from the release binary, Swift runtime bundled: $(DEB).
deb: $(BIN)
	@command -v patchelf >/dev/null || { SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get install -y -qq patchelf; }
	contrib/debian/build-deb.sh $(BIN) $(VERSION) $(DEB_ARCH) $(DEB) $(DEB_COMPRESSION)

## The container image's runtime stage, built by podman (--isolation chroot) on a Debian 12 base
## made by mmdebstrap around the release binary built here, then run from its root filesystem
## (Tests/Container/image-test.sh): no registry and no container runtime needed. Not in `make test`
## (about 4 min; 8 with the first base). The base is kept in .build/image.
image-test: $(BIN)
	$(call install-missing,podman mmdebstrap patchelf)
	Tests/Container/image-test.sh $(BIN)

## The soak (Tests/Soak/soak.py, also `PushBench soak`): Notify under `kill -9` every 1.5–4 s with
## restarts, then the exact account; SQLite, then PostgreSQL with a database stop/start. Fails on a
## lost 200 or an answer other than 200 / 503 storage.unavailable. `make test` runs a short one.
SOAK_MINUTES ?= 3
soak: test-deps release venv
	$(PY) Tests/Soak/soak.py --binary $(BIN) --storage sqlite --minutes $(SOAK_MINUTES)
	$(PY) Tests/Soak/soak.py --binary $(BIN) --storage postgres --minutes $(SOAK_MINUTES)

## Faults that need root to stage (a full disk on a small tmpfs): not part of `make test`.
fault-test: test-deps release venv
	PUSHNODE_BIN=$(CURDIR)/$(BIN) $(PY) -m pytest -q -s Tests/Faults

## Figures, never a pass/fail: the crypto rates, then deliveries end to end through nghttpd
## (PushBench e2e; BENCH_ARGS e.g. "--runs 5"). Other suites: .build/release/PushBench help.
bench: release venv
	$(call install-missing,$(BENCH_APT_PACKAGES))
	$(PY) -m pip install -q --disable-pip-version-check -r Tests/Bench/requirements.txt
	.build/release/PushBench crypto
	.build/release/PushBench e2e $(BENCH_ARGS)

clean:
	rm -rf .build $(VENV)
