"""Hex adapters on a busy machine, and the cold start's hand-over (figures, not tests).

    .venv/bin/python -m bench.hex_busy deadline [--moves 20] [--busy 2]
    .venv/bin/python -m bench.hex_busy takeover [--games 30] [--time 1]

deadline: with ``--busy`` processes spinning (``python3 -c 'while 1: pass'``, as a judge, an opponent
and a GUI share the cores), the longest move of plies-gtp-hex (``--time 1``, 9x9, genmove timed from
the command's write to the reply's last line) and of the tournament client (a process, ``--time 1``,
7x7 against the local server, which times each answer from its request as the course's server does).

takeover: the tournament client in this process with an empty compiled-kernel cache (NUMBA_CACHE_DIR
a fresh folder, set before numba loads) against the local server: the game and move at which the
engine takes over from the fallback search (the compile runs detached in the background).
"""
import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def gtp_moves(moves: int) -> list[float]:
    proc = subprocess.Popen([sys.executable, "-m", "adapters.gtp_hex", "--time", "1", "--size", "9"], cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            bufsize=1)
    times = []

    def ask(line):
        began = time.perf_counter()
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        reply = []
        while (text := proc.stdout.readline()) not in ("\n", ""):
            reply.append(text)
        return time.perf_counter() - began, "".join(reply)

    ask("name")
    for i in range(moves):
        seconds, reply = ask(f"genmove {'bw'[i % 2]}")
        if not reply.startswith("= "):
            break
        times.append(seconds)
    ask("quit")
    proc.wait(60)
    return times


def client_moves(games: int) -> list[float]:
    from standins import oht_server as S
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "PLIES_OHT_PASSWORD": "bench"}
    with tempfile.TemporaryDirectory() as tmp:
        certs = S.self_signed(pathlib.Path(tmp) / "certs")
        server = S.Server(*certs, S.ServerConfig(generation="A", sizes=(7,), series=1, games=games),
                          S.RandomOpponent(7), out=None, timeout=120)
        thread = threading.Thread(target=server.serve_one)
        thread.start()
        subprocess.run([sys.executable, "-m", "adapters.oht_client", "--generation", "A", "--port", str(server.port),
                        "--cert", str(certs[0]), "--username", "bench", "--quiet", "--time", "1",
                        "--log", str(pathlib.Path(tmp) / "games.log")], cwd=ROOT, env=env, capture_output=True,
                       timeout=1200)
        thread.join(120)
        server.close()
    return server.results[0].client_times


def deadline(args) -> None:
    spinners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.busy)]
    try:
        gtp = gtp_moves(args.moves)
        client = client_moves(2)
    finally:
        for spinner in spinners:   # only the processes started here, by their own handle
            spinner.kill()
            spinner.wait()
    print(f"{args.busy} busy processes; load {os.getloadavg()[0]:.1f}")
    print(f"plies-gtp-hex --time 1 (9x9): {len(gtp)} genmoves, max {max(gtp):.3f} s, "
          f"median {sorted(gtp)[len(gtp) // 2]:.3f} s")
    print(f"oht client --time 1 (7x7, 2 games): {len(client)} answers, max {max(client):.3f} s, "
          f"median {sorted(client)[len(client) // 2]:.3f} s")


def takeover(args) -> None:
    tmp = tempfile.mkdtemp(prefix="hex-takeover-")
    os.environ["NUMBA_CACHE_DIR"] = str(pathlib.Path(tmp) / "cache")   # before numba loads (nothing here has)
    os.environ["PYTHONWARNINGS"] = "ignore"
    from adapters import oht_client as C
    from adapters import oht_session
    from standins import oht_server as S
    certs = S.self_signed(pathlib.Path(tmp) / "certs")
    server = S.Server(*certs, S.ServerConfig(generation="A", sizes=(7,), series=1, games=args.games),
                      S.RandomOpponent(7), out=None, timeout=600)
    thread = threading.Thread(target=server.serve_one)
    thread.start()
    began = time.perf_counter()
    agent = C.make_agent(C.Settings(time=args.time, log=str(pathlib.Path(tmp) / "games.log")))
    status = oht_session.play("A", "127.0.0.1", server.port, certs[0], agent,
                              oht_session.Login(username="bench", ask_secret=lambda prompt: "bench"), timeout=600)
    agent.close()
    thread.join(120)
    server.close()
    ours = [(g["number"], i + 1) for g in agent.record.games
            for i, m in enumerate(m for m in g["moves"] if m[3] is not None)]
    result = server.results[0]
    print(f"status {status}; {len(agent.record.games)} games in {time.perf_counter() - began:.0f} s; "
          f"{agent.fallback_moves} fallback moves of {len(ours)}; fallback answers max "
          f"{max(result.client_times[:agent.fallback_moves]):.3f} s")
    if agent.fallback_moves < len(ours):
        game, move = ours[agent.fallback_moves]
        print(f"the engine takes over at game {game}, our move {move}")
    print(f"wins {sum(g['won'] for g in agent.record.games)} of {len(agent.record.games)}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    d = sub.add_parser("deadline")
    d.add_argument("--moves", type=int, default=20)
    d.add_argument("--busy", type=int, default=2)
    t = sub.add_parser("takeover")
    t.add_argument("--games", type=int, default=30)
    t.add_argument("--time", type=float, default=1.0)
    args = p.parse_args(argv)
    (deadline if args.what == "deadline" else takeover)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
