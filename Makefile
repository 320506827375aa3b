# Two commands on a fresh machine:  `make run`  starts the companion,  `make test`  runs every test.
# Each installs what it needs the first time (a virtual environment in .venv, the RP2040
# emulator rp2040js in node_modules, Debian's Chromium for the browser tests).

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARGS ?=
# pytest-xdist workers for make test (tests/conftest.py groups a module's tests on one worker);
# 0 (the default) runs the tests one after the other: beside other workers the browser tests'
# timing checks and the emulated board's watchdog tests are not reliable yet (README).
TEST_WORKERS ?= 0
# Browser tests running at once under xdist (each drives Chromium and a server).
BROWSER_LANES ?= 2

.PHONY: run test lint bench clean

run: $(VENV)/.installed
	$(BIN)/companion serve $(ARGS)

test: $(VENV)/.installed-test node_modules/.installed
	bash scripts/ensure-chromium
	bash scripts/ensure-systemd
	node --test tests/js/
	BROWSER_LANES=$(BROWSER_LANES) $(BIN)/python -m pytest $(if $(filter 0,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadgroup) $(ARGS)

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
