# plies: the verbs a user types.  `make install`, `make demo` and `make test` do all the set-up on a fresh machine,
# each with the extra of its job (setup.cfg): install the runtime, demo + [demo], test + [dev,train], bench + [bench].
# Each install leaves a stamp in .venv, so a second run installs nothing; each target leaves a warm kernel cache.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEMO   := $(VENV)/.installed-demo
TRAIN  := $(VENV)/.installed-train
DEV    := $(VENV)/.installed-dev
BENCH  := $(VENV)/.installed-bench
GNUGO  := /usr/games/gnugo
# the Go5 course weights (test data beside the project; any file in the same format works)
WEIGHTS ?= ../shared/data/go5-course-weights.txt
GO5    := $(abspath $(BIN))/plies-go5 --movefilter --in_tree_knowledge=probabilistic --num_total_sim=1 \
          --weights $(abspath $(WEIGHTS))
# `make demo SHOW=1` shows every move of every section (the stand-ins' --show); by default each section's
# result and a few boards
SHOW   ?=
SHOWN  := $(if $(filter 1 yes true,$(SHOW)),1,)

.PHONY: help install warmup demo demo-go5 demo-hex train-hex train-go train-go-policy train-go-policy13 train-othello train-othello-deep book-othello test bench regress peers train-extra clean

help:  ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 14

install: $(STAMP) warmup  ## create .venv, install plies with the runtime the adapters need, warm the cache
$(STAMP): setup.cfg pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet -e .
	touch $(STAMP)

warmup: $(STAMP)  ## compile and cache every kernel (nothing to do when the cache is warm)
	@$(BIN)/python -m engines.warmup --check || $(BIN)/python -m engines.warmup

$(DEMO): $(STAMP)
	$(BIN)/pip install --quiet -e '.[demo]'
	touch $(DEMO)

peers:  ## install GNU Go, the real engine the Go legality tests compare against (best effort)
	@test -x $(GNUGO) || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && \
	  (apt-get install -y -qq gnugo >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq gnugo >/dev/null)) ; } \
	  || echo "peers: GNU Go not installed; its comparison tests will be skipped"

demo: $(DEMO) warmup  ## show the engine playing (one game of each game, then each harness adapter; SHOW=1: every move)
	$(BIN)/plies demo $(if $(SHOWN),--show)
	@$(MAKE) --no-print-directory demo-go5
	@echo "===== Little-Go: my_player3.py (black) against the greedy opponent through the local host ====="
	$(BIN)/plies littlego match me greedy --games 1 --seed 1 $(if $(SHOWN),--show)
	@echo "===== Othello game manager: the pipe agent (dark) against Randy through the local manager, 6x6, -l 4 -c -o ====="
	PATH="$(abspath $(BIN)):$$PATH" OTHELLO_RANDY_SEED=1 $(BIN)/python -m standins.othello_manager -d 6 \
	  -a adapters/othello_agent.py -b standins/othello_randy.py -l 4 -c -o $(if $(SHOWN),--show)
	@echo "===== Othello over OTP: plies-otp against a random engine through the local judge (2 rounds, 1 s a move) ====="
	$(BIN)/python -m standins.otp_judge 0 2 -- $(BIN)/plies-otp --time 1 -- $(BIN)/python -m standins.otp_random --seed 1
	@echo "===== NBoard: plies-nboard playing both colours through the stand-in GUI (set depth 4, hint 2 every 10 moves) ====="
	$(BIN)/python -m standins.nboard_gui --depth 4 --hints 2 -- $(BIN)/python -m adapters.nboard --time 1
	@$(MAKE) --no-print-directory demo-hex
	@echo "===== Online Hex Tournament: the local server (TLS, throwaway certificate) and our generation-A client, 5x5 ====="
	$(BIN)/plies hex demo

demo-go5: $(DEMO) warmup  ## the Go5-compatible GTP engine: a regression file through our runner, then a few exchanges
	@echo "===== Go5 over GTP: regress/basics.gtp through plies-regress ====="
	@if [ -f $(WEIGHTS) ]; then \
	  $(BIN)/plies-regress $(if $(SHOWN),--long) "$(GO5)" regress/basics.gtp; \
	  echo "===== Go5 over GTP: prior_knowledge and genmove on 5x5 ====="; \
	  printf 'boardsize 5\nplay b c3\nplay w d4\nprior_knowledge\ngenmove b\nshowboard\nfinal_score\nquit\n' | $(GO5); \
	else echo "(no weights at $(WEIGHTS): set WEIGHTS=PATH to see the knowledge commands)"; \
	  printf 'boardsize 5\nplay b c3\ngenmove w\nshowboard\nquit\n' | $(abspath $(BIN))/plies-go5 --num_total_sim=300; fi

