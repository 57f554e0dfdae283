"""The one time manager: from whatever clock a harness gives to the deadline of a move (pure Python).

A harness gives a move its time in one of these ways (python-chess's ``Limit`` names them):
  * a fixed budget per move (the Othello referee's 10 s, the manager's limit, Little-Go's CPU seconds,
    ``--time`` of the Go and Hex engines): ``Limit(time=...)``;
  * a count of simulations or a depth instead of seconds (Go5's ``num_total_sim``, a regress file):
    ``Limit(simulations=...)``, ``Limit(depth=...)``;
  * a game clock: Go's ``time_settings`` / ``time_left`` and KGS's ``kgs-time_settings`` (below).
``TimeManager`` turns either into a ``Deadline`` on the right clock (wall time, or the process's CPU
time where the harness counts that, as the Little-Go host does), less a safety margin, counted from
the request's arrival.  The players ask it for every move; nothing else computes a deadline.

The game clock, in detail:

The controller sets the time system with ``time_settings main byo_yomi_time byo_yomi_stones`` (the Go Text Protocol
v2: Canadian byo-yomi; ``0 0`` after the main time means absolute time, ``byo_yomi_time > 0`` with
``byo_yomi_stones = 0`` means no time limit) or ``kgs-time_settings none | absolute main |
byoyomi main period periods | canadian main period stones``, and reports the clock with
``time_left colour seconds stones`` (stones 0: still in main time; in Canadian byo-yomi the stones
left in the period; in Japanese byo-yomi kgsGtp's convention: the periods left).

``GameClock`` keeps both players' clocks from those commands, counts our own time itself between
two ``time_left`` reports (``spent``), and answers ``allocation(colour, moves_played, points)``: the
seconds the next move may take, or None when there is no time limit (the engine's fixed budget
then applies).  The allocation:
  * main time is shared over the moves we still expect to play (at least ``min_moves_left``; about
    half of the board's points minus those already played, as 9x9 and 19x19 games run), weighted by
    the phase of the game: ``opening_weight`` up to a tenth of the expected game, ``middle_weight``
    until half of it, 1 after;
  * a byo-yomi period that is spent anyway is used (Japanese: the period itself; Canadian: the
    period shared over its stones);
  * a safety margin (``margin`` seconds plus ``margin_fraction`` of the allocation, for the reply's
    way to the controller and the process's noise) is kept, and the allocation never exceeds the
    time left in the main time plus the period's share; under absolute time and in a Canadian
    period, ``overhead`` seconds of every move still to come are kept aside too;
  * never below ``floor`` seconds (a move must be made even when the clock is nearly out).
The clock is injected (``clock``: seconds, e.g. time.perf_counter), so tests run it simulated.
"""
import math
import time
from dataclasses import dataclass

WALL, CPU = "wall", "cpu"
CLOCKS = {WALL: time.perf_counter, CPU: time.process_time}  # which seconds a budget counts

NONE, ABSOLUTE, BYOYOMI, CANADIAN = "none", "absolute", "byoyomi", "canadian"
MODES = (NONE, ABSOLUTE, BYOYOMI, CANADIAN)


class TimeSettingsError(ValueError):
    """Time settings that mean nothing (negative, not finite, unknown system)."""


