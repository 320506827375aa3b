# Two commands on a fresh machine:  `make run`  starts the companion,  `make test`  runs every test.
# Each installs what it needs the first time (a virtual environment in .venv, the RP2040
# emulator rp2040js in node_modules, Debian's Chromium for the browser tests).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=
# pytest-xdist workers for make test (tests/conftest.py keeps a module's tests on one worker
# and hands the slowest work out first); five on the two cores: the tests wait on sockets,
# servers and the show about as much as they compute, and with four 158 of the run's 874
# core-seconds stood idle, mostly while four paced shows waited on the clock at once (README
# "How long make test takes"); 0 runs the tests one after the other.
# ARGS: more pytest options for every run below (e.g. ARGS="--durations=25").
TEST_WORKERS ?= 5
# The tests that only compute (engine, house rules, LEDs, store, table, doctests): one process
# on the core the emulated boards leave free, while they run.
PURE_TESTS := tests/engine tests/house tests/leds tests/store tests/table companion
# The emulated RP2040 boards' tests.
BOARD_TESTS := tests/firmware

.PHONY: run test test-boards test-pure lint bench clean

run: $(VENV)/.installed
	$(BIN)/companion serve $(ARGS)

# Compiled modules are kept (__pycache__, ignored by git) even where the environment says not
# to write them: every server a test starts and every pytest worker would otherwise compile
# the package (and pytest rewrite every test module's asserts) again. Collecting the tests
# takes 3.2 CPU s instead of 6.5 (five processes collect), a server's start and stop 0.71
# instead of 0.85 (the suite starts about 130).
test test-boards test-pure: export PYTHONDONTWRITEBYTECODE :=
test: $(VENV)/.installed-test node_modules/.installed
	bash scripts/ensure-chromium
	bash scripts/ensure-systemd
	# The emulated RP2040 boards first, each needing a core (beside the workers their watchdog
	# tests missed their deadlines), with the tests that only compute (the pages' pure modules
	# under node, then Python's) on the other core; then everything else on the workers.
	$(MAKE) --no-print-directory -j2 --output-sync=target test-boards test-pure
	$(BIN)/python -m pytest tests $(addprefix --ignore=,$(BOARD_TESTS) $(filter tests/%,$(PURE_TESTS))) $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder) $(ARGS)

test-boards: $(VENV)/.installed-test node_modules/.installed
	$(BIN)/python -m pytest $(BOARD_TESTS) $(ARGS)

test-pure: $(VENV)/.installed-test
	node --test tests/js/
	$(BIN)/python -m pytest $(PURE_TESTS) $(ARGS)

lint: $(VENV)/.installed-test node_modules/.installed
	$(BIN)/ruff check companion tests benchmarks firmware
	$(BIN)/ruff format --check companion tests benchmarks firmware
	$(BIN)/mypy
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.pure.json

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_replay.py
	$(BIN)/python benchmarks/bench_server.py --tables 20
	$(BIN)/python benchmarks/bench_board_emulated.py
	$(BIN)/python benchmarks/bench_board.py
	$(BIN)/python benchmarks/bench_pages.py
	$(BIN)/python benchmarks/bench_keep_awake.py
	$(BIN)/python benchmarks/bench_start_stop.py
	$(BIN)/python benchmarks/leds_render.py
	$(BIN)/python benchmarks/leds_power.py
	$(BIN)/python benchmarks/bench_cafe.py
	nice $(BIN)/python benchmarks/bench_players.py

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install -q -e '.[test,flash]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

clean:
	rm -rf $(VENV) node_modules .pytest_cache