demo-hex: $(DEMO) warmup  ## Hex: a very short training session and its TOPP, then the shipped 5x5 network against random
	@if $(BIN)/python -c "import torch" 2>/dev/null; then \
	  echo "===== Hex: a very short training session (4 episodes, K = 3; SHOW=1 draws the last game), then its TOPP ====="; \
	  rm -rf runs/hex-demo-short; \
	  $(BIN)/plies hex train --config weights/hex/hex.toml --episodes 4 --networks 3 --search-games 200 \
	    --display $(if $(SHOWN),4,0) --progress $(if $(SHOWN),true,false) --games 4 --out runs/hex-demo-short; \
	else \
	  echo "(Hex training needs PyTorch: make train-extra.  Meanwhile the TOPP of the shipped 200-episode run.)"; \
	fi
	@echo "===== Hex: TOPP of the networks saved by a 200-episode 5x5 run (weights/hex/topp5) ====="
	$(BIN)/plies hex topp weights/hex/topp5 --games 4 --no-progress --out runs/hex-topp5
	@echo "===== Hex: the shipped 5x5 network (greedy, no search) against random ====="
	$(BIN)/plies hex play --size 5 --opponent random $(if $(SHOWN),,--quiet)

train-hex: $(TRAIN) warmup  ## the seed's demonstration: 200 episodes, K = 4, 5x5, then the TOPP (runs/hex5)
	$(BIN)/plies hex train --config weights/hex/hex.toml --out runs/hex5

train-go: $(DEMO) warmup peers  ## Go move weights: 360 GNU Go self-play games (runs/go-games/go9), then Coulom's MM into weights/go/mm9.txt
	nice -n 15 $(BIN)/python -m standins.gnugo_games --games 360 --size 9 --level 10 --seed 1 --jobs 2 --out runs/go-games/go9
	$(BIN)/python -m engines.learn.go.mm --games runs/go-games/go9 --out weights/go/mm9.txt --plot weights/go/mm9.png --iterations 50

train-go-policy: $(DEMO) warmup peers $(TRAIN)  ## Go policy network: 211 GNU Go self-play 9x9 games (runs/go-games/go9, resumable), then the CNN into weights/go/policy9.onnx (resumes from runs/go-policy): the shipped network's recipe (643 games predict better but did not play better: bench/results/go_policy_data.md)
	nice -n 15 $(BIN)/python -m standins.gnugo_games --games 211 --size 9 --level 10 --seed 1 --jobs 2 --out runs/go-games/go9
	nice -n 15 $(BIN)/python -m engines.learn.go.policy --games runs/go-games/go9 --out weights/go/policy9.onnx --work runs/go-policy --epochs 40
	nice -n 15 $(BIN)/python -m bench.go_policy --games runs/go-games/go9

train-go-policy13: $(DEMO) warmup peers $(TRAIN)  ## Go policy network for 13x13: 80 GNU Go level-10 self-play 13x13 games (runs/go-games/go13, resumable), then weights/go/policy9.onnx fine-tuned on them into weights/go/candidate/policy13.onnx (a candidate: moved to weights/go/ it is the 13x13 default) (resumes from runs/go-policy13)
	nice -n 15 $(BIN)/python -m standins.gnugo_games --games 80 --size 13 --level 10 --seed 1 --jobs 2 --out runs/go-games/go13
	nice -n 15 $(BIN)/python -m engines.learn.go.policy --games runs/go-games/go13 --size 13 --init weights/go/policy9.onnx --out weights/go/candidate/policy13.onnx --work runs/go-policy13 --epochs 15 --lr 5e-4
	nice -n 15 $(BIN)/python -m bench.go_policy --games runs/go-games/go13 --size 13 --network weights/go/candidate/policy13.onnx --out bench/results/go_policy13

