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
