"""The Tournament of Progressive Policies: saved networks play a round robin, G games per pair, the
starting player alternating (in Hex player 1 -- rows, our player 0 -- always starts, so the agents
swap sides each game).  No learning: each agent maps a state to its network's distribution over the
legal moves and picks the most probable move (greedy) or samples it (stochastic).
"""
from importlib.util import find_spec
import csv
import itertools
import pathlib
import sys
from dataclasses import dataclass, field

import numpy as np

from engines.knowledge.hex.network import distribution, load_network, network_size


@dataclass
class TOPPResult:
    names: list
    games: int                        # G, games per series
    wins: list                        # wins[i][j]: games agent i won against agent j
    series: list = field(default_factory=list)  # (i, j, [index of the agent that started each game], [winner])

    @property
    def totals(self) -> list[int]:
        return [sum(row) for row in self.wins]

    def table(self) -> str:
        """The wins table (row against column) with totals."""
        width = max(8, *(len(n) for n in self.names)) + 1
        head = "".ljust(width) + "".join(n[-width + 1:].rjust(width) for n in self.names) + "total".rjust(8)
        lines = [head]
        for i, name in enumerate(self.names):
            cells = "".join(("-" if i == j else str(self.wins[i][j])).rjust(width) for j in range(len(self.names)))
            played = self.games * (len(self.names) - 1)
            lines.append(name.ljust(width) + cells + f"{self.totals[i]}/{played}".rjust(8))
        return "\n".join(lines)

    def save_csv(self, path) -> pathlib.Path:
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["agent", *self.names, "total", "played"])
            for i, name in enumerate(self.names):
                w.writerow([name, *("" if i == j else self.wins[i][j] for j in range(len(self.names))),
                            self.totals[i], self.games * (len(self.names) - 1)])
        return pathlib.Path(path)


class TOPP:
    """agents: [(name, Network)]; games: G per series; policy: "greedy" or "stochastic"; display: draw
    every game move by move on stream."""

    def __init__(self, manager, agents, games: int, policy: str = "greedy", display: bool = False, seed: int = 0,
                 stream=None, progress: bool = False):
        if len(agents) < 2:
            raise ValueError(f"a TOPP needs at least 2 networks, got {len(agents)}")
        if policy not in ("greedy", "stochastic"):
            raise ValueError(f"policy must be greedy or stochastic, got {policy!r}")
        if games < 1:
            raise ValueError(f"games per series must be >= 1, got {games}")
        self.manager = manager
        self.names = [n for n, _ in agents]
        self.networks = [net for _, net in agents]
        self.games = games
        self.policy = policy
        self.display = display
        self.rng = np.random.default_rng(seed)
        self.stream = stream or sys.stdout
        self.progress = progress

    def choose(self, network, state) -> int:
        p = distribution(self.manager.game, state, network)
        if self.policy == "greedy":
            return int(np.argmax(p))
        return int(self.rng.choice(p.shape[0], p=p))

    def play_game(self, first: int, second: int) -> int:
        """One game, agent ``first`` as player 1 (rows, moving first); returns the winner's agent index."""
        seats = (first, second)
        state = self.manager.initial_state()
        if self.display:
            print(f"\n{self.names[first]} (X, rows) against {self.names[second]} (O, columns)", file=self.stream)
        while not self.manager.is_final(state):
            agent = seats[self.manager.to_move(state)]
            move = self.choose(self.networks[agent], state)
            state = self.manager.child(state, move)
            if self.display:
                print(f"{self.names[agent]} plays {self.manager.move_text(move)}\n{self.manager.render(state)}",
                      file=self.stream)
        return seats[self.manager.winner(state)]

    def run(self) -> TOPPResult:
        k = len(self.names)
        wins = [[0] * k for _ in range(k)]
        result = TOPPResult(self.names, self.games, wins)
        pairs = list(itertools.combinations(range(k), 2))
        bar = None
        if self.progress and find_spec("tqdm") is not None:  # the bar is optional (the demo and train extras)
            from tqdm import tqdm
            bar = tqdm(total=len(pairs) * self.games, desc="TOPP", unit="game", file=sys.stderr)
        for i, j in pairs:
            starters, winners = [], []
            for g in range(self.games):
                first, second = (i, j) if g % 2 == 0 else (j, i)
                w = self.play_game(first, second)
                wins[w][j if w == i else i] += 1
                starters.append(first)
                winners.append(w)
                if bar is not None:
                    bar.update()
            result.series.append((i, j, starters, winners))
        if bar is not None:
            bar.close()
        return result


def load_agents(directory) -> tuple[list, dict]:
    """([(name, Network)], the first sidecar) of the network files in a directory, in order of
    training episodes; names are "ep<episode>" (the file's name when the sidecar has no episode)."""
    files = sorted(pathlib.Path(directory).glob("*.onnx"))
    if not files:
        raise FileNotFoundError(f"no network files (*.onnx) in {directory}")
    loaded = []
    for f in files:
        net, meta = load_network(f)
        loaded.append((meta.get("episode", 0), f.stem, net, meta))
    loaded.sort(key=lambda t: (t[0], t[1]))
    sizes = {network_size(net) for _, _, net, _ in loaded}
    if len(sizes) > 1:
        raise ValueError(f"the networks in {directory} are for different board sizes: {sorted(sizes)}")
    names = [f"ep{e}" if isinstance(e, int) else name for e, name, _, _ in loaded]
    if len(set(names)) < len(names):
        names = [name for _, name, _, _ in loaded]
    return [(n, net) for n, (_, _, net, _) in zip(names, loaded)], loaded[0][3]
