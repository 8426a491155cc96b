# pushnode — `make run` starts a node on the embedded default; `make test` runs everything.
SHELL := /bin/bash
APT_PACKAGES := libsodium-dev libssl-dev libcurl4-openssl-dev libsqlite3-dev libyaml-dev libmicrohttpd-dev pkg-config postgresql libpq-dev
VENV := .venv
PY := $(VENV)/bin/python
SWIFT_BUILD_FLAGS ?=

.PHONY: run test deps build release venv swift-test interop bench clean

## Install the Debian packages that are missing (needs root or sudo).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

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
swift-test: deps venv
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	PUSHNODE_PYTHON=$(CURDIR)/$(PY) swift test --skip-build $(SWIFT_BUILD_FLAGS)

## Interop and integration tests run against the release binaries.
interop: release venv
	PUSHNODE_BIN=$(CURDIR)/.build/release/pushnode $(PY) -m pytest -q Tests/Interop

## Everything, on SQLite and on a throwaway PostgreSQL cluster (Tests/Support/pg-cluster.sh) whose
## URL both suites get as PUSHNODE_TEST_PG_URL; an already set PUSHNODE_TEST_PG_URL is used as is.
test: deps
	@if [ -n "$$PUSHNODE_TEST_PG_URL" ]; then $(MAKE) --no-print-directory swift-test interop; exit $$?; fi; \
	pgdir=$$(mktemp -d /tmp/pushnode-pg.XXXXXX); \
	trap 'Tests/Support/pg-cluster.sh stop '"$$pgdir" EXIT; \
	url=$$(Tests/Support/pg-cluster.sh start "$$pgdir") || exit 1; \
	PUSHNODE_TEST_PG_URL="$$url" $(MAKE) --no-print-directory swift-test interop

bench: release
	.build/release/PushBench all

clean:
	rm -rf .build $(VENV)
