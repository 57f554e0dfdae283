"""A settings field: its default, one line of meaning, its type and the allowed values.

Every tunable of a player (engines/players/) and of an adapter is a field of a frozen dataclass made
with ``setting``; adapters/config.py reads that metadata to fill the dataclass from a TOML file, the
environment and command-line flags, and to make the flags and the help (one path for all of them).
The engine defines the field so that players, which cannot import adapters/, declare settings the
same way the adapters do.  ``convert`` gives a value (from TOML, the environment or a flag's text)
the field's type, one conversion for every source.
"""
import dataclasses
import math

TRUE_TEXTS, FALSE_TEXTS = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def setting(default, meaning: str, kind=None, choices=None, optional: bool | None = None):
    """A settings field: its default, one line of meaning, its type (default: the default's type; give
    it for a default of None, which makes the key optional: "none" in text is None) and the allowed
    values where they are few; ``optional`` lets a key with another default take None too."""
    kind = kind or type(default)
    optional = default is None if optional is None else optional
    return dataclasses.field(default=default, metadata={"meaning": meaning, "kind": kind, "choices": choices,
                                                        "optional": optional})


def convert(field: dataclasses.Field, value):
    """value as the settings field's type (its metadata: ``kind``, ``choices``, ``optional``); text
    is read as the kind says (a bool from 1/0/true/false/yes/no/on/off; "none" is None where the key
    is optional).  ValueError(the value as far as it was read, what was expected) when it cannot be."""
    kind, choices = field.metadata.get("kind"), field.metadata.get("choices")
    optional = field.metadata.get("optional", field.default is None)
    if value is None or (optional and isinstance(value, str) and value.strip().lower() == "none"):
        return None
    try:
        if kind is bool:
            if isinstance(value, str):
                text = value.strip().lower()
                if text not in TRUE_TEXTS + FALSE_TEXTS:
                    raise ValueError(value)
                value = text in TRUE_TEXTS
            elif not isinstance(value, bool):
                raise ValueError(value)
        elif kind is int:
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(value)
            value = int(value)
        elif kind is float:
            if isinstance(value, bool):
                raise ValueError(value)
            value = float(value)
            if not math.isfinite(value):
                raise ValueError(value)
        elif kind is str:
            if not isinstance(value, str):
                raise ValueError(value)
    except (TypeError, ValueError):
        raise ValueError(value, f"expected {kind.__name__}") from None
    if choices is not None and value not in choices:
        raise ValueError(value, f"one of {', '.join(map(str, choices))}")
    return value
