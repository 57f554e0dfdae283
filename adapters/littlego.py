"""The Little-Go single-shot player: read input.txt, think, write output.txt, keep notes, exit.

The course host runs ``python3 my_player3.py`` once per move in the player's folder, with no flags
(specs/littlego.md); my_player3.py finds this package and calls ``main``.  The exchange is a pure
session (protocols/littlego.py: input.txt's text -> output.txt's text); this module gives it its one
handler (``Player.position``: judge the boards, write the fallback move, arm the CPU watchdog, ask
the Little-Go player of engines/players/littlego.py) and the small file transport around it
(``play``), with the notes kept between runs (NOTES_FILE) and the settings (SETTINGS_FILE beside
my_player3.py, then PLIES_LITTLEGO_<KEY>; a bad one is reported and the defaults play).  What a run
does, step by step, and its cold start: README.md, section "Little-Go player".

Exit statuses (``exit_status`` maps the outcomes; the host itself reads only output.txt):
  0  a move is in output.txt: the searched one, or the fallback when anything after it failed;
  1  (my_player3.py) plies cannot be found: a message on stderr naming the fix, no output.txt;
  2  input.txt is missing or cannot be read (not text, not 11 lines of the format): a message on
     stderr, no output.txt (an older one is removed);
  3  output.txt cannot be written: a message on stderr naming the file and the fix.
"""
import dataclasses
import json
import os
import shutil
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from adapters import config
from engines.games.reference import littlego as rules
from engines.players import littlego as littlego_player
from engines.players.clock import arm_cpu_watchdog, cpu_backstop
from engines.players.littlego import (NOTES_FORMAT, board_text, choose, estimate_moves, hash_seed,  # noqa: F401
                                      load_notes, make_player, move_number, save_notes)
from adapters.config import ConfigError, setting
from protocols.common import EndOfInput, ProtocolError
from protocols.littlego import POSITION, PlayerSession, Turn, format_move, write_output

INPUT_FILE = "input.txt"
OUTPUT_FILE = "output.txt"
NOTES_FILE = "my_player3.notes.json"   # in the working directory
SETTINGS_FILE = "my_player3.toml"      # beside my_player3.py
ENV_PREFIX = "PLIES_LITTLEGO"
PLAYER_FILE = Path(__file__).resolve().parent / "my_player3.py"  # what the host runs
SEARCHES = littlego_player.SEARCHES   # the search setting's values


