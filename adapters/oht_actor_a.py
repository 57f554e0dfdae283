"""Our BasicClientActor for the Online Hex Tournament, generation A (specs/oht.md).

Drop this file (as BasicClientActor.py, or under its own name) beside the course's unmodified
BasicClientActorAbs.py and server.crt, then:

    python BasicClientActor.py            # or: BasicClientActor(verbose=False).connect_to_server()

The course's base class connects, logs in (the password read with getpass, never stored) and calls
the seven handlers below; every decision and the game record are plies' (adapters/oht_client.py
OHTAgent).  plies is found in the running Python, else in the folder named by PLIES_HOME.  Settings:
plies_oht.toml beside this file, then PLIES_OHT_<KEY>, then keywords given to the class (`plies hex
connect --help` lists every key).  A cold compiled-kernel cache is compiled in the background, quick
moves meanwhile (README.md, section "Online Hex Tournament").
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _find_plies():
    try:
        import adapters.oht_client  # noqa: F401 - the installed plies
        return
    except ImportError:
        pass
    home = os.environ.get("PLIES_HOME")
    if home:
        sys.path.insert(0, home)
        import adapters.oht_client  # noqa: F401
        return
    raise ImportError("BasicClientActor: cannot import plies; run this with the Python plies is installed in "
                      "(e.g. /path/to/plies/.venv/bin/python) or set PLIES_HOME to the plies folder")


_find_plies()
from BasicClientActorAbs import BasicClientActorAbs  # noqa: E402 - the course's file, beside this one

from adapters.oht_client import SETTINGS_FILE, load_settings, make_agent, save_record  # noqa: E402


class BasicClientActor(BasicClientActorAbs):

    def __init__(self, IP_address=None, verbose=True, **settings):
        self.series_id = -1
        self.settings = load_settings(os.path.join(HERE, SETTINGS_FILE), settings)
        self.agent = make_agent(self.settings, echo=sys.stdout if verbose else None)
        BasicClientActorAbs.__init__(self, IP_address, verbose=verbose)

    def handle_get_action(self, state):
        """(row, col) of plain ints for the flat state (state[0] is us, the player to move)."""
        return self.agent.get_action(state)

    def handle_series_start(self, unique_id, series_id, player_map, num_games, game_params):
        self.series_id = series_id
        self.agent.series_start(unique_id, series_id, player_map, num_games, game_params)

    def handle_game_start(self, start_player):
        self.agent.game_start(start_player)

    def handle_game_over(self, winner, end_state):
        self.agent.game_over(winner, end_state)

    def handle_series_over(self, stats):
        self.agent.series_over(stats)

    def handle_tournament_over(self, score):
        self.agent.tournament_over(score)
        self.agent.close()   # a compile still running (a cold cache) stops with us
        save_record(self.agent, self.settings.record)

    def handle_illegal_action(self, state, illegal_action):
        self.agent.illegal_action(state, illegal_action)
        self.agent.finish(f"the server called out our action {illegal_action!r}; it disconnects")
        self.agent.close()
        save_record(self.agent, self.settings.record)


if __name__ == "__main__":
    BasicClientActor(verbose=True).connect_to_server()
