# plies: the verbs a user types.  `make demo` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
GNUGO  := /usr/games/gnugo

.PHONY: help install warmup demo test bench peers train-extra clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 14

install: $(STAMP)  ## create .venv and install plies with its dev extras
$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

warmup: install  ## compile and cache every kernel (quick when the cache is warm)
	$(BIN)/python -m engines.warmup

peers:  ## install GNU Go, the real engine the Go legality tests compare against (best effort)
	@test -x $(GNUGO) || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
	  (apt-get install -y -qq gnugo >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq gnugo >/dev/null)) ; } \
	  || echo "peers: GNU Go not installed; its comparison tests will be skipped"

demo: warmup  ## show the engine playing (one game of each game)
	$(BIN)/plies demo

test: warmup peers  ## run the tests
	$(BIN)/pytest -q

bench: warmup  ## speed and strength figures, side by side with OpenSpiel -> bench/results/
	$(BIN)/python -m bench.run

train-extra: install  ## add PyTorch (local CPU build 2.13.0) for training
	$(BIN)/pip install torch==2.13.0
	$(BIN)/pip install -e '.[train]'

clean:  ## remove the virtual environment and compiled caches
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
