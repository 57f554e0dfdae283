"""A settings field: its default, one line of meaning, its type and the allowed values.

Every tunable of a player (engines/players/) and of an adapter is a field of a frozen dataclass made
with ``setting``; adapters/config.py reads that metadata to fill the dataclass from a TOML file, the
environment and command-line flags, and to make the flags and the help (one path for all of them).
The engine defines the field so that players, which cannot import adapters/, declare settings the
same way the adapters do.
"""
import dataclasses


def setting(default, meaning: str, kind=None, choices=None, optional: bool | None = None):
    """A settings field: its default, one line of meaning, its type (default: the default's type; give
    it for a default of None, which makes the key optional: "none" in text is None) and the allowed
    values where they are few; ``optional`` lets a key with another default take None too."""
    kind = kind or type(default)
    optional = default is None if optional is None else optional
    return dataclasses.field(default=default, metadata={"meaning": meaning, "kind": kind, "choices": choices,
                                                        "optional": optional})
