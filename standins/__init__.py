"""Local stand-ins of the real harnesses and their opponents, so every adapter is tested end to end:
the Othello judge (otp_judge) and its random engine (otp_random), the Othello game manager
(othello_manager) and its random agent (othello_randy), the Little-Go host (littlego_host) and the
assignment's opponents (littlego_opponents), the Online Hex Tournament server (oht_server), a
referee of Hex GTP engines (hex_referee, HexGui's part in matches), a referee of Go matches between
GTP engines (go_referee, gogui-twogtp's part; gtp_client is the controller side of an engine process,
shared with hex_referee) and GNU Go self-play records for the Go weights (gnugo_games).
Nothing a harness runs imports this package."""