@dataclass(frozen=True)
class LittleGoSettings(littlego_player.PlayerSettings):
    """Every tunable of the player: the Little-Go player's (engines/players/littlego.py) and the run's."""
    python: str | None = setting(None, "the Python that has plies: my_player3.py restarts under it when the one "
                                       "running it has not", kind=str)
    watchdog_seconds: float = setting(9.3, "CPU seconds since process start after which the player leaves at "
                                           "once, the fallback move written")
    cold_watchdog_seconds: float = setting(8.5, "the watchdog of a run that compiles (a cold cache): compiled "
                                                "code can hold the watchdog's signal back, so such a run also "
                                                "gets a kernel CPU limit (RLIMIT_CPU) at the next whole second")

    def __post_init__(self):
        super().__post_init__()
        for name in ("watchdog_seconds", "cold_watchdog_seconds"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, got {getattr(self, name)!r}")
        if not self.max_seconds < self.watchdog_seconds:
            raise ValueError("min_seconds <= max_seconds < watchdog_seconds must hold, got "
                             f"{self.min_seconds!r}, {self.max_seconds!r}, {self.watchdog_seconds!r}")


def load_settings(player_dir=None, env=os.environ, warn=None) -> LittleGoSettings:
    """The settings from SETTINGS_FILE beside the player and the environment, ``seconds`` clamped to
    [min_seconds, max_seconds]; the defaults when they cannot be used.  Both are told to ``warn``."""
    file = Path(player_dir) / SETTINGS_FILE if player_dir is not None else None
    try:
        settings = config.load(LittleGoSettings, file=file, env_prefix=ENV_PREFIX, env=env)
    except ConfigError as err:
        if warn:
            warn(f"{err}; playing with the default settings")
        return LittleGoSettings()
    seconds = min(max(settings.seconds, settings.min_seconds), settings.max_seconds)
    if seconds != settings.seconds:
        if warn:
            warn(f"seconds = {settings.seconds:g} is outside {settings.min_seconds:g}..{settings.max_seconds:g}; "
                 f"using {seconds:g}")
        settings = dataclasses.replace(settings, seconds=seconds)
    return settings


def settings_text(python: str, seconds: float | None = None) -> str:
    """SETTINGS_FILE naming the Python that has plies (and the budget, when given)."""
    # a JSON string is a TOML basic string, once DEL (a control character to TOML) is escaped
    lines = ["python = " + json.dumps(python, ensure_ascii=False).replace("\x7f", "\\u007f")]
    if seconds is not None:
        lines.append(f"seconds = {float(seconds)!r}")
    return "\n".join(lines) + "\n"


def install(directory, seconds: float | None = None, python: str = sys.executable) -> list[Path]:
    """Copy my_player3.py into directory with a SETTINGS_FILE naming ``python`` (so ``python3
    my_player3.py`` finds plies from any interpreter); the files written."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PLAYER_FILE, target / PLAYER_FILE.name)
    (target / SETTINGS_FILE).write_text(settings_text(python, seconds), encoding="utf-8")
    return [target / PLAYER_FILE.name, target / SETTINGS_FILE]


def fallback_move(turn: Turn, moves_played: int = 0, seconds: float = 0.3, cpu=time.process_time):
    """The fallback move: the Little-Go player's shallow search over the host's rules within ``seconds``
    of CPU time.  The host counts this process's CPU time, so the player compiles (a cold cache) within
    its own budget and no compile is detached here; the fallback is a small share of that budget."""
    return littlego_player.fallback_move(*turn, moves_played, seconds, cpu)


# ---- the move ----------------------------------------------------------------------------------
def think(game, turn: Turn, settings: LittleGoSettings, notes: dict | None, started: float, cpu=time.process_time,
          warn=None):
    """(point, the notes to keep) for the position of input.txt (engines/players/littlego.py: think),
    the points in the notes named as output.txt names them."""
    return littlego_player.think(game, turn, settings, notes, started, cpu, warn, name=format_move)


class SearchFailed(Exception):
    """The engine gave no move (it failed to load, a bug): the fallback move in output.txt stands."""


class Player:
    """One run's handler of the session's POSITION message, and the notes it leaves to be written
    once output.txt holds the move."""

    def __init__(self, workdir: Path, settings: LittleGoSettings, cpu, started: float, watchdog: bool, warn=None,
                 cold: bool = False):
        self.workdir, self.settings, self.cpu, self.started, self.watchdog = workdir, settings, cpu, started, watchdog
        self.warn, self.cold = warn, cold
        self.notes: dict | None = None

    def position(self, turn: Turn):
        """Judge the boards (a warning when they cannot follow each other), write the fallback move,
        search: the move."""
        why = rules.why_unreachable(turn)
        if why and self.warn:
            self.warn(f"{INPUT_FILE}: {why}; playing on the current board as given (the host is the authority)")
        notes = load_notes(self.workdir / NOTES_FILE)
        moves, _ = move_number(notes, *turn)
        share = min(self.settings.fallback_seconds, self.settings.seconds / 4)  # of the budget, CPU time
        write_move(self.workdir / OUTPUT_FILE, write_output(fallback_move(turn, moves, share, self.cpu)))
        if self.watchdog:
            limit = self.settings.watchdog_seconds
            if self.cold:
                limit = min(limit, self.settings.cold_watchdog_seconds)
                cpu_backstop(self.started + limit)
            arm_watchdog(self.started + limit)
        try:
            from engines.games.go import Go
            point, self.notes = think(Go(rules="littlego"), turn, self.settings, notes, self.started, self.cpu,
                                      self.warn)
        except Exception as err:
            raise SearchFailed(f"{type(err).__name__}: {err}") from err
        return point


# ---- the transport: files and the process --------------------------------------------------------
def read_input_file(workdir: Path) -> str:
    """input.txt's text; EndOfInput when there is none, ProtocolError when it is not text."""
    try:
        return (workdir / INPUT_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EndOfInput(f"not found in {workdir.resolve()}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ProtocolError(f"cannot be read: {e}") from None


def write_move(out_path: Path, text: str) -> None:
    """output.txt, written whole or not at all (a temporary file renamed over it)."""
    tmp = out_path.with_name(OUTPUT_FILE + ".tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    os.replace(tmp, out_path)


def report_cold_cache(warn) -> bool:
    """Tell ``warn`` at once when the compiled-kernel cache of Go is cold (before any engine import);
    True when it is."""
    from engines.players import coldstart  # reads a stamp: imports neither numba nor the engine
    return coldstart.report_cold_cache(
        "go", "the kernels compile within this move's budget, so the quick fallback move may stand for this "
        "move and the next few", warn, " (`plies littlego install DIR` does)")


def arm_watchdog(limit: float) -> None:
    """Leave at ``limit`` CPU seconds since process start, whatever is running (the fallback move is
    already in output.txt), with the exit status of a failed search."""
    arm_cpu_watchdog(limit, lambda: os._exit(exit_status(SearchFailed("the watchdog fired"))))


def exit_status(outcome: Exception | None) -> int:
    """The exit status of a run that ended with outcome (None: the searched move was written): the
    one map, documented in the module's docstring."""
    if isinstance(outcome, (EndOfInput, ProtocolError)):
        return 2  # no move: input.txt is missing or cannot be played from
    if isinstance(outcome, OSError):
        return 3  # no move: output.txt cannot be written
    return 0      # a move is in output.txt (the fallback, when the search failed)


def play(workdir=".", player_dir=None, env=os.environ, err=sys.stderr, cpu=time.process_time, started: float = 0.0,
         watchdog: bool = False) -> int:
    """One move in workdir with the settings beside player_dir; returns the exit status.  The
    budget counts CPU time from ``started`` (process_time at process start: 0); ``watchdog`` arms
    arm_watchdog."""
    workdir = Path(workdir)
    out_path = workdir / OUTPUT_FILE

    def warn(msg):
        print(f"my_player3: {msg}", file=err)

    settings = load_settings(player_dir, env, warn)
    cold = report_cold_cache(warn)
    player = Player(workdir, settings, cpu, started, watchdog, warn, cold)
    try:
        output = PlayerSession({POSITION: player.position}).handle(read_input_file(workdir))
    except (EndOfInput, ProtocolError) as outcome:
        warn(f"{INPUT_FILE}: {outcome}")
        try:
            out_path.unlink()  # never leave an older move for the host to read
        except OSError:
            pass
        return exit_status(outcome)
    except SearchFailed as outcome:
        warn(f"{outcome}; the fallback move stands")
        traceback.print_exception(outcome.__cause__, file=err)
        return exit_status(outcome)
    except OSError as outcome:
        warn(f"cannot write {out_path.resolve()}: {outcome.strerror or outcome}; the host needs it: make the "
             f"folder writable and remove whatever is in the way of {OUTPUT_FILE}")
        return exit_status(outcome)
    try:
        write_move(out_path, output)
    except OSError as outcome:
        warn(f"cannot write {out_path.resolve()}: {outcome.strerror or outcome}; the fallback move stands if it "
             f"was written")
        return exit_status(outcome)
    try:
        save_notes(workdir / NOTES_FILE, player.notes)
    except OSError as e:
        warn(f"cannot write the notes {workdir / NOTES_FILE}: {e}")
    return exit_status(None)


def main(player_dir=None) -> int:
    """The entry my_player3.py calls (in the working directory the host chose)."""
    return play(".", player_dir, watchdog=True)
