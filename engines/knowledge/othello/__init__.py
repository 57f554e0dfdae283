"""Othello knowledge: the hand-written evaluations (evaluation), the learned pattern evaluation
(patterns), the exact endgame solver (endgame), and the game's registered evaluations, value functions
and bundles with the endgame solve the players call (registered).

This package module imports nothing, so that a light module (a weights format, the ownership)
loads without the compiled game."""
