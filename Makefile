# Loom's entry points. `make demo` and `make test` are the two commands a newcomer runs; both
# install missing dependencies first. Builds go to build/ (Release) and build-asan/ (sanitizers).
JOBS ?= $(shell nproc)
BUILD := build
ASAN_BUILD := build-asan
CMAKE_FLAGS ?=
# The suites that run in CI; `fuzz` and `performance` are opt-in (make fuzz, make bench).
FAST_LABELS := unit|correctness|error

.PHONY: all setup configure build demo test test-release test-python test-asan fuzz bench docs install format check-format clean

all: build

setup:
	@bash scripts/setup.sh

# The Python package is built for (and tested with) the python3 that setup.sh installs into.
PYTHON := $(shell command -v python3)

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE=$(PYTHON) $(CMAKE_FLAGS)

configure: setup $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	LOOM_BUILD=$(BUILD) bash apps/demo/demo.sh

test: setup
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory test-python
	@$(MAKE) --no-print-directory test-release

test-release: build
	cd $(BUILD) && ctest -L "$(FAST_LABELS)" -j $(JOBS) --output-on-failure

# The Python package (built by `build` into $(BUILD)/python) and its pytest suite.
test-python: build
	PYTHONPATH=$(CURDIR)/$(BUILD)/python $(PYTHON) -m pytest -q tests/python

# The library and the fast tests under AddressSanitizer + UndefinedBehaviorSanitizer.
test-asan: setup
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLOOM_SANITIZE=ON -DLOOM_BUILD_APPS=OFF -DLOOM_BUILD_PYTHON=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest -L "$(FAST_LABELS)" -LE "no-sanitizer" -j $(JOBS) --output-on-failure

fuzz: build
	cd $(BUILD) && ctest -L fuzz --output-on-failure

# OpenCV (the OpenCV column of the application table) is installed for the benchmarks only.
# libloom, its headers, the CMake package (find_package(Loom)) and loom.pc under PREFIX.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The API reference from the /// comments of the public headers, into $(BUILD)/docs/api/html
# (Doxygen, installed if missing). The guide itself is docs/*.md.
docs:
	@LOOM_SETUP_DOCS=1 bash scripts/setup.sh
	mkdir -p $(BUILD)/docs
	( cat docs/Doxyfile; echo "OUTPUT_DIRECTORY = $(BUILD)/docs/api" ) | doxygen -
	@echo "API reference: $(BUILD)/docs/api/html/index.html"

bench: build
	@LOOM_SETUP_BENCH=1 bash scripts/setup.sh
	LOOM_BUILD=$(BUILD) bash bench/run.sh
	LOOM_BUILD=$(BUILD) bash bench/apps.sh
	LOOM_BUILD=$(BUILD) bash bench/simd_kernels.sh
	LOOM_BUILD=$(BUILD) bash bench/async_overlap.sh
	LOOM_BUILD=$(BUILD) bash bench/same_process.sh
	LOOM_BUILD=$(BUILD) bash bench/race.sh
	LOOM_BUILD=$(BUILD) bash bench/profile.sh
	LOOM_BUILD=$(BUILD) bash bench/jit_cache.sh
	LOOM_BUILD=$(BUILD) bash bench/python.sh
	LOOM_BUILD=$(BUILD) bash bench/autoschedulers.sh

format:
	@git ls-files '*.h' '*.cpp' '*.c' | xargs clang-format -i

check-format:
	@bash scripts/check_format.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
