"""Hex knowledge: connection distances (distance), bridge playouts, inferior cells and virtual
connections (patterns), the exact solver (solver), networks and their hex convolution (network, conv),
and the game's registered evaluations, value functions and bundles (registered).

This package module imports nothing, so that a light module (a weights format, the ownership)
loads without the compiled game."""
