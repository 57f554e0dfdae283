"""Go knowledge: move features and Go5's weights and prior (features, go5_weights, go5_prior), the RAVE
search's playout policy and tree priors (rave_knowledge), ownership and dead stones (ownership), and
the game's registered evaluations, value functions and bundles (registered).

This package module imports nothing, so that a light module (a weights format, the ownership)
loads without the compiled game."""
