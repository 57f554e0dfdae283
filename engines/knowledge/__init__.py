"""Knowledge: priors, move features, networks."""
