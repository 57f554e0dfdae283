"""Hex learning: on-policy MCTS training of an actor network (ANET) and the tournament of progressive
policies (TOPP), after the seed's pseudocode.

The four classes the seed asks for, one module each:
  state_manager.HexStateManager   all Hex logic the learner uses (start state, children, final, winner,
                                  network encoding, 180-degree symmetry, the diamond drawing)
  anet.ANET                       the actor network in PyTorch (imported lazily: the `train` extra)
  search.PolicyMCTS               the project's MCTS with the network's epsilon-greedy rollouts
  topp.TOPP                       the round robin of saved networks
Around them: config (one TOML file, every parameter, command-line overrides), replay (RBUF), selfplay
(episodes, worker processes, Ray), trainer (the loop), network_file (writing ONNX + sidecar; reading
them is engines/knowledge/network.py's: networks are knowledge), plots.
"""