@dataclass(frozen=True)
class TimeControl:
    """One time system: main time, then a byo-yomi of ``periods`` periods of ``period`` seconds
    (Japanese) or of ``period`` seconds for ``stones`` stones (Canadian)."""
    mode: str = NONE
    main: float = 0.0
    period: float = 0.0
    stones: int = 0     # Canadian: stones per period
    periods: int = 0    # Japanese: number of periods

    def __post_init__(self):
        if self.mode not in MODES:
            raise TimeSettingsError(f"unknown time system {self.mode!r} (one of {', '.join(MODES)})")
        for name in ("main", "period"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
                raise TimeSettingsError(f"{name} time must be a finite number >= 0, got {value!r}")
        if self.stones < 0 or self.periods < 0:
            raise TimeSettingsError("stones and periods must be >= 0")
        if self.mode == CANADIAN and self.stones < 1:
            raise TimeSettingsError("canadian byo-yomi needs at least 1 stone per period")
        if self.mode == BYOYOMI and self.periods >= 1 and self.period <= 0:
            raise TimeSettingsError("byo-yomi periods need a period time > 0")

    @classmethod
    def from_gtp(cls, main: float, byo_time: float, byo_stones: int) -> "TimeControl":
        """time_settings' numbers: Canadian byo-yomi; (0, 0) absolute; byo_time > 0 with 0 stones: none."""
        if byo_stones == 0 and byo_time > 0:
            return cls(NONE)
        if byo_stones == 0:
            return cls(ABSOLUTE, main)
        return cls(CANADIAN, main, byo_time, stones=byo_stones)

    @classmethod
    def from_kgs(cls, words: list) -> "TimeControl":
        """kgs-time_settings' arguments (strings): none | absolute M | byoyomi M P N | canadian M P S."""
        if not words:
            raise TimeSettingsError("kgs-time_settings none|absolute|byoyomi|canadian ...")
        mode, rest = words[0].lower(), words[1:]
        need = {NONE: 0, ABSOLUTE: 1, BYOYOMI: 3, CANADIAN: 3}
        if mode not in need:
            raise TimeSettingsError(f"unknown time system {words[0]!r} (none, absolute, byoyomi or canadian)")
        if len(rest) < need[mode]:
            raise TimeSettingsError(f"kgs-time_settings {mode} needs {need[mode]} numbers")
        try:
            nums = [float(w) for w in rest[:2]] + [int(w) for w in rest[2:3]]
        except ValueError:
            raise TimeSettingsError(f"kgs-time_settings: numbers expected, got {' '.join(rest)}") from None
        if mode == NONE:
            return cls(NONE)
        if mode == ABSOLUTE:
            return cls(ABSOLUTE, nums[0])
        if mode == BYOYOMI:
            return cls(BYOYOMI, nums[0], nums[1], periods=nums[2])
        return cls(CANADIAN, nums[0], nums[1], stones=nums[2])

    @property
    def limited(self) -> bool:
        return self.mode != NONE


@dataclass
class PlayerClock:
    """What one player has left: main time, then the byo-yomi state."""
    main: float
    period_left: float    # seconds left in the current period (byo-yomi)
    stones_left: int      # Canadian: stones still to play in the current period
    periods_left: int     # Japanese: periods left
    in_byoyomi: bool = False


class GameClock:
    """Both players' clocks under one TimeControl, and the allocation of our next move."""

    def __init__(self, control: TimeControl = TimeControl(), *, margin: float = 0.25,
                 margin_fraction: float = 0.05, floor: float = 0.02, overhead: float = 0.03,
                 min_moves_left: int = 10, opening_weight: float = 1.2, middle_weight: float = 1.5,
                 clock=time.perf_counter):
        if not (margin >= 0 and 0 <= margin_fraction < 1 and floor > 0 and overhead >= 0 and min_moves_left >= 1):
            raise ValueError("margin >= 0, 0 <= margin_fraction < 1, floor > 0, overhead >= 0 and min_moves_left >= 1 "
                             "are needed")
        self.margin, self.margin_fraction, self.floor, self.overhead = margin, margin_fraction, floor, overhead
        self.min_moves_left = min_moves_left
        self.opening_weight, self.middle_weight = opening_weight, middle_weight
        self.clock = clock
        self.set_control(control)

    def set_control(self, control: TimeControl) -> None:
        """New time settings: both clocks start afresh."""
        self.control = control
        self.players = [self._fresh() for _ in range(2)]

    def _fresh(self) -> PlayerClock:
        c = self.control
        return PlayerClock(main=c.main, period_left=c.period, stones_left=c.stones, periods_left=c.periods,
                           in_byoyomi=c.main <= 0 and c.mode in (BYOYOMI, CANADIAN))

    def time_left(self, colour: int, seconds: float, stones: int) -> None:
        """The controller's report (time_left): stones 0 means main time."""
        if not (math.isfinite(seconds) and stones >= 0):
            raise TimeSettingsError("time_left needs finite seconds and stones >= 0")
        p, c = self.players[colour], self.control
        if stones == 0 or c.mode in (NONE, ABSOLUTE):
            p.main, p.in_byoyomi = max(seconds, 0.0), False
            if c.mode in (BYOYOMI, CANADIAN) and c.main <= 0 and stones == 0 and seconds <= 0:
                p.in_byoyomi = True
        else:
            p.main, p.in_byoyomi = 0.0, True
            p.period_left = max(seconds, 0.0)
            if c.mode == CANADIAN:
                p.stones_left = stones
            else:  # kgsGtp's Japanese byo-yomi: the periods left
                p.periods_left = stones

    def spent(self, colour: int, seconds: float) -> bool:
        """Charge colour a move that took seconds (our own count until the next time_left corrects
        it; a controller keeps its clocks the same way).  False when the move lost on time."""
        p, c = self.players[colour], self.control
        if c.mode == NONE:
            return True
        if not p.in_byoyomi:
            if seconds <= p.main:
                p.main -= seconds
                return True
            seconds -= p.main
            p.main = 0.0
            if c.mode == ABSOLUTE:
                return False
            p.in_byoyomi = True
            p.period_left, p.stones_left = c.period, c.stones
        if c.mode == BYOYOMI:
            while seconds > c.period and p.periods_left > 0:
                p.periods_left -= 1
                seconds -= c.period
            p.period_left = c.period
            return p.periods_left > 0
        p.period_left -= seconds
        if p.period_left < 0:
            return False
        p.stones_left -= 1
        if p.stones_left <= 0:
            p.period_left, p.stones_left = c.period, c.stones
        return True

    def report(self, colour: int) -> tuple[float, int]:
        """time_left's (seconds, stones) of colour: main time and 0, or the period's time and the
        Canadian stones left (Japanese: the periods left, kgsGtp's convention)."""
        p = self.players[colour]
        if not p.in_byoyomi:
            return p.main, 0
        return (p.period_left, p.stones_left) if self.control.mode == CANADIAN else (p.period_left, p.periods_left)

    def expected_moves_left(self, moves_played: int, points: int) -> float:
        """Our moves still to come: half of what remains of a game of about points moves."""
        return max(float(self.min_moves_left), (points - moves_played) / 2.0)

    def phase_weight(self, moves_played: int, points: int) -> float:
        if moves_played < points * 0.1:
            return self.opening_weight
        if moves_played < points * 0.5:
            return self.middle_weight
        return 1.0

    def _safe(self, seconds: float) -> float:
        return seconds * (1.0 - self.margin_fraction) - self.margin

    def allocation(self, colour: int, moves_played: int, points: int) -> float | None:
        """Seconds for colour's next move (None: no time limit)."""
        plan = self.plan(colour, moves_played, points)
        return None if plan is None else plan[0]

    def plan(self, colour: int, moves_played: int, points: int) -> tuple[float, float] | None:
        """(the seconds colour's next move should take, the most it may take without losing on time)
        (None: no time limit).  The most is what an unstable position may stretch to."""
        c = self.control
        if c.mode == NONE:
            return None
        p = self.players[colour]
        share = 0.0
        if not p.in_byoyomi and p.main > 0:
            moves_left = self.expected_moves_left(moves_played, points)
            usable = p.main - self.overhead * moves_left if c.mode == ABSOLUTE else p.main  # every move costs some
            share = max(usable, 0.0) / moves_left * self.phase_weight(moves_played, points)
            share = min(share, p.main * 0.5)  # never half of what is left on one move
        if c.mode == ABSOLUTE:
            limit = self._safe(p.main)
            spend = min(share, limit)
        elif c.mode == BYOYOMI:
            period = p.period_left if p.in_byoyomi else c.period
            if p.in_byoyomi and p.periods_left <= 0:
                period = 0.0  # no period left: only what the report says
            spend = max(share, self._safe(period)) if not p.in_byoyomi else self._safe(period)
            limit = self._safe((0.0 if p.in_byoyomi else p.main) + period)
            spend = min(spend, limit)
        else:  # Canadian
            if p.in_byoyomi:
                stones = max(p.stones_left, 1)
                spend = limit = self._safe((p.period_left - self.overhead * (stones - 1)) / stones)
            else:
                per_stone = c.period / max(c.stones, 1)
                spend = max(share, self._safe(per_stone))
                limit = self._safe(p.main + per_stone)
                spend = min(spend, limit)
        return max(spend, self.floor), max(limit, spend, self.floor)


@dataclass(frozen=True)
class Limit:
    """What a move may spend, as a harness gives it (python-chess's Limit): seconds, simulations or a
    depth; None where not given.  ``time`` 0 or None with nothing else means: no limit of this kind."""
    time: float | None = None
    simulations: int | None = None
    depth: int | None = None

    def __post_init__(self):
        if self.time is not None and not (isinstance(self.time, (int, float)) and math.isfinite(self.time)
                                          and self.time >= 0):
            raise ValueError(f"time must be a finite number of seconds >= 0, got {self.time!r}")
        for name in ("simulations", "depth"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


class Deadline:
    """The instant a move must be decided by, on one clock (wall or CPU seconds)."""

    def __init__(self, at: float, clock=time.perf_counter):
        self.at, self.clock = at, clock

    @classmethod
    def after(cls, seconds: float, clock=time.perf_counter, start: float | None = None) -> "Deadline":
        return cls((clock() if start is None else start) + max(seconds, 0.0), clock)

    def left(self) -> float:
        """Seconds left (never below 0)."""
        return max(self.at - self.clock(), 0.0)

    def passed(self) -> bool:
        return self.clock() >= self.at

    def __repr__(self):
        return f"Deadline(left={self.left():.3f})"


class TimeManager:
    """Every clock a harness can give, to one deadline a move: a fixed budget per move (``per_move``
    seconds) or the game clock (``game_clock``, a GameClock once time_settings are given, which then
    wins), measured on wall or CPU time (``kind``), less ``margin`` seconds kept for the reply.

    ``deadline(player, moves_played, points, start, share)`` is the move's deadline (None: no limit in
    seconds); ``share`` scales the allocation (a player's policy: less for the opening, more for an
    unstable root), never past the budget.  ``charge(player, seconds)`` counts a move's time on the
    game clock (until the controller's next time_left corrects it)."""

    def __init__(self, per_move: float | None = None, *, margin: float = 0.05, kind: str = WALL,
                 game_clock: "GameClock | None" = None, clock=None):
        if per_move is not None and not (math.isfinite(per_move) and per_move >= 0):
            raise ValueError(f"per_move must be a finite number of seconds >= 0, got {per_move!r}")
        if not (math.isfinite(margin) and margin >= 0):
            raise ValueError(f"margin must be a finite number of seconds >= 0, got {margin!r}")
        if kind not in CLOCKS:
            raise ValueError(f"kind must be {WALL} or {CPU}, got {kind!r}")
        self.per_move = per_move or None
        self.margin, self.kind = margin, kind
        self.clock = clock if clock is not None else CLOCKS[kind]
        self.game_clock = game_clock

    @classmethod
    def per_move_or_game(cls, seconds: float, margin: float, clock=None) -> "TimeManager":
        """seconds a move until the controller's game clock is set (then the clock's allocations, less
        margin).  A tenth of ``seconds`` (at most margin) is kept for the reply: on a busy machine (a
        controller, an opponent and a GUI on two cores) the last batch of a search and the reply can be
        held back."""
        return cls(seconds or None, margin=min(margin, 0.1 * seconds), clock=clock,
                   game_clock=GameClock(margin=margin, clock=clock))

    def now(self) -> float:
        return self.clock()

    def seconds(self, player: int = 0, moves_played: int = 0, points: int = 0) -> float | None:
        """The move's budget in seconds before the margin (None: no limit in seconds)."""
        if self.game_clock is not None and self.game_clock.control.limited:
            return self.game_clock.allocation(player, moves_played, points)
        return self.per_move

    def ceiling(self, player: int = 0, moves_played: int = 0, points: int = 0) -> float | None:
        """The most seconds the move may take, margin kept (None: no limit in seconds): the game
        clock's limit (beyond the allocation: what an unstable position may stretch to), else the
        budget a move."""
        if self.game_clock is not None and self.game_clock.control.limited:
            return max(self.game_clock.plan(player, moves_played, points)[1] - self.margin, 0.0)
        return None if self.per_move is None else max(self.per_move - self.margin, 0.0)

    def deadline(self, player: int = 0, moves_played: int = 0, points: int = 0, start: float | None = None,
                 share: float = 1.0) -> Deadline | None:
        """The move's deadline from ``start`` (default: now) on this manager's clock; None when no limit."""
        budget = self.seconds(player, moves_played, points)
        if budget is None:
            return None
        spend = min(budget * max(share, 0.0), budget) - self.margin
        return Deadline.after(max(spend, 0.0), self.clock, start)

    def charge(self, player: int, seconds: float) -> bool:
        """Count a move of ``seconds`` on the game clock; False when it lost on time."""
        if self.game_clock is None:
            return True
        return self.game_clock.spent(player, seconds)


def budget_problems(seconds: float | None, simulations: int | None) -> list[str]:
    """What is wrong with a move's budget in a player's settings, one sentence each: ``time`` seconds
    (None: not given; 0: no limit in seconds, then ``simulations`` is needed) and ``simulations``
    (None: none)."""
    problems = []
    if seconds is not None and not (math.isfinite(seconds) and seconds >= 0):
        problems.append(f"time must be a finite number >= 0, got {seconds}")
    if seconds == 0 and simulations is None:
        problems.append("time 0 needs simulations N")
    if simulations is not None and not (isinstance(simulations, int) and simulations > 0):
        problems.append(f"simulations must be at least 1, got {simulations!r}")
    return problems


# ---- a CPU-time limit on the whole process (a host that counts the player process's CPU time) ------
def arm_cpu_watchdog(limit: float, leave) -> None:
    """Call ``leave()`` (which should end the process) at ``limit`` CPU seconds since process start,
    whatever is running: ITIMER_PROF counts the CPU time of the whole process."""
    import signal
    signal.signal(signal.SIGPROF, lambda signum, frame: leave())
    signal.setitimer(signal.ITIMER_PROF, max(0.01, limit - time.process_time()))


def cpu_backstop(limit: float) -> None:
    """A kernel CPU limit at the first whole second after ``limit`` (SIGXCPU ends the process even
    inside compiled code, where the watchdog's signal waits; no core file is written)."""
    import resource
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))
        soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
        cap = int(math.floor(limit)) + 1
        if hard == resource.RLIM_INFINITY or cap <= hard:
            if soft == resource.RLIM_INFINITY or cap < soft:
                resource.setrlimit(resource.RLIMIT_CPU, (cap, hard))
    except (ValueError, OSError):
        pass  # the watchdog alone, then


