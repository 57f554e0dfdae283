"""Hex learning: on-policy MCTS training of an actor network (ANET) and the tournament of progressive
policies (TOPP), after the seed's pseudocode, and networks taught by the knowledge-rich search.

The four classes the seed asks for, one module each:
  state_manager.HexStateManager   all Hex logic the learner uses (start state, children, final, winner,
                                  network encoding, 180-degree symmetry, the diamond drawing)
  anet.ANET                       the actor network in PyTorch (imported lazily: the `train` extra)
  anet_mcts.PolicyMCTS            the project's MCTS with the network's epsilon-greedy rollouts
  topp.TOPP                       the round robin of saved networks
Around them: config (one TOML file, every parameter, command-line overrides), replay (RBUF), selfplay
(episodes, worker processes, Ray), trainer (the loop), agents (players outside training), teacher and
cnn (networks taught by the knowledge-rich search), value_net (a value network as an MCTS kernel), runs
(the steps `plies hex train | topp | play | teach | fit` run: output folders, starting or resuming a run,
the TOPP over a folder, games of saved networks).
"""
