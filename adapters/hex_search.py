"""The Hex searcher both Hex adapters build from their settings (plies-gtp-hex, the tournament
client's HexPlayer): RAVE with the Hex knowledge by default, MCTS on request, MCTS in the network's
playouts with a network.  Importing it imports no engine (a cold cache compiles nothing here).

Knowledge (engines/knowledge/hex_patterns.py) is named in the settings as 'all', 'none', or pieces
joined by '+': patterns (bridge-answering playouts), inferior (dead, captured and dominated cells kept
out of the tree), connections (virtual connections that decide a node early).

The RAVE search's prior (setting ``prior``): 'shipped' (the policy CNN shipped for the board size,
weights/hex/prior<n>.onnx, where one exists), 'none', or a network file; its move probabilities are
the children's virtual experience (engines.knowledge.hex.network_experience).  The MCTS search takes
no prior ('shipped' is then simply unused)."""
from pathlib import Path

SEARCHES = ("rave", "mcts")
SHIPPED = "shipped"
PIECES = ("patterns", "inferior", "connections")  # engines.knowledge.hex.hex_knowledge's arguments, in order


def knowledge_pieces(text: str) -> tuple[bool, bool, bool]:
    """(patterns, inferior, connections) named by text: 'all', 'none', or pieces joined by '+'
    ('patterns+connections'); ValueError for anything else."""
    if text in ("all", "none"):
        return (text == "all",) * 3
    names = text.split("+")
    if any(name not in PIECES for name in names) or len(set(names)) != len(names):
        raise ValueError(f"knowledge {text!r}: 'all', 'none' or pieces of {'+'.join(PIECES)} joined by '+'")
    return tuple(piece in names for piece in PIECES)


def settings_problems(search: str | None, knowledge: str, network: bool, prior: str = "none") -> list[str]:
    """What is wrong with a choice of search, knowledge and prior (network: a network is set)."""
    problems = []
    if prior not in (SHIPPED, "none") and (search == "mcts" or network):
        problems.append(f"prior {prior!r}: the prior is the rave search's, not with search mcts or a network")
    if search is not None and search not in SEARCHES:
        problems.append(f"search {search!r}: one of {', '.join(SEARCHES)}")
    try:
        knowledge_pieces(knowledge)
    except ValueError as err:
        problems.append(str(err))
    if network and (search == "rave" or knowledge not in ("none", "all")):
        problems.append("a network plays alone in the playouts of the mcts search: not with search rave "
                        "or knowledge pieces")
    return problems


def load_prior(choice: str, size: int):
    """The RAVE prior's network for size x size: None for 'none' or a size nothing is shipped for;
    NetworkError (engines.knowledge.network) for a file that is no network for that size."""
    from engines.knowledge.network import load_network, shipped_prior_path
    if choice == "none":
        return None
    path = shipped_prior_path(size) if choice == SHIPPED else Path(choice)
    return None if path is None else load_network(path, size)[0]


def make_hex_searcher(game, search: str | None, knowledge: str, network, mcts_config: dict, seed: int,
                      capacity: int, prior=None, **options):
    """The searcher: RAVE with the knowledge's traced playouts and the prior network's experience,
    if any (search 'rave', or None without a network), MCTS with the knowledge (search 'mcts'), or
    MCTS in the network's playouts (a network; mcts_config then holds its rollout settings).
    options go to make_searcher (clock=...)."""
    from engines.knowledge.hex import RAVE_CONFIG, heavy_knowledge, hex_knowledge
    from engines.knowledge.network import policy_knowledge
    from engines.search import make_searcher
    pieces = knowledge_pieces(knowledge)
    if search == "rave" or (search is None and network is None):
        return make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game, *pieces, network=prior), seed,
                             capacity=capacity, **options)
    if network is not None:
        bundle = policy_knowledge(network)
    else:
        bundle = hex_knowledge(game, *pieces) if any(pieces) else None
    return make_searcher("mcts", game, mcts_config, bundle, seed, capacity=capacity, **options)
