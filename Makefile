# warhorn: one entry point. On a fresh machine with Python 3.11+:
#   make run    set up and start the web app (warhorn serve on the SQLite file ./warhorn.sqlite3);
#               it prints the address to open in a browser. `make serve` is the same.
#   make play   set up and start a game in the terminal (warhorn play)
#   make test   set up and run everything CI checks (ruff, mypy, pytest)
#   make goldens  rewrite the golden playthroughs (tests/goldens/) after a change in play
#   make compiled optional: compile the hot modules with mypyc into build/compiled (needs a C compiler;
#               run anything on it with PYTHONPATH=build/compiled, see docs/compiled.md)

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
SERVE_ARGS ?=
PLAY_GAME ?= nerath
PLAY_ARGS ?=

.PHONY: install lock run serve play test lint typecheck pytest compiled pytest-compiled bench goldens clean

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

# The compiled build (docs/compiled.md): a copy of the package in build/compiled with mypyc's extension
# modules beside the sources they were compiled from (an extension module is imported before a .py of
# the same name). `make install` and the package itself stay pure Python.
COMPILED := build/compiled
# What the compiled build is tested with: the goldens, conformance, the engine, the compiled games'
# rule tests, the AI tests (MCTS and Nerath's search hooks are compiled) and the RL environments
# (tests/interop: the index, the session and the observation encoders are compiled). Left out: the check that
# Defenders declares every instance attribute, which reads the instance __dict__ (a compiled state keeps
# its attributes outside it; the pure run checks the source).
COMPILED_TESTS := tests/goldens tests/conformance tests/engine tests/games tests/defenders tests/ai \
	tests/interop \
	tests/test_compiled_build.py \
	--deselect tests/defenders/test_declared_state.py::test_the_declaration_names_every_field_once

compiled: install
	rm -rf $(COMPILED) build/mypyc
	mkdir -p $(COMPILED)
	cp -r src/warhorn $(COMPILED)/
	WARHORN_COMPILE=1 $(BIN)/python setup.py --quiet build_ext --build-lib $(COMPILED) --build-temp build/mypyc

# The C compiler Python builds extensions with. Without one `make test` skips the compiled run and says
# so, unless WARHORN_REQUIRE_SERVICES=1 (CI), where that is a failure.
EXT_CC = $(shell $(BIN)/python -c "import sysconfig; print((sysconfig.get_config_var('CC') or 'cc').split()[0])")

pytest-compiled: install
	@if command -v $(EXT_CC) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory compiled && \
		WARHORN_EXPECT_COMPILED=1 PYTHONPATH=$(COMPILED) $(BIN)/python -m pytest -p no:cacheprovider $(COMPILED_TESTS); \
	elif [ "$$WARHORN_REQUIRE_SERVICES" = 1 ]; then \
		echo "pytest-compiled: no C compiler ($(EXT_CC)) for the compiled build"; exit 1; \
	else \
		echo "pytest-compiled: skipped, no C compiler ($(EXT_CC)); the pure-Python run above is complete"; \
	fi

test: lint typecheck pytest pytest-compiled

# rewrite the golden playthroughs (tests/goldens/*.json) after a change that changes play
goldens: install
	$(BIN)/python -m tests.goldens.regenerate

bench: install
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build
