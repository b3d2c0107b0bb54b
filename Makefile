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

# Under libfaketime (`faketime '2027-01-05 10:00' make test`, the check that nothing reads the
# machine's date) the Rust toolchain hangs at start (its allocator and the preloaded clock deadlock),
# so cargo and rustc run without the preload and what they build — the tests, the server the browser
# tests start — runs with it: cargo's runner (scripts/faked.sh) puts it back.
ifneq ($(findstring faketime,$(LD_PRELOAD)),)
export SOCIO_FAKED_PRELOAD := $(LD_PRELOAD)
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER := $(abspath scripts/faked.sh)
CARGO := env -u LD_PRELOAD cargo
else
CARGO := cargo
endif

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
	$(CARGO) build --release --locked --features socio/jemalloc

run: build
	@echo "Serving Sócio on $${SOCIO_ADDR:-127.0.0.1:8080} (Ctrl-C to stop)"
	$(TARGET_DIR)/release/socio serve

## Bench ---------------------------------------------------------------------------------------

# Seeds 10k users and 200k messages into a fresh SQLite file and a fresh PostgreSQL database
# (BENCH_POSTGRES_URL, else TEST_DATABASE_URL, else the local server), drives the release binary and
# prints the table; the figures go to target/bench/results.json.
bench:
	$(CARGO) build --release --locked -p socio -p socio-bench --features socio/jemalloc
	$(TARGET_DIR)/release/socio-bench run $(BENCH_ARGS)

## Eval -----------------------------------------------------------------------------------------

# The consultant's quality harness: nineteen personas through the real pipeline against the model in
# LLM_BASE_URL (LLM_API_KEY, LLM_MODEL), else against a scripted stand-in; prints a scored table.
# Those of another day (Lucro Presumido in 2027, a MEI past the ceiling) run on a server started on
# it (SOCIO_DEV_CLOCK).
eval:
	$(CARGO) build --locked -p socio -p socio-bench
	$(TARGET_DIR)/debug/socio-bench eval

# The harness itself, against the scripted stand-in, which must score 100% (part of make test). The
# binaries are check-rust's (see BUILD_ALL).
test-eval:
	$(BUILD_ALL)
	env -u LLM_BASE_URL $(TARGET_DIR)/debug/socio-bench eval --require-perfect true

## Tests ----------------------------------------------------------------------------------------

TEST_STEPS := check-rust check-proto check-generated check-web test-rust test-web check-bundle test-e2e test-api-fuzz test-eval test-fuzz
# Each step timed, the durations printed at the end (scripts/timed-steps.sh).
test:
	@MAKE="$(MAKE)" scripts/timed-steps.sh $(TEST_STEPS)

# Clippy runs inside the test build, as `cargo clippy` itself runs it (clippy-driver as the
# workspace's rustc wrapper, its arguments in CLIPPY_ARGS), so that make test compiles the
# dependencies once: a separate `cargo clippy` checks every dependency again, ~8 of a fresh CI
# run's minutes. Every target (`--all-targets`) is linted, warnings denied; the test steps share
# the wrapper, so they reuse what this step built.
# One build for every step: `cargo build --all-targets` builds the binaries with the features the
# tests unify (dev-dependencies included), so the binaries the browser tests, the API fuzzing and
# the eval run are the ones this build made. A plain `cargo build` resolves other features (no
# dev-dependencies) and compiled tokio and most crates above it a second time (~100 s of a fresh run).
BUILD_ALL = $(LINTED) $(CARGO) build --locked --all-targets --quiet
CLIPPY_DRIVER := $(shell rustup which clippy-driver 2>/dev/null || command -v clippy-driver)
LINTED := RUSTC_WORKSPACE_WRAPPER="$(CLIPPY_DRIVER)" CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings
check-rust:
	$(CARGO) fmt --all --check
	@[ -x "$(CLIPPY_DRIVER)" ] || { echo "clippy is missing: rustup component add clippy"; exit 1; }
	$(LINTED) $(CARGO) build --locked --all-targets

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

