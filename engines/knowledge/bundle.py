"""Knowledge handed to a search as one bundle (the registry of each game's default bundle is
engines/knowledge/registry.py; this module names no game).

A ``Knowledge`` holds every game-specific piece a search may use, as compiled kernels with their
parameter vectors (signatures in engines/kernels.py):
  evaluate, eval_params    SIG_EVALUATE: a heuristic score for the side to move (alpha-beta)
  features_init, features_play, evaluate_features, features_len
                           optional, all or none: the same score as evaluate, computed incrementally
                           from a row of features_len int64 features per position that the search
                           keeps along its path (SIG_FEATURES_INIT / _PLAY, SIG_EVALUATE_FEATURES,
                           with eval_params)
  value, value_params      SIG_VALUE: P(player 0 wins) of a position (MCTS with rollout="value")
  prior, prior_params      SIG_PRIOR: prior probabilities of the moves (MCTS priors); the string
                           "network" for the softmax of ``network``; None for uniform priors
  rollout_weights          one non-negative weight per action (MCTS rollout="weighted")
  network                  a policy network (MCTS rollout="network", prior="network"): any object of the
                           PolicyNetwork shape below, e.g. the fully connected Network here or a game's
                           own (Hex's ConvNetwork); the search runs its compiled forward pass
                           (``policy_kernel()``, SIG_POLICY) on its packed parameters (``packed()``)
  children                 SIG_LEGAL: the moves an MCTS node gets as children, in child order (None:
                           the game's legal moves)
  playout                  SIG_PLAYOUT: the playout of MCTS rollout="random" (None: the game's own)
A search takes what its configuration needs and says so when a needed piece is missing.

A search takes a policy network as a kernel and a parameter vector, so it never names a kind of
network, nor the game one belongs to.
"""
from dataclasses import dataclass, field, replace
from typing import Protocol, runtime_checkable

import numpy as np

from engines import kernels as K
from engines.knowledge import mlp
from engines.validate import check_choice, check_int

NETWORK_PRIOR = "network"  # Knowledge.prior value: priors from the softmax of the policy network


def _params(name: str, values) -> np.ndarray:
    """values as a fresh one-dimensional float64 array of finite numbers (ValueError naming it)."""
    try:
        array = np.array(values, dtype=np.float64) if np.ndim(values) == 1 else None
    except (TypeError, ValueError):
        array = None
    if array is None or not np.isfinite(array).all():
        raise ValueError(f"{name} must be a one-dimensional array of finite numbers, got {values!r}")
    return np.ascontiguousarray(array)


def _kernel(name: str, kernel, sig):
    if kernel is not None:
        K.function_value(kernel, sig, name)  # ValueError unless a numba kernel with that signature
    return kernel


@runtime_checkable
class PolicyNetwork(Protocol):
    """What a search needs of a policy network: its compiled forward pass and the vector it runs on."""

    def policy_kernel(self):
        """The numba kernel (signature engines.kernels.SIG_POLICY) writing the logits of an observation."""

    def packed(self) -> np.ndarray:
        """The network as the one float64 vector policy_kernel reads."""

    def policy_shape(self) -> tuple[int, int]:
        """(inputs, outputs): the observation's length and the number of actions."""


@dataclass(frozen=True, eq=False)
class Network:
    """A small fully connected network (engines/knowledge/mlp.py): ``layers`` = [inputs, hidden...,
    outputs], ``params`` the float32 weights and biases layer by layer, ``activation`` of the hidden
    layers (one of mlp.ACTIVATIONS; the output layer is linear)."""
    params: np.ndarray
    layers: tuple
    activation: str = "relu"

    def __post_init__(self):
        check_choice("Network.activation", self.activation, tuple(mlp.ACTIVATIONS))
        try:
            layers = tuple(check_int("Network.layers entries", v, 1) for v in self.layers)
        except TypeError:
            raise ValueError(f"Network.layers must be a sequence of layer widths, got {self.layers!r}") from None
        if len(layers) < 2:
            raise ValueError(f"Network.layers needs at least an input and an output width, got {layers!r}")
        params = np.ascontiguousarray(np.array(self.params, dtype=np.float32).reshape(-1))
        if params.shape[0] != mlp.param_count(layers) or not np.isfinite(params).all():
            raise ValueError(f"Network with layers {list(layers)} needs {mlp.param_count(layers)} finite "
                             f"parameters, got {params.shape[0]}")
        object.__setattr__(self, "layers", layers)
        object.__setattr__(self, "params", params)

    @property
    def activation_code(self) -> int:
        return mlp.ACTIVATIONS[self.activation]

    def policy_kernel(self):
        return mlp.forward_packed

    def packed(self) -> np.ndarray:
        return mlp.pack(self)

    def policy_shape(self) -> tuple[int, int]:
        return int(self.layers[0]), int(self.layers[-1])