# ---- the time of one iterative-deepening search ------------------------------------------------------
PACE_MIN_SECONDS = 0.005  # iterations shorter than this predict nothing (their times are noise)
PACE_MAX_GROWTH = 8.0     # an iteration is predicted to take at most this many times the last one


class IterationPacer:
    """When an iterative-deepening search stops: a soft target and a hard limit, in seconds from
    ``start`` on ``clock``, and the decision, after each completed depth, whether to start the next.

    Data: ``history`` is one (depth, move, value, seconds) row per completed iteration (seconds: that
    iteration's own time); ``decisions`` counts each verdict (unstable / obvious / normal) and
    ``stopped`` says why the search was stopped (None: a limit of the search itself stopped it).

    The decision (``deepen``), before depth d + 1:
      * its time is predicted from the last depths' growth, parity-aware (Othello's and most games'
        iteration times alternate between odd and even depths): t(d+1) = t(d-1) * t(d) / t(d-2), at
        least t(d) and at most PACE_MAX_GROWTH * t(d); with two depths only, t(d) * t(d) / t(d-1);
      * the root is *unstable* when the best move changed at the last depth, or its value fell by more
        than ``drop`` since the last depth of the same parity: the target is then the hard limit;
        *obvious* when the best move stayed best for the last ``obvious_depths`` depths and its value
        moved by at most ``drop``: the target is ``obvious_share`` of the soft target; else the soft
        target;
      * the depth is started only if ``finish_share`` of its predicted time fits before the target
        (1: it must finish; a smaller share: the part that a cut-short iteration can still answer
        with, its first move, must fit); for an unstable root half that share (a deeper look, even
        cut short, may still change the move).
    The search itself stops at the hard limit (its deadline) whatever is decided here.
    """

    def __init__(self, soft: float, hard: float, start: float, clock=time.perf_counter, *, drop: float = 2.0,
                 obvious_depths: int = 5, obvious_share: float = 0.5, finish_share: float = 0.5):
        if not (math.isfinite(soft) and math.isfinite(hard) and 0 <= soft <= hard):
            raise ValueError(f"need 0 <= soft <= hard seconds, got soft {soft!r}, hard {hard!r}")
        if not (drop >= 0 and obvious_depths >= 3 and 0 <= obvious_share <= 1 and 0 < finish_share <= 1):
            raise ValueError("drop >= 0, obvious_depths >= 3, 0 <= obvious_share <= 1 and 0 < finish_share <= 1 "
                             "are needed")
        self.soft, self.hard, self.start, self.clock = soft, hard, start, clock
        self.drop, self.obvious_depths = drop, obvious_depths
        self.obvious_share, self.finish_share = obvious_share, finish_share
        self.history, self.stopped = [], None
        self.decisions = {"unstable": 0, "obvious": 0, "normal": 0}
        self._last_done = start

    @classmethod
    def for_budget(cls, seconds: float, start: float, clock=time.perf_counter, *, margin: float = 0.0,
                   soft_share: float = 1.0, **options) -> "IterationPacer":
        """A fixed budget per move: the hard limit is ``seconds`` less ``margin``, the soft target
        ``soft_share`` of it (time saved on one move cannot be spent on another)."""
        hard = max(seconds - margin, 0.0)
        return cls(min(max(soft_share, 0.0), 1.0) * hard, hard, start, clock, **options)

    @classmethod
    def for_game_clock(cls, left: float, moves_left: float, start: float, clock=time.perf_counter, *,
                       margin: float = 0.0, hard_factor: float = 3.0, **options) -> "IterationPacer":
        """A game clock with ``left`` seconds for ``moves_left`` moves of ours (this one included): the
        soft target is an even share of what is left, the hard limit ``hard_factor`` times it, never
        past what is left less ``margin`` a move still to come."""
        if not (math.isfinite(left) and moves_left >= 1 and hard_factor >= 1):
            raise ValueError("need finite seconds left, moves_left >= 1 and hard_factor >= 1")
        usable = max(left - margin * moves_left, 0.0)
        soft = usable / moves_left
        hard = max(min(hard_factor * soft, left - margin), 0.0)
        return cls(min(soft, hard), hard, start, clock, **options)

    @property
    def deadline(self) -> float:
        """The hard limit as a reading of the clock."""
        return self.start + self.hard

    def predicted(self) -> float | None:
        """Seconds the next depth is predicted to take (None: too few or too short depths to tell)."""
        times = [row[3] for row in self.history]
        if len(times) < 2 or times[-1] < PACE_MIN_SECONDS or times[-2] <= 0:
            return None
        if len(times) >= 3 and times[-3] > 0:
            guess = times[-2] * times[-1] / times[-3]
        else:
            guess = times[-1] * times[-1] / times[-2]
        return min(max(guess, times[-1]), PACE_MAX_GROWTH * times[-1])

    def verdict(self) -> str:
        """unstable, obvious or normal, from the completed depths (see the class)."""
        rows = self.history
        if len(rows) >= 2 and rows[-1][1] != rows[-2][1]:
            return "unstable"
        if len(rows) >= 3 and rows[-1][2] < rows[-3][2] - self.drop:
            return "unstable"
        recent = rows[-self.obvious_depths:]
        if (len(recent) == self.obvious_depths and len({row[1] for row in recent}) == 1
                and abs(rows[-1][2] - rows[-3][2]) <= self.drop):
            return "obvious"
        return "normal"

    def target(self, verdict: str) -> float:
        if verdict == "unstable":
            return self.hard
        return self.soft * (self.obvious_share if verdict == "obvious" else 1.0)

    def deepen(self, depth: int, move: int, value: float, now: float | None = None) -> bool:
        """Depth ``depth`` completed with this best move and value at ``now`` (default: the clock):
        start depth + 1?"""
        now = self.clock() if now is None else now
        self.history.append((depth, move, value, max(now - self._last_done, 0.0)))
        self._last_done = now
        verdict = self.verdict()
        self.decisions[verdict] += 1
        elapsed, cost = now - self.start, self.predicted()
        target = self.target(verdict)
        share = self.finish_share * (0.5 if verdict == "unstable" else 1.0)
        if elapsed >= target or (cost is not None and elapsed + share * cost > target):
            self.stopped = verdict
            return False
        return True

    def summary(self) -> dict:
        """What a player reports of the pacing (its ``last``): targets, verdicts, why it stopped."""
        return {"soft": self.soft, "hard": self.hard, "stopped": self.stopped, **self.decisions}


