"""The compiled-kernel contract shared by every game and every search.

Representation: a game state is a flat ``np.int64`` array whose layout the game module owns (a
header of fixed fields, then the board).  Actions are ints in ``[0, num_actions)``.  Players are
0 (the side that moves first: Go black, Othello dark/black, Hex player 1) and 1.

Every kernel has one of the fixed numba signatures below.  A search receives the game's kernels as
first-class function values (numba ``FunctionType``): one compiled search then serves every game,
and numba can cache it on disk (it cannot cache closures or searches typed on dispatcher objects).

Records: a search kernel takes its arrays and its function values grouped in a few ``NamedTuple``
records (the tree, the scratch buffers, the parameters, the kernels), which numba types as tuples
and caches like any argument, so that no kernel needs more than a dozen positional parameters.
``record_type`` gives a record class's numba type for an explicit signature; ``kernel_record``
makes a class of function values typed by its class alone (numba would otherwise work out each
field's type again on every call, ~4 us a field).
"""
from typing import NamedTuple

from numba import types
from numba.extending import typeof_impl

try:  # numba's own wrapper for a compiled function used as a first-class value
    from numba.core.types.function_type import CompileResultWAP
except ImportError:  # pragma: no cover - numba moved it: plain dispatchers still work, with slower calls
    CompileResultWAP = None

STATE = types.int64[::1]
ACTIONS = types.int32[::1]
RNG = types.uint64[::1]
PARAMS = types.float64[::1]

# legal(state, out) -> count: writes the legal actions of the side to move into out.
SIG_LEGAL = types.int64(STATE, ACTIONS)
# apply(state, action): plays a legal action in place (the Python layer copies first).
SIG_APPLY = types.void(STATE, types.int64)
# terminal(state) -> True when the game is over.
SIG_TERMINAL = types.boolean(STATE)
# to_move(state) -> 0 or 1.
SIG_TO_MOVE = types.int64(STATE)
# result(state) -> value of a final state for player 0: 1 win, 0.5 draw, 0 loss.
SIG_RESULT = types.float64(STATE)
# playout(state, rng) -> plays uniformly random moves to the end (mutating state), value for player 0.
SIG_PLAYOUT = types.float64(STATE, RNG)
# hash(state) -> Zobrist key of the position and side to move (transposition tables).
SIG_HASH = types.int64(STATE)
# evaluate(state, params) -> heuristic score for the side to move (alpha-beta cut-offs); larger is better.
SIG_EVALUATE = types.float64(STATE, PARAMS)
# Incremental evaluation (optional, alpha-beta): a knowledge bundle may keep per-position features
# (an int64 row whose meaning its module documents, e.g. pattern indices) that follow the moves:
# features_init(state, features) fills the row of a position from scratch;
# features_play(parent, child, parent_features, child_features) writes the child's row from its
# parent's (child = parent after one action; a cheap update of what the move changed);
# evaluate_features(state, features, params) -> the same score as the bundle's evaluate(state, params).
FEATURES = types.int64[::1]
SIG_FEATURES_INIT = types.void(STATE, FEATURES)
SIG_FEATURES_PLAY = types.void(STATE, STATE, FEATURES, FEATURES)
SIG_EVALUATE_FEATURES = types.float64(STATE, FEATURES, PARAMS)
# value(state, params) -> estimated value for player 0 in [0, 1] (MCTS without rollouts).
SIG_VALUE = types.float64(STATE, PARAMS)
# observe(state, out): fills a float32 observation tensor (flattened) for networks.
SIG_OBSERVE = types.void(STATE, types.float32[::1])
# prior(state, actions, n, out, params): writes a prior probability for each of the n actions.
SIG_PRIOR = types.void(STATE, ACTIONS, types.int64, types.float64[::1], PARAMS)
# policy(observation, packed, out): a policy network's forward pass, writing one logit per action into
# out from a float32 observation (observe's) and the network packed as one float64 vector.
SIG_POLICY = types.void(types.float32[::1], PARAMS, types.float32[::1])


