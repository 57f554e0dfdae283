"""The Hex searcher both Hex adapters build from their settings (plies-gtp-hex, the tournament
client's HexPlayer): RAVE with the Hex knowledge by default, MCTS on request, MCTS in the network's
playouts with a network.  Importing it imports no engine (a cold cache compiles nothing here).

Knowledge (engines/knowledge/hex_patterns.py) is named in the settings as 'all', 'none', or pieces
joined by '+': patterns (bridge-answering playouts), inferior (dead, captured and dominated cells kept
out of the tree), connections (virtual connections that decide a node early)."""

SEARCHES = ("rave", "mcts")
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


def settings_problems(search: str | None, knowledge: str, network: bool) -> list[str]:
    """What is wrong with a choice of search and knowledge (network: a network is set)."""
    problems = []
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


def make_hex_searcher(game, search: str | None, knowledge: str, network, mcts_config: dict, seed: int,
                      capacity: int, **options):
    """The searcher: RAVE with the knowledge's traced playouts (search 'rave', or None without a
    network), MCTS with the knowledge (search 'mcts'), or MCTS in the network's playouts (a network;
    mcts_config then holds its rollout settings).  options go to make_searcher (clock=...)."""
    from engines.knowledge.hex import RAVE_CONFIG, heavy_knowledge, hex_knowledge
    from engines.knowledge.network import policy_knowledge
    from engines.search import make_searcher
    pieces = knowledge_pieces(knowledge)
    if search == "rave" or (search is None and network is None):
        return make_searcher("rave", game, RAVE_CONFIG, heavy_knowledge(game, *pieces), seed, capacity=capacity,
                             **options)
    if network is not None:
        bundle = policy_knowledge(network)
    else:
        bundle = hex_knowledge(game, *pieces) if any(pieces) else None
    return make_searcher("mcts", game, mcts_config, bundle, seed, capacity=capacity, **options)
