# warhorn: one entry point. On a fresh machine with Python 3.11+:
#   make run    set up and start the main job (the terminal game for now)
#   make serve  set up and start the web app (warhorn serve) on ./warhorn.sqlite3
#   make test   set up and run everything CI checks (ruff, mypy, pytest)

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
RUN_GAME ?= nerath
RUN_ARGS ?=
SERVE_ARGS ?=

.PHONY: install run serve test lint typecheck pytest bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/warhorn play $(RUN_GAME) $(RUN_ARGS)

serve: install
	$(BIN)/warhorn serve $(SERVE_ARGS)

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install
	$(BIN)/mypy

pytest: install
	$(BIN)/python -m pytest

test: lint typecheck pytest

bench: install
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
