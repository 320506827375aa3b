# Two commands on a fresh machine:  `make run`  starts the companion,  `make test`  runs every test.
# Each installs what it needs the first time (a virtual environment in .venv, the RP2040
# emulator rp2040js in node_modules, Debian's Chromium for the browser tests).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=
# pytest-xdist workers for make test (tests/conftest.py keeps a module's tests on one worker
# and hands the slowest work out first); four on the two cores, since the tests wait on
# sockets, servers and the show about as much as they compute (fresh-clone runs: four 6:57,
# five 6:21-6:51, with every wait of a test stretched further; README "How long make test
# takes"); 0 runs the tests one after the other.
# ARGS: more pytest options for both runs below (e.g. ARGS="--durations=25").
TEST_WORKERS ?= 4

.PHONY: run test lint bench clean

run: $(VENV)/.installed
	$(BIN)/companion serve $(ARGS)

# Compiled modules are kept (__pycache__, ignored by git) even where the environment says not
# to write them: every server a test starts and every pytest worker would otherwise compile
# the package (and pytest rewrite every test module's asserts) again. Collecting the tests
# takes 3.2 CPU s instead of 6.5 (five processes collect), a server's start and stop 0.71
# instead of 0.85 (the suite starts about 130).
test: export PYTHONDONTWRITEBYTECODE :=
test: $(VENV)/.installed-test node_modules/.installed
	bash scripts/ensure-chromium
	bash scripts/ensure-systemd
	node --test tests/js/
	# The emulated RP2040 boards first, alone: each needs a core (beside other workers the
	# watchdog tests miss their deadlines); then everything else on the workers.
	$(BIN)/python -m pytest tests/firmware $(ARGS)
	$(BIN)/python -m pytest --ignore=tests/firmware $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder) $(ARGS)

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
