"""Knowledge: what a search knows of a game beyond its rules, handed over as one bundle
(engines/knowledge/bundle.py): evaluations, value functions, priors, rollout weights, networks.
One subpackage per game (go/, othello/, hex/): its package module holds the game's registered
knowledge (evaluations, value functions, bundles), its modules the parts (Go: move features and Go5's
weights and prior, the RAVE search's playout policy and priors, ownership; Othello: evaluations,
patterns, the exact endgame; Hex: distances, patterns and inferior cells, the solver, networks and
their convolution).  Shared by all games: bundle.py (the bundle, which names no game), registry.py
(each game's registered knowledge, above the games' modules), rave_bundle.py (the RAVE search's extra
kernels), mlp.py, priors.py, scores.py."""
