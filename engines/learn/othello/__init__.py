"""Othello learning: the pattern evaluation trained from self-play (train.py) and ProbCut's rows fitted
for an evaluation (probcut_fit.py)."""
