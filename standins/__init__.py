"""Local stand-ins of the real harnesses and their opponents, so every adapter is tested end to end:
the Othello judge (otp_judge) and its random engine (otp_random), the Othello game manager
(othello_manager) and its random agent (othello_randy), the Little-Go host (littlego_host) and the
assignment's opponents (littlego_opponents), the Online Hex Tournament server (oht_server), a
referee of Hex GTP engines (hex_referee, HexGui's part in matches) and GNU Go self-play records for
the Go weights (gnugo_games).  The Go match referee behind `plies go match` is a product feature, not a
stand-in: it lives in regress/go_match.py with the controller side of an engine process
(regress/gtp_client.py), which hex_referee shares.
Nothing a harness runs imports this package."""