train-othello: $(DEMO) warmup  ## Othello pattern weights from self-play in four stages, then their Multi-ProbCut rows (~2.5 CPU-hours; resumes from runs/othello_patterns; the shipped file was fitted so in the first layout's 15 phases, this fits 30)
	nice -n 15 $(BIN)/python -m engines.learn.othello.train --out runs/othello_patterns/first --weights-out runs/othello_patterns/first.npz --games 8000 --seed 1 --per-phase 12000 --iterations 150
	nice -n 15 $(BIN)/python -m engines.learn.othello.train --out runs/othello_patterns/second --weights-out runs/othello_patterns/second.npz --games 30000 --seed 2 --random-opening 12 --epsilon 0.05 --self-play-weights runs/othello_patterns/first.npz --per-phase 50000 --iterations 150
	nice -n 15 $(BIN)/python -m engines.learn.othello.train --out runs/othello_patterns/third --weights-out runs/othello_patterns/third.npz --games 60000 --seed 3 --random-opening 12 --epsilon 0.05 --self-play-weights runs/othello_patterns/second.npz --pattern-share 0.8 --per-phase 120000 --iterations 200
	nice -n 15 $(BIN)/python -m engines.learn.othello.train --out runs/othello_patterns/fourth_d45 --games 200000 --seed 5 --random-opening 12 --epsilon 0.05 --self-play-weights runs/othello_patterns/third.npz --pattern-share 0.8 --per-phase 400000 --iterations 200 --depth 4 5 --workers 2
	nice -n 15 $(BIN)/python -m engines.learn.othello.probcut_fit --out weights/othello/probcut_patterns.json --positions 507 --max-depth 10 --workers 2 --data runs/othello_patterns/probcut_d10.jsonl

train-othello-deep: $(DEMO) warmup  ## Othello pattern weights refined on deeper labels (issue 35 item 2): exact 16-19 empties, depth-6 PVS above, towards the shipped weights (resumes from runs/othello_eval2), then their Multi-ProbCut rows
	nice -n 15 $(BIN)/python -m engines.learn.othello.train --out runs/othello_eval2 --weights-out runs/othello_eval2/patterns.npz --games 20000 --seed 4 --random-opening 12 --epsilon 0.05 --self-play-weights weights/othello/patterns.npz --pattern-share 0.8 --exact 19 --depth 6 --label-search pvs --workers 2 --nice 19 --prior-weights weights/othello/patterns.npz --keep-prior-up-to 15 --compare-weights weights/othello/patterns.npz --per-phase 3000 --per-phase-exact 1600 --iterations 200 --ridge-grid 30 100 300 1000 3000 --quiet
	nice -n 15 $(BIN)/python -m engines.learn.othello.probcut_fit --weights runs/othello_eval2/patterns.npz --out runs/othello_eval2/probcut_patterns.json --positions 500 --max-depth 10 --workers 2 --data runs/othello_eval2/probcut_d10.jsonl

book-othello: $(DEMO) warmup  ## the Othello opening book weights/othello/book.npz (depth-10 leaves, up to 70 CPU-minutes in all; resumes from runs/othello_book, else from the shipped book)
	nice -n 15 $(BIN)/python -m engines.learn.othello.book --out weights/othello/book.npz --work runs/othello_book --depth 10 --max-plies 14 --max-drop 6 --cpu-minutes 70 --workers 2

test: $(DEV) warmup peers  ## run the tests (installs the dev and train extras first: the training tests run)
	$(BIN)/pytest -q

$(DEV): $(TRAIN)
	$(BIN)/pip install --quiet -e '.[dev,train]'
	touch $(DEV)

regress: $(DEMO) warmup  ## GTP regression files (gogui-regress semantics): ours and the Go5 course tests, then Hex (regress/hex)
	$(BIN)/plies-regress "$(GO5)" $(wildcard regress/*.gtp) ../shared/data/go5-tests.gtp
	$(BIN)/plies-regress "$(abspath $(BIN))/plies-gtp-hex --time 0 --simulations 300" $(wildcard regress/hex/*.gtp)

bench: $(BENCH) warmup  ## speed and strength figures, side by side with OpenSpiel -> bench/results/
	$(BIN)/python -m bench.run

$(BENCH): $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	touch $(BENCH)

train-extra: $(TRAIN)  ## add the training extra: PyTorch (the local CPU build 2.13.0, never CUDA) and Ray
$(TRAIN): $(STAMP)
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[train]'
	touch $(TRAIN)

clean:  ## remove the virtual environment and compiled caches
	rm -rf $(VENV) build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
