# The two commands of the README, plus the steps they are made of.
# `make demo` and `make test` install what they need (Debian packages) first.

BUILD_DIR ?= build
JOBS ?= $(shell nproc)
APT_PACKAGES = cmake make gcc g++ clang-16 llvm-16 llvm-16-dev llvm-16-tools libclang-16-dev \
               opencl-headers opencl-clhpp-headers ocl-icd-opencl-dev clinfo valgrind \
               llvm-spirv-15 clang-15 spirv-tools spirv-headers libopenblas-dev libclc-16 \
               openmpi-bin libopenmpi-dev

.PHONY: all deps build demo demo-seeds test test-gpu check fuzz ir-snapshot ir-compare conformance bench bench-quick clean

all: build

# Install missing Debian packages (uses sudo when not root).
deps:
	@./tools/install-deps.sh $(APT_PACKAGES)

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The project's examples (examples/README.md), each checking its own results.
demo: build
	./examples/run-demo.sh $(BUILD_DIR)

# The programs of the seed texts, for a checkout with ../shared/seeds beside it
# (when absent, a message and exit status 0).
demo-seeds: build
	./examples/run-demo.sh $(BUILD_DIR) --seeds

# Quick tests: unit tests and end-to-end programs through the ICD loader.
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -LE long

# The tests that need an NVIDIA GPU and its driver (label gpu, tests/gpu/): on a
# machine without them each says why and is reported as skipped (`make test`
# runs them too).
test-gpu: build
	cd $(BUILD_DIR) && ctest --output-on-failure -L gpu

# Long-running conformance and stress runs (not part of CI's quick run).
# With IR_BASE=folder (a snapshot of the code before a change, `make ir-snapshot`), also checks
# that this build's generated code is the same (tools/ir_snapshot.py, tests/README.md).
check: build
	cd $(BUILD_DIR) && ctest --output-on-failure -L long
	@if [ -n "$(IR_BASE)" ]; then $(MAKE) --no-print-directory ir-compare; fi

# The libFuzzer harnesses (tests/fuzz/README.md): a clang-16 build with ASan and UBSan in
# $(FUZZ_DIR), then each harness for FUZZ_SECONDS from its seed corpus (tools/fuzz.sh).
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 600
fuzz: deps
	@./tools/install-deps.sh libclang-rt-16-dev
	CC=clang-16 cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOSAIC_FUZZ=ON >/dev/null
	cmake --build $(FUZZ_DIR) -j $(JOBS) --target fuzz_harnesses
	./tools/fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# The LLVM IR every compiler test case and benchmark makes (MOSAIC_DUMP_IR), one file per program
# in $(IR_OUT); ir-compare takes it and lists the programs whose IR differs from $(IR_BASE)'s.
IR_OUT ?= $(BUILD_DIR)/ir-snapshot

ir-snapshot: build
	rm -rf $(IR_OUT) && ./tools/ir_snapshot.py snapshot --jobs $(JOBS) $(BUILD_DIR) $(IR_OUT)

ir-compare: ir-snapshot
	./tools/ir_snapshot.py compare $(IR_BASE) $(IR_OUT)

# The benchmark runner (bench/runner/, docs/performance.md): every benchmark on Mosaic and on
# every other OpenCL CPU platform installed, beside C + OpenMP and the machine's roofs; a table, a
# CSV file and an SVG chart in $(BENCH_OUT).  bench-quick: small sizes, one or two minutes on 2 cores;
# bench: the full sizes, for a machine with many cores.  BENCH_THREADS=1 runs everything on one
# thread; BENCH_ONLY, BENCH_PLATFORMS, BENCH_REPS choose what runs; BENCH_TIMING=cold times each
# implementation's first run after a pause (threads asleep) instead of its second.
BENCH_OUT ?= $(BUILD_DIR)/bench-results
BENCH_RUN = mkdir -p $(BENCH_OUT) && OCL_ICD_VENDORS=$(abspath $(BUILD_DIR))/bench/vendors $(BUILD_DIR)/bench/bench_runner

bench: build
	$(BENCH_RUN) --size full --csv $(BENCH_OUT)/bench.csv --svg $(BENCH_OUT)/bench.svg

bench-quick: build
	$(BENCH_RUN) --size quick --csv $(BENCH_OUT)/bench-quick.csv --svg $(BENCH_OUT)/bench-quick.svg

clean:
	rm -rf $(BUILD_DIR)

# Installation (docs/install.md): `make install` builds, then installs under
# PREFIX (default /usr/local; DESTDIR stages it elsewhere), with the ICD file
# in /etc/OpenCL/vendors for the prefixes /usr and /usr/local.  `make
# uninstall` removes what the last `make install` wrote (with the same
# DESTDIR).  `make deb` builds $(BUILD_DIR)/mosaic_<version>_<arch>.deb, for
# the prefix /usr.
PREFIX ?= /usr/local
.PHONY: install uninstall deb

install: build
	cmake -S . -B $(BUILD_DIR) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD_DIR)

uninstall:
	DESTDIR="$(DESTDIR)" cmake --build $(BUILD_DIR) --target uninstall

deb: build
	cmake -S . -B $(BUILD_DIR) -DCMAKE_INSTALL_PREFIX=/usr >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)
	cd $(BUILD_DIR) && cpack -G DEB
