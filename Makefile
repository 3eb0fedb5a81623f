# partyhost: `make play` for a game against bots, `make test` for the whole suite.
# Both build .venv from scratch on a machine with only Python 3.11+ and make.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck unit dev clean bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip setuptools wheel
	$(BIN)/python -m pip install --quiet -e '.[dev]' --config-settings editable_mode=strict
	touch $(STAMP)

# Re-link the editable install so newly added modules are importable (fast, offline).
dev: $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e . --config-settings editable_mode=strict

play: dev
	$(BIN)/partyhost play

lint: dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# The package, then the benchmarks and fuzz targets (scripts, each folder on its own path).
typecheck: dev
	$(BIN)/mypy
	cd bench && MYPYPATH=../tests ../$(BIN)/mypy --strict --python-version 3.11 *.py
	cd fuzz && ../$(BIN)/mypy --strict --python-version 3.11 *.py

unit: dev
	$(BIN)/python -m pytest

test: lint typecheck unit

bench: dev
	$(BIN)/python bench/host_load.py

clean:
	rm -rf $(VENV) build *.egg-info .mypy_cache .pytest_cache .ruff_cache

# Coverage-guided fuzzing (atheris) of the frame decoder and game commands; never part of
# `make test` or CI. Each target runs FUZZ_SECONDS; see fuzz/README.md.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz: dev
	$(BIN)/python -c "import atheris" 2>/dev/null || $(BIN)/python -m pip install --quiet --no-build-isolation -e '.[fuzz]' --config-settings editable_mode=strict
	nice -n 10 $(BIN)/python fuzz/run.py --all $(FUZZ_SECONDS)
