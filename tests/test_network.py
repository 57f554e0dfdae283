"""engines/knowledge/hex/network.py, the one loader of network files: what it refuses (each a NetworkError
naming the file and the fault), the board size a network plays, and the shipped networks found
through the weights package."""
import json

import numpy as np
import pytest

import weights
from engines.knowledge.hex import network as N
from engines.knowledge.bundle import Network
from engines.knowledge.mlp import param_count
from engines.learn.network_file import save_network


def random_network(layers, seed=0) -> Network:
    weights_ = np.random.default_rng(seed).normal(0, 0.3, param_count(layers)).astype(np.float32)
    return Network(weights_, tuple(layers), "relu")


def test_a_network_plays_the_board_of_its_layers_and_its_sidecar():
    assert N.network_size(random_network((75, 16, 25))) == 5
    assert N.network_size(random_network((27, 9))) == 3
    assert N.network_size({"size": 6, "layers": [108, 36]}) == 6
    assert N.network_size({"layers": [48, 8, 16]}) == 4
    for bad, says in (((75, 16, 24), "fit no board"), ((74, 16, 25), "fit no board")):
        with pytest.raises(N.NetworkError, match=says):
            N.network_size(random_network(bad))
    for sidecar in ({"size": 0}, {"size": "5"}, {"size": True}, {}, {"layers": "75,25"}):
        with pytest.raises(N.NetworkError):
            N.network_size(sidecar)


def test_load_network_checks_the_size_when_asked(tmp_path):
    path = save_network(tmp_path / "five.onnx", random_network((75, 16, 25)), {"size": 5})
    network, sidecar = N.load_network(path, 5)
    assert network.layers == (75, 16, 25) and sidecar["size"] == 5
    assert N.load_network(path)[0].layers == network.layers  # no size: whatever it plays
    with pytest.raises(N.NetworkError) as err:
        N.load_network(path, 7)
    assert str(err.value) == f"{path} is a network for 5x5, not for 7x7"


@pytest.mark.parametrize("damage, says", [
    ("missing", "no network file"),
    ("garbage", "is not a readable ONNX network"),
    ("empty", "takes one input \\(the board\\), this one takes none"),  # an empty file is an empty ONNX model
    ("no policy", "a network for 1x1: Hex is played on 3x3"),  # one value out: run as any network, no board
    ("no board", "fit no board"),
    ("sidecar disagrees", "the sidecar says 4x4, the layers are for 5x5"),
    ("bad sidecar", "cannot read its sidecar net.json"),
])
def test_what_is_no_network_is_a_network_error_naming_the_file(tmp_path, damage, says):
    path = tmp_path / "net.onnx"
    if damage == "garbage":
        path.write_bytes(b"\x00\xffnot a network at all" * 10)
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "no policy":
        import onnx
        from onnx import TensorProto, helper
        io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1]) for n in ("x", "y")]
        onnx.save(helper.make_model(helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g", io[:1],
                                                      io[1:])), str(path))
    elif damage == "no board":
        save_network(path, random_network((10, 4, 7)), {})
    elif damage in ("sidecar disagrees", "bad sidecar"):
        save_network(path, random_network((75, 8, 25)), {"size": 4})
        if damage == "bad sidecar":
            N.sidecar_path(path).write_text("{not json")
    with pytest.raises(N.NetworkError, match=says) as err:
        N.load_network(path)
    assert str(path) in str(err.value) and isinstance(err.value, ValueError)


def test_a_network_without_its_sidecar_still_loads(tmp_path):
    path = save_network(tmp_path / "bare.onnx", random_network((27, 6, 9)), {"size": 3})
    N.sidecar_path(path).unlink()
    network, sidecar = N.load_network(path, 3)
    assert sidecar == {} and network.activation == "relu"  # the activation read from the graph's nodes


def test_shipped_networks_come_from_the_weights_package():
    sizes = N.shipped_sizes()
    assert 5 in sizes and list(sizes) == sorted(sizes)
    for size in sizes:
        path = N.shipped_network_path(size)
        assert path == weights.HEX_DIR / f"hex{size}.onnx" and path.is_file()
        assert json.loads(N.sidecar_path(path).read_text())["size"] == size
    assert N.shipped_network_path(4) is None and N.shipped_network_path(19) is None
