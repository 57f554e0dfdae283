"""Learning: the knowledge plies trains itself, one subpackage per game, and what they share.

  hex/       on-policy MCTS training of an actor network (ANET) and the tournament of progressive
             policies (TOPP), after the seed's pseudocode; and networks taught by the knowledge-rich
             search (teacher games, then fitting)
  go/        Go move-feature weights by Coulom's MM (mm.py) on game records the project makes itself
             (games.py: GNU Go self-play, written as SGF)
  othello/   the Othello pattern evaluation from self-play (train.py) and ProbCut's fitted rows
             (probcut_fit.py)
  network_file.py   writing network files (ONNX + sidecar; reading them is engines/knowledge/hex/network.py's:
                    networks are knowledge)
  plots.py          PNG figures of a run

Nothing that plays imports this package (tests/test_layering.py): PyTorch is the optional `train` extra.
"""