# Without TEST_DATABASE_URL the PostgreSQL cases are reported as skipped; CI must run them.
# The API tests wait on sockets, databases and timers far more than they compute (a run keeps the
# test process at ~40 % of one core with two at a time), so TEST_THREADS of them run at once: on
# this 2-core machine 8 took the Rust tests from 221 s to 125 s (docs/performance.md). With
# cargo-nextest (on the machine, or `cargo install cargo-nextest`) each test is a process of its
# own and the slowest are named; without it, `cargo test` runs the same tests with as many threads.
TEST_THREADS ?= 8
test-rust:
	@if [ -n "$${CI:-}" ] && [ -z "$${TEST_DATABASE_URL:-}" ]; then echo "CI runs every test on PostgreSQL too: set TEST_DATABASE_URL"; exit 1; fi
	@if [ -n "$${TEST_DATABASE_URL:-}" ]; then echo "Rust tests on SQLite and PostgreSQL"; else echo "Rust tests on SQLite (TEST_DATABASE_URL unset: PostgreSQL cases skipped)"; fi
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
	  echo "$(LINTED) $(CARGO) nextest run --locked --workspace --no-fail-fast --test-threads $(TEST_THREADS)"; \
	  $(LINTED) $(CARGO) nextest run --locked --workspace --no-fail-fast --test-threads $(TEST_THREADS); \
	else \
	  echo "(cargo-nextest is not installed: cargo test)"; \
	  $(LINTED) $(CARGO) test --locked --workspace -- --test-threads $(TEST_THREADS); \
	fi

test-web: generate
	$(WEBX)vitest run

# The real server (debug build) serving the real web build, driven by Debian's Chromium. The
# binary is the one the Rust tests build (same features), so nothing compiles twice.
# The landing page's JavaScript, gzipped, against its budget (docs/performance.md).
check-bundle: web
	node web/scripts/bundle-budget.mjs web/dist 120

test-e2e: web
	$(BUILD_ALL)
	cd web && SOCIO_BIN="$(abspath $(TARGET_DIR))/debug/socio" ./node_modules/.bin/vitest run --config vitest.e2e.config.ts

# Schemathesis against /api/openapi.json on a real server: no server error (5xx) allowed.
test-api-fuzz:
	$(BUILD_ALL)
	scripts/api-fuzz.sh "$(abspath $(TARGET_DIR))/debug/socio"

clean:
	rm -rf web/dist web/node_modules/.installed web/src/gen/.generated
	$(CARGO) clean

# The fuzz targets (libFuzzer through libfuzzer-sys), each run for FUZZ_SECONDS from the seeds in
# fuzz/corpus (new inputs go to a scratch folder, not the repository); a crash or a panic fails,
# leaving its input in fuzz/artifacts. Built as `cargo fuzz` builds them (the same coverage
# instrumentation, `--cfg fuzzing`, debug assertions) but with the stable toolchain, without
# installing cargo-fuzz, unoptimised and in many codegen units instead of cargo-fuzz's default
# release with one unit per crate (that alone was ~10 minutes of a fresh CI run on two cores), and
# in the main target dir: the build scripts and proc macros (sqlx's, prost's) are the main build's.
# A smoke run of 20 s needs coverage feedback, not speed. `cargo +nightly fuzz run <target>` still
# works for a long run.
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := webhook_payload phone_and_amount rest_request
FUZZ_TRIPLE := $(shell env -u LD_PRELOAD rustc -vV | sed -n 's/^host: //p')
FUZZ_RUSTFLAGS := -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-sanitizer-coverage-stack-depth \
  --cfg fuzzing -Clink-dead-code -Cdebug-assertions
test-fuzz:
	RUSTFLAGS="$(FUZZ_RUSTFLAGS)" $(CARGO) build --locked --quiet --manifest-path fuzz/Cargo.toml \
	  --target $(FUZZ_TRIPLE) --target-dir $(abspath $(TARGET_DIR)) --bins
	@for target in $(FUZZ_TARGETS); do \
	  scratch=$$(mktemp -d); mkdir -p fuzz/artifacts/$$target; \
	  echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
	  if $(abspath $(TARGET_DIR))/$(FUZZ_TRIPLE)/debug/$$target -artifact_prefix=fuzz/artifacts/$$target/ \
	      -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -print_final_stats=1 "$$scratch" fuzz/corpus/$$target 2>&1 | tail -n 12; \
	  then rm -rf "$$scratch"; \
	  else rm -rf "$$scratch"; echo "fuzz target $$target failed: its input is in fuzz/artifacts/$$target"; exit 1; fi; \
	done
