"""The reference rules: pure-Python twins of the compiled games, importable without numba.

They play while the compiled kernels are still being built (the cold start, engines/players/coldstart.py),
and the local harness stand-ins referee by them.  Each is checked against its compiled game in random games
on every size the game supports (tests/test_reference_rules.py).

  go        Go on 2x2..19x19 (flood fill, captures, simple ko, area score)
  littlego  the Little-Go host's 5x5 variant (its own ko and end rules; uses go's flood fill)
  othello   Othello on even sizes, with passes
  hex       Hex on 3x3..19x19 (the winner by flood fill)
"""
