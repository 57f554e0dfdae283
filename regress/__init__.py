"""The GTP controller tools: regression files in gogui-regress format and the runner that executes
them, and the Go match referee (`plies go match`, gogui-twogtp's part).

`python -m regress.runner ENGINE_COMMAND FILE.gtp...` (regress/runner.py) runs files with the
semantics of gogui-regress 1.4.9 (see regress/README.md); regress/fake_engine.py is a scripted GTP
engine the tests drive it with.  regress/go_match.py referees matches between GTP engines;
regress/gtp_client.py is the controller side of an engine process (shared with the Hex referee).
"""
