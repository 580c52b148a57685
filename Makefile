# The two commands of the README, plus the steps they are made of.
# `make demo` and `make test` install what they need (Debian packages) first.

BUILD_DIR ?= build
JOBS ?= $(shell nproc)
APT_PACKAGES = cmake make gcc g++ clang-16 llvm-16 llvm-16-dev libclang-16-dev \
               opencl-headers opencl-clhpp-headers ocl-icd-opencl-dev clinfo valgrind \
               llvm-spirv-15 clang-15 spirv-tools

.PHONY: all deps build demo test check conformance clean

all: build

# Install missing Debian packages (uses sudo when not root).
deps:
	@./tools/install-deps.sh $(APT_PACKAGES)

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	./examples/run-demo.sh $(BUILD_DIR)

# Quick tests: unit tests and end-to-end programs through the ICD loader.
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS) -LE long

# Long-running conformance and stress runs (not part of CI's quick run).
check: build
	cd $(BUILD_DIR) && ctest --output-on-failure -L long

clean:
	rm -rf $(BUILD_DIR)
