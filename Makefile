# The two commands that do all set-up on a fresh machine: `make play` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
UV := $(PYTHON) -m uv
export UV_PYTHON_DOWNLOADS := never
## The environment's interpreter: Debian's own CPython 3.11 where there is one (every Debian with
## python3 has it). Debian builds it with PGO and LTO, and it runs the engine about 1.25 times as
## fast as a build without them (pyenv's default). Any CPython 3.11 works: VENV_PYTHON=3.11 lets
## uv pick one.
VENV_PYTHON ?= $(firstword $(wildcard /usr/bin/python3.11) 3.11)
export UV_PYTHON := $(VENV_PYTHON)
ARGS ?=

.PHONY: play test lint typecheck jstest pytest setup uv browser postgresql hosting prometheus network node pyodide bench clean

## uv itself, from PyPI, when this Python does not have it yet.
uv:
	@$(UV) --version >/dev/null 2>&1 || $(PYTHON) -m pip install --quiet uv

setup: uv
	$(UV) sync --locked

## Start the game and open it in the browser.
play: setup pyodide
	$(UV) run --locked magdagdon $(ARGS)

## Debian's Chromium for the browser tests (Playwright's own download cannot work offline).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

## Debian's PostgreSQL server for the store's tests, which start their own server from its
## binaries (/usr/lib/postgresql/*/bin) in a temporary directory: the cluster that the package
## itself may create is never used.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null)

## Debian's nginx and openssl for the reverse-proxy test (tests/hosting/test_nginx.py starts its
## own nginx from a temporary folder, on 127.0.0.1 only).
hosting:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null)
	@command -v openssl >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl >/dev/null)

## Debian's Prometheus (with promtool) for the metrics test: tests/hosting/test_prometheus.py starts
## its own from a temporary folder, on 127.0.0.1 only; the service the package sets up is never used.
prometheus:
	@command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null)

## Debian's iproute2 for the `serve --lan` tests (tests/device/test_lan.py makes network
## namespaces of its own, as root, and sends traffic only between them).
network:
	@command -v ip >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null)

## Debian's node and npm: npm fetches Pyodide at set-up, node runs the engine's conformance tests.
node:
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null)

## Pyodide at the version and checksum of tools/pyodide/pin.json, fetched once into build/pyodide/
## (the npm registry's package, never a CDN, never at run time), and build/web-engine/: the files
## the page's engine worker loads (Pyodide's runtime and notice, the engine's zip, and the part of
## Pyodide's standard library that tools/pyodide/stdlib-keep.txt lists, as bytecode). After a
## change to the engine, engine/host.py or the worker, `python3 tools/pyodide/stdlib_keep.py`
## lists that part anew (tests/offline/test_stdlib_keep.py fails until then).
build/pyodide/.pin: tools/pyodide/pin.json tools/pyodide/fetch.py | node
	$(PYTHON) tools/pyodide/fetch.py

## The bots' data folder is a prerequisite itself: a table taken out makes the bundle again too.
build/web-engine/magdagdon-engine.zip: build/pyodide/.pin tools/pyodide/bundle.py src/magdagdon/api/page/compressed.py tools/pyodide/compile.mjs tools/pyodide/stdlib-keep.txt tools/pyodide/PYODIDE-NOTICE.txt src/magdagdon/__init__.py $(wildcard src/magdagdon/engine/*.py) $(wildcard src/magdagdon/bots/*.py) src/magdagdon/bots/data $(wildcard src/magdagdon/bots/data/*.bin) $(wildcard src/magdagdon/web/engine/*)
	$(UV) run --locked python tools/pyodide/bundle.py

pyodide: setup build/web-engine/magdagdon-engine.zip

lint: setup
	$(UV) run --locked ruff check --no-cache src tests bench
	$(UV) run --locked ruff format --no-cache --check src tests bench

typecheck: setup
	$(UV) run --locked mypy --strict

pytest: setup browser postgresql hosting prometheus network pyodide
	$(UV) run --locked pytest -n 2 --dist loadgroup $(ARGS)

## The page's pure modules (web/js/lib/, i18n/ and the state parts of core/) under node's own
## test runner: tests/js/*.test.mjs import them as the page does.
jstest: node
	node --test tests/js/

## Everything the tests need, then ruff, mypy --strict, node's tests and the whole pytest suite.
test: lint typecheck jstest pytest

bench: setup postgresql browser
	$(UV) run --locked python bench/engine_bench.py
	$(UV) run --locked python bench/server_bench.py --postgresql auto
	$(UV) run --locked python bench/edge_bench.py
	$(UV) run --locked python bench/host_bench.py
	$(UV) run --locked python bench/pwa_bench.py

clean:
	rm -rf .venv .pytest_cache .mypy_cache .ruff_cache artifacts build/pyodide build/web-engine
