"""Harness entry points: each wires a protocol codec to the engine and owns the session."""
