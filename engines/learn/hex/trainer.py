"""The seed's training loop (its pseudocode, step by step):

  1. i_s = the save interval (config: networks K or save_interval)
  2. clear RBUF;  3. randomly initialise ANET (seeded); save it: the untrained network, before episode 1
  4. for each actual game (episode): play it with MCTS (selfplay.play_episode: a tree reused along the
     game, `search_games` search games a move, ANET's epsilon-greedy rollouts, D into RBUF, the move
     from D); (e) train ANET on `train_batches` random minibatches from RBUF; (f) save ANET at the
     save points (every i_s episodes).
With workers > 1 (or Ray), a round of up to `workers` episodes is played with the same network, then
ANET takes the training steps of each of those episodes; rounds never cross a save point.
Output directory: anet_<episode>.onnx + .json per saved network, loss.png, training.json.
A run resumed (``start``, ``init_from``: ``last_saved``) continues from its last saved network and
episode: the same episode seeds and save points as one uninterrupted run; the replay buffer starts
empty again (it is not saved), the loss history is read back from training.json.
"""
from importlib.util import find_spec
import json
import pathlib
import sys
import time

import numpy as np

from engines.learn.network_file import save_network
from engines.learn.hex.replay import ReplayBuffer
from engines.learn.hex.selfplay import SelfPlay, episode_seed
from engines.learn.hex.state_manager import HexStateManager


def last_saved(out_dir) -> tuple[pathlib.Path, int] | None:
    """(file, episode) of the last network a run saved in out_dir (anet_<episode>.onnx), or None."""
    found = []
    for path in pathlib.Path(out_dir).glob("anet_*.onnx"):
        tail = path.stem.partition("_")[2]
        if tail.isdigit():
            found.append((int(tail), path))
    if not found:
        return None
    episode, path = max(found)
    return path, episode


class Trainer:
    def __init__(self, cfg, out_dir, stream=None, init_from=None, start: int = 0):
        from engines.learn.hex.anet import ANET  # PyTorch: the train extra
        self.cfg = cfg
        self.out = pathlib.Path(out_dir)
        self.stream = stream or sys.stdout
        self.manager = HexStateManager(cfg.size)
        self.anet = ANET.from_config(cfg)
        if init_from is not None:
            self.anet.load(*init_from)
        nn = self.manager.num_actions
        self.rbuf = ReplayBuffer(cfg.buffer_size, 3 * nn, nn)
        self.rng = np.random.default_rng(cfg.seed)
        self.losses, self.value_losses = [], []
        self.start = start    # the episodes a resumed run had played already
        if start:
            try:
                before = json.loads((self.out / "training.json").read_text())
                self.losses = list(before.get("losses", []))[:start]
                self.value_losses = list(before.get("value_losses", []))[:start]
            except (OSError, ValueError):
                pass
        self.saved = []
        self.simulations = 0
        self.moves = 0
        self.wins = [0, 0]

    def save(self, episode: int) -> pathlib.Path:
        path = self.out / f"anet_{episode:05d}.onnx"
        figures = {"loss": self.losses[-1] if self.losses else None,
                   "value_loss": self.value_losses[-1] if self.value_losses else None,
                   "cases": self.rbuf.added, "simulations": self.simulations, "moves": self.moves,
                   "player_wins": list(self.wins)}
        save_network(path, self.anet.network(), {"size": self.cfg.size, "episode": episode,
                                                 "config": self.cfg.to_dict(), "figures": figures},
                     value=self.anet.value_network())
        self.saved.append(path)
        return path

    def _show(self, episode):
        def on_move(state, move):
            print(f"episode {episode}: player {1 + (1 - self.manager.to_move(state))} plays "
                  f"{self.manager.move_text(move)}\n{self.manager.render(state)}", file=self.stream, flush=True)
        print(f"\n===== episode {episode}: an actual game =====", file=self.stream)
        return on_move

    def train_episode(self) -> None:
        losses, value_losses = [], []
        for _ in range(self.cfg.train_batches):
            x, d, z = self.rbuf.sample(self.cfg.batch_size, self.rng)
            out = self.anet.train_step(x, d, z)
            losses.append(out["loss"])
            if "value_loss" in out:
                value_losses.append(out["value_loss"])
        self.losses.append(float(np.mean(losses)))
        if value_losses:
            self.value_losses.append(float(np.mean(value_losses)))

    def run(self) -> list[pathlib.Path]:
        cfg = self.cfg
        self.out.mkdir(parents=True, exist_ok=True)
        points = cfg.save_points()
        if not self.start:
            self.save(0)
        started = time.perf_counter()
        bar = None
        if cfg.progress and find_spec("tqdm") is not None:  # the bar is optional (the demo and train extras)
            from tqdm import tqdm
            bar = tqdm(total=cfg.episodes, initial=self.start, desc=f"training {cfg.size}x{cfg.size}", unit="episode",
                       file=sys.stderr)
        done = self.start
        with SelfPlay(cfg) as selfplay:
            while done < cfg.episodes:
                next_save = min(p for p in points if p > done)
                count = min(selfplay.parallel, next_save - done)
                seeds = [episode_seed(cfg.seed, done + i + 1) for i in range(count)]
                shown = cfg.display > 0 and count == 1 and (done + 1) % cfg.display == 0
                episodes = selfplay.play(self.anet.network(), self.anet.value_network(), seeds,
                                         on_move=self._show(done + 1) if shown else None)
                for ep in episodes:
                    done += 1
                    if cfg.display > 0 and done % cfg.display == 0 and not shown:
                        self._replay(done, ep.moves)
                    self.rbuf.extend(ep.cases(self.manager, cfg.augment))
                    self.simulations += ep.simulations
                    self.moves += len(ep.moves)
                    self.wins[ep.winner] += 1
                    self.train_episode()
                    if bar is not None:
                        bar.update()
                        bar.set_postfix_str(f"loss {self.losses[-1]:.3f}")
                if done in points:
                    self.save(done)
        if bar is not None:
            bar.close()
        elapsed = time.perf_counter() - started
        played = done - self.start
        self.summary = {"episodes": done, "resumed_from": self.start, "seconds": elapsed,
                        "episodes_per_minute": 60 * played / max(elapsed, 1e-9),
                        "simulations": self.simulations, "moves": self.moves, "player_wins": self.wins,
                        "losses": self.losses, "value_losses": self.value_losses,
                        "saved": [p.name for p in self.saved], "config": cfg.to_dict()}
        (self.out / "training.json").write_text(json.dumps(self.summary, indent=1) + "\n")
        from engines.learn.plots import loss_curve
        loss_curve(self.out / "loss.png", self.losses, self.value_losses,
                   f"ANET {cfg.size}x{cfg.size}: {done} episodes")
        return self.saved

    def _replay(self, episode, moves):
        """Draw a game played in a worker, move by move."""
        on_move = self._show(episode)
        state = self.manager.initial_state()
        for m in moves:
            state = self.manager.child(state, m)
            on_move(state, m)
