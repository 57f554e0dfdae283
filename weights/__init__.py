"""The shipped model files, installed as package data (setup.cfg [options.package_data]) so that an
installed plies finds them wherever it lives:

  hex/hex{size}.onnx + .json   the Hex actor networks played by the adapters: policy CNNs taught by the
                               knowledge-rich search (sidecar: recipe, teacher, fitting, CPU hours, figures)
  hex/prior{size}.onnx + .json a policy CNN the adapters' RAVE search takes as its prior where one is
                               shipped (none is yet; sidecar: its teacher, its fitting, "plays")
  hex/hex.toml                 the seed's demonstration run (make train-hex)
  hex/topp5/                   the networks a 200-episode 5x5 run saved, for the TOPP demonstration

Loading is engines/knowledge/hex/network.py's (``shipped_network_path``).
"""
from pathlib import Path

HEX_DIR = Path(__file__).resolve().parent / "hex"
