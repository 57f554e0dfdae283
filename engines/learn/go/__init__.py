"""Go learning: move-feature weights fitted by Coulom's MM (mm.py) on game records the project makes
itself (games.py)."""
