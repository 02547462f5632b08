# Bindery: `make run` serves the demo, `make test` runs every test.
# Both install libuv (Debian libuv1-dev) first when pkg-config cannot find it.

SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test test-tsan bench clean

deps:
	@pkg-config --exists libuv 2>/dev/null || { \
		echo "make: installing libuv1-dev (pkg-config cannot find libuv)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libuv1-dev pkg-config; }

build: deps
	$(SWIFT) build

run: deps
	$(SWIFT) run bindery

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) test-tsan

# Thread sanitizer over the concurrency tests (own build folder: instrumented objects).
test-tsan: deps
	$(SWIFT) build --build-tests --scratch-path .build-tsan -Xswiftc -sanitize=thread
	TSAN_OPTIONS="history_size=7 halt_on_error=1" $(SWIFT) test --skip-build --scratch-path .build-tsan --filter Concurrency

clean:
	rm -rf .build .build-tsan

# libFuzzer over the HTTP request parser, for FUZZ_SECONDS (default 600). Built with
# swiftc straight from the parser's own sources (they need no libuv, no SwiftPM product):
# -parse-as-library because the entry point is the @_cdecl LLVMFuzzerTestOneInput, lld
# because gold warns about every ASan symbol. SWIFT_BACKTRACE=enable=no leaves crash
# reports to ASan/libFuzzer (Swift's backtracer trips ASan). New inputs go to
# .build/fuzz/corpus-http, crashes to .build/fuzz/crash-*; the seeds in Fuzz/corpus/http.
FUZZ_SECONDS ?= 600
HTTP_PARSER_SOURCES := $(addprefix Sources/HTTPServer/HTTP/,HTTPRequestParser.swift HTTPParserError.swift \
	HTTPHeaders.swift HTTPVersion.swift HTTPRequestHead.swift)

.PHONY: fuzz fuzz-http

fuzz: fuzz-http

fuzz-http:
	mkdir -p .build/fuzz/corpus-http
	swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld \
		Fuzz/HTTPParserFuzz/main.swift $(HTTP_PARSER_SOURCES) -o .build/fuzz/http-parser-fuzz
	SWIFT_BACKTRACE=enable=no .build/fuzz/http-parser-fuzz -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		-print_final_stats=1 -artifact_prefix=.build/fuzz/ .build/fuzz/corpus-http Fuzz/corpus/http