@dataclass(frozen=True, eq=False)
class Knowledge:
    """Everything game-specific a search may use (see the module docstring).  Arrays are copied at
    construction; ``with_prior_weights`` and ``dataclasses.replace`` derive variants."""
    evaluate: object = None
    eval_params: np.ndarray = field(default_factory=lambda: np.zeros(0))
    value: object = None
    value_params: np.ndarray = field(default_factory=lambda: np.zeros(0))
    prior: object = None
    prior_params: np.ndarray = field(default_factory=lambda: np.zeros(0))
    rollout_weights: np.ndarray | None = None
    network: PolicyNetwork | None = None  # a policy network: an MLP (Network), a game's own (Hex's CNN)
    children: object = None
    playout: object = None  # SIG_PLAYOUT: replaces the game's playout for MCTS rollout="random"
    features_init: object = None      # SIG_FEATURES_INIT  (the incremental form of evaluate: all four or none)
    features_play: object = None      # SIG_FEATURES_PLAY
    evaluate_features: object = None  # SIG_EVALUATE_FEATURES
    features_len: int = 0             # int64 features per position

    def __post_init__(self):
        _kernel("Knowledge.evaluate", self.evaluate, K.SIG_EVALUATE)
        _kernel("Knowledge.features_init", self.features_init, K.SIG_FEATURES_INIT)
        _kernel("Knowledge.features_play", self.features_play, K.SIG_FEATURES_PLAY)
        _kernel("Knowledge.evaluate_features", self.evaluate_features, K.SIG_EVALUATE_FEATURES)
        incremental = (self.features_init, self.features_play, self.evaluate_features)
        if any(k is not None for k in incremental):
            if any(k is None for k in incremental) or self.evaluate is None:
                raise ValueError("Knowledge: an incremental evaluation needs evaluate, features_init, "
                                 "features_play and evaluate_features together")
            check_int("Knowledge.features_len", self.features_len, 1)
        elif self.features_len != 0:
            raise ValueError("Knowledge.features_len is set without an incremental evaluation")
        _kernel("Knowledge.value", self.value, K.SIG_VALUE)
        _kernel("Knowledge.children", self.children, K.SIG_LEGAL)
        _kernel("Knowledge.playout", self.playout, K.SIG_PLAYOUT)
        if isinstance(self.prior, str):
            check_choice("Knowledge.prior (as text)", self.prior, (NETWORK_PRIOR,))
            if self.network is None:
                raise ValueError('Knowledge.prior="network" needs Knowledge.network')
        else:
            _kernel("Knowledge.prior", self.prior, K.SIG_PRIOR)
        if self.network is not None and not isinstance(self.network, PolicyNetwork):
            raise ValueError(f"Knowledge.network must be a policy network (a Network, a ConvNetwork) or None, "
                             f"got {self.network!r}")
        for name in ("eval_params", "value_params", "prior_params"):
            object.__setattr__(self, name, _params(f"Knowledge.{name}", getattr(self, name)))
        if self.rollout_weights is not None:
            weights = _params("Knowledge.rollout_weights", self.rollout_weights)
            if (weights < 0).any():
                raise ValueError("Knowledge.rollout_weights must be non-negative")
            object.__setattr__(self, "rollout_weights", weights)

    def with_prior_weights(self, weights) -> "Knowledge":
        """A copy whose prior is proportional to a fixed per-action weight vector (weights >= 0)."""
        from engines.knowledge.priors import weighted_prior
        weights = _params("prior weights", weights)
        if (weights < 0).any():
            raise ValueError("prior weights must be non-negative")
        return replace(self, prior=weighted_prior, prior_params=weights)

    def replace(self, **changes) -> "Knowledge":
        """A copy with some fields changed (validated like a new bundle)."""
        return replace(self, **changes)
