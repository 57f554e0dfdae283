"""The Hex policy CNN in PyTorch (the `train` extra): the network of engines/knowledge/hex/conv.py
(framed board, hex convolutions, one-channel head), trained on the same flat observations as ANET
and handed out as a hexconv.ConvNetwork for the compiled forward pass and the network files.
"""
import numpy as np

from engines.knowledge.hex import conv as hexconv

try:
    import torch
except ModuleNotFoundError as err:  # a clear message instead of a bare import error
    raise ModuleNotFoundError("training needs PyTorch, the `train` extra: run `make train-extra` "
                              "(or pip install -e '.[train]')", name=err.name) from None

MASKED = -1e9  # logit of an illegal move during training


def _hex_mask() -> "torch.Tensor":
    """3 x 3 kernel mask: 1 on hexconv.TAPS (offset (dr, dc) at [dr + 1, dc + 1]), 0 on the two corners."""
    mask = torch.zeros(3, 3)
    for dr, dc in hexconv.TAPS:
        mask[dr + 1, dc + 1] = 1.0
    return mask


class HexCNN(torch.nn.Module):
    """``layers`` hex convolutions of ``channels`` channels (ReLU) and a one-channel head, for n x n;
    trained with Adam like ANET (train_step, network), a policy without a value network."""

    value = None

    def __init__(self, size: int, channels: int = 32, layers: int = 4, learning_rate: float = 1e-3, seed: int = 0):
        super().__init__()
        torch.set_num_threads(1)  # small networks, shared cores (as ANET)
        torch.manual_seed(seed)
        self.size, self.channels, self.layers = size, channels, layers
        self.convs = torch.nn.ModuleList(torch.nn.Conv2d(a, b, 3) for a, b in hexconv.layer_shapes(channels, layers))
        self.register_buffer("mask", _hex_mask())
        self.register_buffer("frame", torch.from_numpy(hexconv.frame(size))[None])
        self.optimizer = torch.optim.Adam(self.parameters(), lr=learning_rate)

    def forward(self, x: "torch.Tensor") -> "torch.Tensor":
        """The logits (batch, n*n) of flat observations (batch, 3*n*n)."""
        n = self.size
        h = torch.nn.functional.pad(x.view(-1, hexconv.PLANES, n, n), (1, 1, 1, 1)) + self.frame
        for i, conv in enumerate(self.convs):
            h = torch.nn.functional.conv2d(h, conv.weight * self.mask, conv.bias, padding=1)
            if i < self.layers:
                h = torch.relu(h)
        return h[:, 0, 1:-1, 1:-1].reshape(len(x), n * n)

    def masked_logits(self, x: "torch.Tensor") -> "torch.Tensor":
        nn = self.size * self.size
        return self(x).masked_fill((x[:, :nn] + x[:, nn:2 * nn]) > 0.5, MASKED)

    def train_step(self, x: np.ndarray, d: np.ndarray, z: np.ndarray | None = None) -> dict:
        """One gradient step on a minibatch (z, the results, is not used: no value network)."""
        logits = self.masked_logits(torch.as_tensor(x, dtype=torch.float32))
        loss = -(torch.as_tensor(d, dtype=torch.float32) * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return {"loss": loss.item()}

    def value_network(self) -> None:
        return None

    def load(self, network: hexconv.ConvNetwork) -> None:
        """Start from saved weights (same channels and layers)."""
        if (network.channels, network.layers) != (self.channels, self.layers):
            raise ValueError(f"the network has {network.layers} layers of {network.channels} channels, "
                             f"this one {self.layers} of {self.channels}")
        with torch.no_grad():
            for conv, (w, b) in zip(self.convs, network.arrays()):
                kernel = torch.zeros_like(conv.weight)
                for k, (dr, dc) in enumerate(hexconv.TAPS):
                    kernel[:, :, dr + 1, dc + 1] = torch.from_numpy(w[k].T.copy())
                conv.weight.copy_(kernel)
                conv.bias.copy_(torch.from_numpy(b.copy()))

    def network(self) -> hexconv.ConvNetwork:
        """The weights as a hexconv.ConvNetwork: each 3 x 3 kernel read at the seven taps."""
        parts = []
        with torch.no_grad():
            for conv in self.convs:
                w = conv.weight.numpy()  # (outputs, inputs, 3, 3)
                taps = np.stack([w[:, :, dr + 1, dc + 1].T for dr, dc in hexconv.TAPS])  # (7, inputs, outputs)
                parts += [taps.reshape(-1), conv.bias.numpy().reshape(-1)]
        return hexconv.ConvNetwork(np.concatenate(parts), self.channels, self.layers, self.size)
