"""`plies hex ...`: the Hex sub-commands (training and tournaments of networks, the local Online Hex
Tournament server and clients).  Each owning module offers ``add_parsers(hexsub)``."""
from adapters import hex_train
from standins import oht_server

VERB_MODULES = (hex_train, oht_server)  # the modules contributing `plies hex` verbs


def add_hex_parser(sub):
    p = sub.add_parser("hex", help="Hex: train networks, run their tournament, serve a local Hex tournament")
    hexsub = p.add_subparsers(dest="hex_command", required=True)
    for module in VERB_MODULES:
        module.add_parsers(hexsub)
