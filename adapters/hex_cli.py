"""`plies hex ...`: the Hex sub-commands (training and tournaments of networks, the local Online Hex
Tournament server and clients).  Each owning module offers ``add_parsers(hexsub)``."""
import importlib

# modules contributing `plies hex` verbs, each with add_parsers(subparsers)
MODULES = ("adapters.hex_train", "standins.oht_server")


def add_hex_parser(sub):
    p = sub.add_parser("hex", help="Hex: train networks, run their tournament, serve a local Hex tournament")
    hexsub = p.add_subparsers(dest="hex_command", required=True)
    for name in MODULES:
        importlib.import_module(name).add_parsers(hexsub)
