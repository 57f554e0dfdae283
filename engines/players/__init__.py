"""One player per game (Go, Othello, Hex): between the engine's parts and the adapters.

A player assembles the game, the search and the knowledge, owns the game's policies (resign, pass,
cleanup, handicap; when to solve exactly, forced moves; swap, the network for a size) and asks the one
time manager (clock.py) for each move's deadline.  Every adapter of a game asks the same player, so a
setting means the same thing everywhere.  coldstart.py is the one cold-start path: the reference rules
and a shallow search play until the kernels are compiled.  generic.py is a plain player for any game
(random, or a search by name) and one game between two, for `plies play` and `plies demo`.

Nothing here imports a compiled kernel at module import but the game's player module itself
(go.py, othello.py, hex.py), which an adapter imports only once the cache is warm.
"""
