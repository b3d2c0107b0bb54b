# Sócio — the two commands that matter: `make run` and `make test`.
# Everything a fresh machine lacks (npm packages, generated code, the web build) is made on the way.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
NPM := npm --prefix web --no-audit --no-fund --loglevel=error
BUF := web/node_modules/.bin/buf
# Runs a tool of the web app from web/.
WEBX = cd web && ./node_modules/.bin/
WEB_SOURCES := $(shell find web/src web/index.html web/app.html web/public -type f 2>/dev/null) web/vite.config.ts web/package.json
PROTOS := $(shell find proto -name '*.proto')

.PHONY: help run build test bench eval test-eval setup generate web check-rust check-proto check-generated check-web check-bundle test-rust test-web test-e2e test-api-fuzz test-fuzz clean

help:
	@echo "make run    install, generate, build and serve on http://localhost:8080 (embedded defaults)"
	@echo "make test   every check and test (set TEST_DATABASE_URL to run them on PostgreSQL too)"
	@echo "make build  release binary $(TARGET_DIR)/release/socio serving web/dist"
	@echo "make bench  load, latency and memory of the release binary on SQLite and PostgreSQL"
	@echo "make eval   the consultant's quality harness (LLM_BASE_URL, else a scripted model)"

## Set-up ---------------------------------------------------------------------------------------

web/node_modules/.installed: web/package.json
	$(NPM) install
	@touch $@

setup: web/node_modules/.installed

web/src/gen/.generated: $(PROTOS) buf.yaml buf.gen.yaml web/node_modules/.installed
	rm -rf web/src/gen
	$(BUF) generate
	@touch $@

generate: web/src/gen/.generated

web/dist/index.html: web/src/gen/.generated $(WEB_SOURCES)
	$(WEBX)vite build --logLevel warn
	cd web && node scripts/precompress.mjs dist

web: web/dist/index.html

## Run and build --------------------------------------------------------------------------------

build: web
	cargo build --release --locked

run: build
	@echo "Serving Sócio on $${SOCIO_ADDR:-127.0.0.1:8080} (Ctrl-C to stop)"
	$(TARGET_DIR)/release/socio serve

## Bench ---------------------------------------------------------------------------------------

# Seeds 10k users and 200k messages into a fresh SQLite file and a fresh PostgreSQL database
# (BENCH_POSTGRES_URL, else TEST_DATABASE_URL, else the local server), drives the release binary and
# prints the table; the figures go to target/bench/results.json.
bench:
	cargo build --release --locked -p socio -p socio-bench
	$(TARGET_DIR)/release/socio-bench run $(BENCH_ARGS)

## Eval -----------------------------------------------------------------------------------------

# The consultant's quality harness: eight personas through the real pipeline against the model in
# LLM_BASE_URL (LLM_API_KEY, LLM_MODEL), else against a scripted stand-in; prints a scored table.
eval:
	cargo build --locked -p socio -p socio-bench
	$(TARGET_DIR)/debug/socio-bench eval

# The harness itself, against the scripted stand-in, which must score 100% (part of make test).
test-eval:
	cargo build --locked --quiet -p socio -p socio-bench
	env -u LLM_BASE_URL $(TARGET_DIR)/debug/socio-bench eval --require-perfect true

## Tests ----------------------------------------------------------------------------------------

TEST_STEPS := check-rust check-proto check-generated check-web test-rust test-web check-bundle test-e2e test-api-fuzz test-eval test-fuzz
# Each step timed, the durations printed at the end (scripts/timed-steps.sh).
test:
	@MAKE="$(MAKE)" scripts/timed-steps.sh $(TEST_STEPS)

check-rust:
	cargo fmt --all --check
	cargo clippy --locked --all-targets -- -D warnings

check-proto: setup
	$(BUF) lint
	$(BUF) format --diff --exit-code --path proto/socio

# The committed TypeScript must be what the protos generate.
check-generated: setup
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  $(BUF) generate -o "$$tmp"; \
	  diff -r "$$tmp/web/src/gen" web/src/gen --exclude=.generated \
	    || { echo "web/src/gen is stale: run 'make generate' and commit it"; exit 1; }

check-web: generate
	$(WEBX)tsc --noEmit
	$(WEBX)eslint --max-warnings 0 .

# Without TEST_DATABASE_URL the PostgreSQL cases are reported as ignored; CI must run them.
test-rust:
	@if [ -n "$${CI:-}" ] && [ -z "$${TEST_DATABASE_URL:-}" ]; then echo "CI runs every test on PostgreSQL too: set TEST_DATABASE_URL"; exit 1; fi
	@if [ -n "$${TEST_DATABASE_URL:-}" ]; then echo "Rust tests on SQLite and PostgreSQL"; else echo "Rust tests on SQLite (TEST_DATABASE_URL unset: PostgreSQL cases ignored)"; fi
	cargo test --locked

test-web: generate
	$(WEBX)vitest run

# The real server (debug build) serving the real web build, driven by Debian's Chromium. The
# binary is the one the Rust tests build (same features), so nothing compiles twice.
# The landing page's JavaScript, gzipped, against its budget (README, Performance).
check-bundle: web
	node web/scripts/bundle-budget.mjs web/dist 120

test-e2e: web
	cargo test --locked --no-run --quiet
	cd web && SOCIO_BIN="$(abspath $(TARGET_DIR))/debug/socio" ./node_modules/.bin/vitest run --config vitest.e2e.config.ts

# Schemathesis against /api/openapi.json on a real server: no server error (5xx) allowed.
test-api-fuzz:
	cargo build --locked --quiet
	scripts/api-fuzz.sh "$(abspath $(TARGET_DIR))/debug/socio"

clean:
	rm -rf web/dist web/node_modules/.installed web/src/gen/.generated
	cargo clean

# cargo-fuzz (libFuzzer, nightly): every target for FUZZ_SECONDS from the seeds in fuzz/corpus (new
# inputs go to a scratch folder, not the repository); a crash or a panic fails, leaving its input
# in fuzz/artifacts. cargo-fuzz is installed from crates.io when missing.
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := webhook_payload phone_and_amount rest_request
test-fuzz:
	@rustup toolchain list | grep -q '^nightly' || { echo "test-fuzz needs the nightly toolchain (rustup)"; exit 1; }
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
	cd fuzz && cargo +nightly fuzz build --sanitizer none --target-dir $(abspath $(TARGET_DIR))/fuzz
	@for target in $(FUZZ_TARGETS); do \
	  scratch=$$(mktemp -d); \
	  echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
	  (cd fuzz && cargo +nightly fuzz run --sanitizer none --target-dir $(abspath $(TARGET_DIR))/fuzz $$target \
	    "$$scratch" corpus/$$target -- -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -print_final_stats=1 2>&1 | tail -n 12); \
	  rm -rf "$$scratch"; \
	done
