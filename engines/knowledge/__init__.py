"""Knowledge: what a search knows of a game beyond its rules, handed over as one bundle
(engines/knowledge/bundle.py): evaluations, value functions, priors, rollout weights, networks.
Each game's registered knowledge lives in a module named after it (go.py, othello.py, hex.py)."""