def ftype(sig):
    """The numba type of a function value with signature sig (for search signatures)."""
    return types.FunctionType(sig)


if CompileResultWAP is not None:
    class _FunctionValue(CompileResultWAP):
        """A compiled kernel as a function value whose address and numba type are computed once:
        passing a plain dispatcher costs ~25 us of Python per argument per call, this ~5 us."""

        def __init__(self, dispatcher, sig):
            super().__init__(dispatcher.get_compile_result(sig))
            self._numba_type_ = ftype(sig)


def function_value(kernel, sig, what: str = "kernel"):
    """kernel prepared once for passing to compiled searches; ValueError if it does not fit sig."""
    try:
        kernel.get_compile_result(sig)
        return _FunctionValue(kernel, sig) if CompileResultWAP is not None else kernel
    except Exception as exc:  # not a numba dispatcher, or not compilable with sig
        raise ValueError(f"{what} must be a numba kernel with signature {sig}: {exc}") from None


class GameKernels(NamedTuple):
    """The compiled rules of one game, as a search needs them."""
    legal: object        # SIG_LEGAL
    rollout_moves: object  # SIG_LEGAL: the moves a rollout policy may choose (Go: no own-eye filling)
    apply: object        # SIG_APPLY
    terminal: object     # SIG_TERMINAL
    to_move: object      # SIG_TO_MOVE
    result: object       # SIG_RESULT: for a non-final state, the game's score-based estimate
    playout: object      # SIG_PLAYOUT
    hash: object         # SIG_HASH
    observe: object      # SIG_OBSERVE

# ---- kernels of the RAVE search (engines/search/rave.py) -----------------------------------------
# traced_playout(state, rng, trace, params) -> count: plays a policy playout to the end (mutating
# state, which is left at the final position), writes the actions played, one per ply and players
# alternating, to trace[:count] (-1 for a move that earns no AMAF credit, e.g. Go's pass).
SIG_TRACED_PLAYOUT = types.int64(STATE, RNG, types.int64[::1], PARAMS)
# experience(state, actions, n, visits, wins, params): virtual visits of each of the n children and
# the virtual wins of the player to move among them (priors as virtual experience).
SIG_EXPERIENCE = types.void(STATE, ACTIONS, types.int64, types.float64[::1], types.float64[::1], PARAMS)
# ownership(state, out): adds to out[i] +1 / -1 / 0 when point i of a final position belongs to
# player 0 / player 1 / neither.
SIG_OWNERSHIP = types.void(STATE, types.float64[::1])


# ---- records: arrays and kernels grouped into one argument ---------------------------------------

def record_type(cls, field_types):
    """The numba type of the NamedTuple class cls whose fields have field_types (in field order)."""
    field_types = tuple(field_types)
    if len(field_types) != len(cls._fields):
        raise ValueError(f"{cls.__name__} has {len(cls._fields)} fields, got {len(field_types)} types")
    if all(t == field_types[0] for t in field_types):
        return types.NamedUniTuple(field_types[0], len(field_types), cls)
    return types.NamedTuple(field_types, cls)


def kernel_record(cls, sigs):
    """Registers cls, a NamedTuple class of function values with signatures sigs (in field order),
    as a kernel record: numba types every instance as the returned type without looking at its
    fields, so instances must be built by ``make_record`` (which checks each kernel)."""
    numba_type = record_type(cls, [ftype(sig) for sig in sigs])
    cls.SIGNATURES = tuple(sigs)
    typeof_impl.register(cls)(lambda value, context: numba_type)
    return numba_type


def make_record(cls, **kernels):
    """An instance of the kernel record cls, each kernel prepared by function_value (ValueError naming
    the field when one does not fit its signature)."""
    return cls(*(function_value(kernels[name], sig, name) for name, sig in zip(cls._fields, cls.SIGNATURES)))
