"""GTP regression files in gogui-regress format, and the runner that executes them.

`python -m regress.runner ENGINE_COMMAND FILE.gtp...` (regress/runner.py) runs files with the
semantics of gogui-regress 1.4.9 (see regress/README.md); regress/fake_engine.py is a scripted GTP
engine the tests drive it with.
"""
