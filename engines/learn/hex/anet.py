"""ANET, the actor network, in PyTorch (the `train` extra: import this module only to train).

A fully connected network: input the state's 3*n*n encoding (both players' stones and the player to
move), hidden layers of the configured widths and activation, output n*n logits.  Training minimises
the cross-entropy between D (the MCTS visit distribution) and the softmax over the legal moves
(illegal logits masked out: the network never spends capacity on them).  Optionally a value network
(same input and hidden widths, one output: the logit of P(player 0 wins)) trained on the results.
Weights go out as engines.knowledge.bundle.Network (the compiled forward pass and ONNX files).
"""
import numpy as np

from engines.knowledge.bundle import Network

try:
    import torch
except ModuleNotFoundError as err:  # a clear message instead of a bare import error
    raise ModuleNotFoundError("training needs PyTorch, the `train` extra: run `make train-extra` "
                              "(or pip install -e '.[train]')", name=err.name) from None

ACTIVATIONS = {"linear": torch.nn.Identity, "sigmoid": torch.nn.Sigmoid, "tanh": torch.nn.Tanh,
               "relu": torch.nn.ReLU}
OPTIMIZERS = {"adagrad": torch.optim.Adagrad, "sgd": torch.optim.SGD, "rmsprop": torch.optim.RMSprop,
              "adam": torch.optim.Adam}
MASKED = -1e9  # logit of an illegal move during training


def _mlp(layers, activation):
    mods = []
    for i, (a, b) in enumerate(zip(layers[:-1], layers[1:])):
        mods.append(torch.nn.Linear(a, b))
        if i < len(layers) - 2:
            mods.append(ACTIVATIONS[activation]())
    return torch.nn.Sequential(*mods)


def _to_network(model, layers, activation) -> Network:
    parts = []
    for m in model:
        if isinstance(m, torch.nn.Linear):
            parts += [m.weight.detach().numpy().T.reshape(-1), m.bias.detach().numpy().reshape(-1)]
    return Network(np.concatenate(parts).astype(np.float32), tuple(layers), activation)


def _load(model, network: Network):
    off = 0
    with torch.no_grad():
        for m in model:
            if isinstance(m, torch.nn.Linear):
                n_out, n_in = m.weight.shape
                w = network.params[off:off + n_in * n_out].reshape(n_in, n_out)
                off += n_in * n_out
                m.weight.copy_(torch.from_numpy(w.T.copy()))
                m.bias.copy_(torch.from_numpy(network.params[off:off + n_out].copy()))
                off += n_out


class ANET:
    """The actor network: ``layers`` [3*n*n, hidden..., n*n], activation, optimizer and learning rate
    by name; ``value_head`` adds the value network."""

    def __init__(self, layers, activation: str = "relu", optimizer: str = "adam", learning_rate: float = 1e-3,
                 value_head: bool = False, seed: int = 0):
        torch.set_num_threads(1)  # small networks: threads cost more than they give (and cores are shared)
        torch.manual_seed(seed)
        self.layers = list(layers)
        self.actions = self.layers[-1]
        self.activation = activation
        self.policy = _mlp(self.layers, activation)
        self.value = _mlp(self.layers[:-1] + [1], activation) if value_head else None
        params = list(self.policy.parameters()) + (list(self.value.parameters()) if self.value is not None else [])
        self.optimizer = OPTIMIZERS[optimizer](params, lr=learning_rate)

    @classmethod
    def from_config(cls, cfg):
        return cls(cfg.layers, cfg.activation, cfg.optimizer, cfg.learning_rate, cfg.value_head, cfg.seed)

    def load(self, network: Network, value: Network | None = None) -> None:
        """Start from saved weights (same layers)."""
        if list(network.layers) != self.layers:
            raise ValueError(f"the network has layers {list(network.layers)}, ANET {self.layers}")
        _load(self.policy, network)
        if value is not None and self.value is not None:
            _load(self.value, value)

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The logits (no masking), for tests against the exported forms."""
        with torch.no_grad():
            return self.policy(torch.as_tensor(np.asarray(x, np.float32))).numpy()

    def _legal(self, x):
        nn = self.actions
        return (x[:, :nn] + x[:, nn:2 * nn]) < 0.5

    def masked_logits(self, x):
        """The policy's logits of a batch of observations (a tensor), illegal moves at MASKED."""
        return self.policy(x).masked_fill(~self._legal(x), MASKED)

    def train_step(self, x: np.ndarray, d: np.ndarray, z: np.ndarray | None = None) -> dict:
        """One gradient step on a minibatch; returns the policy loss (cross-entropy) and value loss."""
        x = torch.as_tensor(x, dtype=torch.float32)
        d = torch.as_tensor(d, dtype=torch.float32)
        logits = self.masked_logits(x)
        policy_loss = -(d * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        loss = policy_loss
        out = {"loss": policy_loss.item()}
        if self.value is not None and z is not None:
            v = self.value(x)[:, 0]
            value_loss = torch.nn.functional.binary_cross_entropy_with_logits(v, torch.as_tensor(z, dtype=torch.float32))
            loss = loss + value_loss
            out["value_loss"] = value_loss.item()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return out

    def network(self) -> Network:
        return _to_network(self.policy, self.layers, self.activation)

    def value_network(self) -> Network | None:
        return _to_network(self.value, self.layers[:-1] + [1], self.activation) if self.value is not None else None
