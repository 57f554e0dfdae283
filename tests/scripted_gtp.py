"""A scripted GTP engine for the Go referee's tests (tests/test_go_match.py): it knows no rules and
answers ``genmove`` from a script given as one JSON argument:

    python tests/scripted_gtp.py '{"moves": ["c3", "pass"], "dead": "a1", "name": "S"}'

Keys: ``moves`` (the genmove answers of every game, in order; ``pass`` once they run out), or
``games`` (one such list per game, the k-th ``clear_board`` starts game k; the last list serves the
games after it); ``dead`` (the ``final_status_list dead`` answer: a string, or a list with one string
per game); ``refuse`` (commands answered ``? refused``); ``name``; ``log`` (a file every command line
is appended to); ``marker`` (a file the first process creates: a process that finds it, a restart,
updates its script with the keys of ``restarted``); ``known`` (the commands ``known_command`` says
true of); ``cleanup`` (the answers of ``kgs-genmove_cleanup``, as ``moves``); ``dead_calls`` (one
``final_status_list`` answer per call, the last one repeated); ``score`` (the ``final_score`` answer: a
string, or a list with one string per game; without it final_score is an empty success);
``cputime`` (seconds each ``cputime`` call adds: the k-th call answers k x cputime).  A genmove answer may be a vertex,
``pass``, ``resign``, or a special: ``sleep:S`` / ``sleep:S:MOVE`` (sleep S seconds, then answer
pass / MOVE), ``crash`` (exit at once, no reply), ``garbage`` (a line that is no GTP reply), ``fail``
(``? cannot``).
"""
import json
import os
import sys
import time


def main() -> int:
    script = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    if "marker" in script:  # a restarted process (the marker file exists) follows another script
        if os.path.exists(script["marker"]):
            script.update(script.get("restarted", {}))
        else:
            open(script["marker"], "w").close()
    games = script.get("games") or [script.get("moves", [])]
    dead = script.get("dead", "")
    refuse = set(script.get("refuse", []))
    log = open(script["log"], "a") if "log" in script else None
    game, queue = -1, []
    cleanup = list(script.get("cleanup", []))
    cputime_calls = 0

    def reply(ok: bool, text: str = ""):
        sys.stdout.write(f"{'=' if ok else '?'} {text}\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        line = line.strip()
        if log is not None:
            log.write(line + "\n")
            log.flush()
        if not line:
            continue
        command = line.split()[0]
        if command in refuse:
            reply(False, "refused")
        elif command == "name":
            reply(True, script.get("name", "scripted"))
        elif command == "version":
            reply(True, "1")
        elif command == "protocol_version":
            reply(True, "2")
        elif command == "clear_board":
            game += 1
            queue = list(games[min(game, len(games) - 1)])
            reply(True)
        elif command == "final_status_list":
            if "dead_calls" in script:
                calls = script["dead_calls"]
                reply(True, calls.pop(0) if len(calls) > 1 else calls[0])
            else:
                reply(True, dead[min(game, len(dead) - 1)] if isinstance(dead, list) else dead)
        elif command == "final_score" and "score" in script:
            score = script["score"]
            reply(True, score[min(game, len(score) - 1)] if isinstance(score, list) else score)
        elif command == "cputime" and "cputime" in script:
            cputime_calls += 1
            reply(True, f"{cputime_calls * script['cputime']:g}")
        elif command == "known_command":
            reply(True, "true" if line.split()[-1] in script.get("known", []) else "false")
        elif command in ("genmove", "kgs-genmove_cleanup"):
            moves = queue if command == "genmove" else cleanup
            move = moves.pop(0) if moves else "pass"
            if move.startswith("sleep:"):
                _, seconds, *rest = move.split(":")
                time.sleep(float(seconds))
                move = rest[0] if rest else "pass"
            if move == "crash":
                return 3
            if move == "garbage":
                sys.stdout.write("hello there\n\n")
                sys.stdout.flush()
            elif move == "fail":
                reply(False, "cannot")
            else:
                reply(True, move)
        elif command == "quit":
            reply(True)
            return 0
        else:  # boardsize, komi, play, time_settings, time_left, ...: accepted
            reply(True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
