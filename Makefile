# partyhost: `make play` for a game against bots, `make test` for the whole suite.
# Both build .venv from scratch on a machine with only Python 3.11+ and make.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
EDITABLE := --config-settings editable_mode=strict
RUNTIME := $(VENV)/.runtime
TOOLS := $(VENV)/.installed
LINKED := $(VENV)/.linked
# Folders whose file lists the editable install mirrors: a module added or removed there
# re-links it (cheap, offline); editing a module needs nothing.
SOURCE_DIRS := $(shell find app engine net tui decks -type d ! -name __pycache__ 2>/dev/null)

.PHONY: play test lint typecheck unit dev clean bench docs dist

# What playing needs: partyhost and its runtime dependencies, nothing else.
$(RUNTIME): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade setuptools wheel
	$(PIP) install -e . $(EDITABLE)
	touch $@ $(LINKED)

# What testing adds: the test, lint and type tools.
$(TOOLS): pyproject.toml $(RUNTIME)
	$(PIP) install -e '.[dev]' $(EDITABLE)
	touch $@

$(LINKED): $(SOURCE_DIRS) | $(RUNTIME)
	$(PIP) install --no-deps --no-build-isolation -e . $(EDITABLE)
	touch $@

# Re-link the editable install by hand (after adding a module in a new folder, say).
dev: $(TOOLS)
	$(PIP) install --no-deps --no-build-isolation -e . $(EDITABLE)
	touch $(LINKED)

play: $(RUNTIME) $(LINKED)
	@echo 'Other games and bot levels: make play ARGS="stealing-home --level easy" (see README.md)'
	@$(BIN)/partyhost play $(ARGS)

lint: $(TOOLS) $(LINKED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# The package, then the benchmarks, fuzz targets, scripts and the docs' reference client.
typecheck: $(TOOLS) $(LINKED)
	$(BIN)/mypy
	cd bench && MYPYPATH=../tests ../$(BIN)/mypy --strict --python-version 3.11 *.py
	cd fuzz && ../$(BIN)/mypy --strict --python-version 3.11 *.py
	cd scripts && ../$(BIN)/mypy --strict --python-version 3.11 *.py
	cd docs && ../$(BIN)/mypy --strict --python-version 3.11 reference_client.py

# Rewrite the generated tables of docs/protocol.md and docs/games-wire.md from the code.
docs: $(TOOLS) $(LINKED)
	$(BIN)/python scripts/gen_docs.py

# Three runs, each reported even if one before it failed: the tests on loopback sockets and
# in-process apps on every core; the end-to-end tests in real terminals and Debian's headless
# Chromium (tmux, openssh-client, chromium: .ci/run installs them) one at a time (they
# wait as a person would); the whole games (under random keys in a terminal, by taps in a
# browser) two at a time (they wait only for their game's end). The benchmarks' --smoke runs are in the first, but tui_latency.py's
# (a real terminal) is in the second.
# EncodingWarning (an error in pytest's settings) for every text file opened without an encoding.
PYTEST := PYTHONWARNDEFAULTENCODING=1 $(BIN)/python -m pytest
unit: $(TOOLS) $(LINKED)
	@status=0; \
	$(PYTEST) -m "not e2e" -n auto || status=1; \
	$(PYTEST) -m "e2e and not whole_games" || status=1; \
	$(PYTEST) -m whole_games -n 2 || status=1; \
	exit $$status

test: lint typecheck unit

bench: $(TOOLS) $(LINKED)
	$(BIN)/python bench/host_load.py

# The wheel friends install (README.md, "For your friends") and the sdist, into dist/. The
# wheel is built from the sdist, so a broken sdist fails here; no isolation: offline.
dist: $(TOOLS)
	rm -rf dist
	$(BIN)/python -m build --quiet --no-isolation --outdir dist .

clean:
	rm -rf $(VENV) build dist *.egg-info .mypy_cache .pytest_cache .ruff_cache

# Coverage-guided fuzzing (atheris) of the frame decoder and game commands; never part of
# `make test` or CI. Each target runs FUZZ_SECONDS; see fuzz/README.md.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz: $(TOOLS) $(LINKED)
	$(BIN)/python -c "import atheris" 2>/dev/null || $(BIN)/python -m pip install --quiet --no-build-isolation -e '.[fuzz]' --config-settings editable_mode=strict
	nice -n 10 $(BIN)/python fuzz/run.py --all $(FUZZ_SECONDS)
