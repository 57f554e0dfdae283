#!/bin/sh
# the deep-label run of bench/results/othello_eval2.md (resumable: rerun to continue from runs/othello_eval2)
exec nice -n 15 ${PYTHON:-/work/main/.venv/bin/python} -m engines.learn.othello.train --out runs/othello_eval2 \
  --weights-out runs/othello_eval2/patterns.npz --games 20000 --seed 4 --random-opening 12 --epsilon 0.05 \
  --self-play-weights weights/othello/patterns.npz --pattern-share 0.8 --exact 19 --depth 6 --label-search pvs \
  --workers 2 --nice 19 --prior-weights weights/othello/patterns.npz --keep-prior-up-to 15 \
  --compare-weights weights/othello/patterns.npz --per-phase 3000 --per-phase-exact 1600 --iterations 200 --ridge-grid 30 100 300 1000 3000 --quiet
