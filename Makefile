# warhorn: one entry point. On a fresh machine with Python 3.11+:
#   make run    set up and start the web app (warhorn serve on the SQLite file ./warhorn.sqlite3);
#               it prints the address to open in a browser. `make serve` is the same.
#   make play   set up and start a game in the terminal (warhorn play)
#   make test   set up and run everything CI checks (ruff, mypy, pytest)
#   make goldens  rewrite the golden playthroughs (tests/goldens/) after a change in play

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
SERVE_ARGS ?=
PLAY_GAME ?= nerath
PLAY_ARGS ?=

.PHONY: install lock run serve play test lint typecheck pytest bench goldens clean

# constraints.txt pins every package (the lock); pyproject.toml keeps lower bounds for library users.
$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# Re-resolve the lock from pyproject.toml (run after changing a dependency, then commit constraints.txt).
lock: install
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --all-extras --python-version 3.11 \
		--python-platform x86_64-unknown-linux-gnu --quiet -o constraints.txt

run: install
	$(BIN)/warhorn serve $(SERVE_ARGS)

serve: run

play: install
	$(BIN)/warhorn play $(PLAY_GAME) $(PLAY_ARGS)

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install
	$(BIN)/mypy

pytest: install
	$(BIN)/python -m pytest

test: lint typecheck pytest

# rewrite the golden playthroughs (tests/goldens/*.json) after a change that changes play
goldens: install
	$(BIN)/python -m tests.goldens.regenerate

bench: install
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