# ---- thinking on under a game clock (the tree searches of Go and Hex) ------------------------------
def unstable_root(visits, ratio: float) -> bool:
    """The runner-up's visits are at least ``ratio`` of the best move's: more search may change the move."""
    counts = sorted(visits, reverse=True)
    return len(counts) > 1 and counts[0] > 0 and counts[1] >= ratio * counts[0]


def think_on(search, result, allocation: float, end: float, ratio: float, clock=time.perf_counter):
    """An unstable root (``unstable_root``) searches on in slices of half its ``allocation`` (seconds)
    while a slice of at least a quarter of it fits before ``end`` (a reading of ``clock``).
    ``search(seconds)`` grows the same tree and returns its result (its stats' simulations: that slice's);
    the result returned counts every slice's simulations and says how many slices it thought on
    (stats' ``thought_on``).  A game clock's time saved on one move is spent on another: this is where
    it goes (Go: 61.7 % of 120 games against never thinking on, bench/results/go_time_policy.md)."""
    searched, slices = result.stats.get("simulations", 0), 0
    while unstable_root(result.visits, ratio):
        seconds = min(end - clock(), 0.5 * allocation)
        if seconds <= 0 or seconds < 0.25 * allocation:  # too little left to change the counts
            break
        result = search(seconds)
        searched, slices = searched + result.stats.get("simulations", 0), slices + 1
    result.stats["simulations"], result.stats["thought_on"] = searched, slices
    return result
