"""Local stand-ins of the real harnesses and their opponents, so every adapter is tested end to end:
the Othello judge (otp_judge) and its random engine (otp_random), the Othello game manager
(othello_manager) and its random agent (othello_randy), the Little-Go host (littlego_host) and the
assignment's opponents (littlego_opponents), the Online Hex Tournament server (oht_server), and a
referee of Hex GTP engines (hex_referee, HexGui's part in matches).
Nothing a harness runs imports this package."""
