"""Our ActorClient subclass for the Online Hex Tournament, generation B (specs/oht.md).

Drop this file beside the course's unmodified ActorClient.py (and server.crt), then:

    IT3105_AUTH=... python oht_actor_b.py          # or: PliesActorClient().run()

The course's base class connects (IT3105_HOST, IT3105_PORT, IT3105_CERT), authenticates with the
token of IT3105_AUTH (or asks for it) and calls the handlers below; decisions, record, finding plies,
settings (the ``settings`` given to the class last) and the cold start as for oht_actor_a.py.
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
    raise ImportError("oht_actor_b: cannot import plies; run this with the Python plies is installed in "
                      "(e.g. /path/to/plies/.venv/bin/python) or set PLIES_HOME to the plies folder")


_find_plies()
from ActorClient import ActorClient  # noqa: E402 - the course's file, beside this one

from adapters.oht_client import SETTINGS_FILE, load_settings, make_agent, save_record  # noqa: E402


class PliesActorClient(ActorClient):

    def __init__(self, *args, settings=None, verbose=True, **kwargs):
        self.settings = load_settings(os.path.join(HERE, SETTINGS_FILE), settings)
        self.agent = make_agent(self.settings, echo=sys.stdout if verbose else None)
        ActorClient.__init__(self, *args, **kwargs)

    def handle_series_start(self, unique_id, series_id, player_map, num_games, game_params):
        self.agent.series_start(unique_id, series_id, player_map, num_games, game_params)

    def handle_game_start(self, start_player):
        self.agent.game_start(start_player)

    def handle_get_action(self, state):
        """(row, col) of plain ints for the flat state (state[0] is us, the player to move)."""
        return self.agent.get_action(state)

    def handle_game_over(self, winner, end_state):
        self.agent.game_over(winner, end_state)

    def handle_series_over(self, stats):
        self.agent.series_over(stats)

    def handle_tournament_over(self, score):
        self.agent.tournament_over(score)
        self.agent.close()   # a compile still running (a cold cache) stops with us
        save_record(self.agent, self.settings.record)

    def handle_error(self, error):
        self.agent.finish(f"server error: {error}")
        self.agent.close()
        save_record(self.agent, self.settings.record)


if __name__ == "__main__":
    PliesActorClient().run()
