"""The Othello opening book: its bitboards and symmetries in Python (held to the engine's rules), a tiny
book built here (depth 2, a few dozen positions) found under each of the 8 symmetries with the moves
mapped, the player answering from it without a search and searching as before off it, the variety
choosing only among the moves within the margin, resuming a build, and a corrupt or missing book file
(a clear error; the player then plays without it, said once on stderr)."""
import random

import numpy as np
import pytest

from engines.games import make_game
from engines.knowledge.othello import book as B
from engines.learn.othello import book as build
from engines.players.othello import OthelloSettings, make_player

GAME = make_game("othello", size=8)


def bits_of(state):
    """(mover's discs, opponent's) of an engine state."""
    flat = GAME.cells(state).ravel()
    me = GAME.to_move(state) + 1
    return (sum(1 << int(i) for i in np.flatnonzero(flat == me)),
            sum(1 << int(i) for i in np.flatnonzero(flat == 3 - me)))


def square_map(k):
    """square -> its image under the k-th of book.symmetries."""
    return {sq: B.symmetries(1 << sq)[k].bit_length() - 1 for sq in range(64)}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A book of about 60 positions at depth 2 (two runs: the second resumes the first)."""
    work = tmp_path_factory.mktemp("book")
    out = work / "book.npz"
    args = build.parser().parse_args(["--out", str(out), "--work", str(work), "--depth", "2", "--positions", "30",
                                      "--max-plies", "5", "--quiet"])
    args.command = "test"
    first = build.run(args)
    args.positions = 60
    second = build.run(args)
    return out, first, second


def test_python_bitboards_follow_the_engine():
    rng = random.Random(3)
    for _ in range(4):
        s = GAME.initial_state()
        while not GAME.is_terminal(s):
            P, O = bits_of(s)
            legal = [int(a) for a in GAME.legal_moves(s) if a != GAME.pass_action]
            assert sorted(B.squares(B.moves_of(P, O))) == sorted(r * 8 + c for r, c in map(GAME.point_of, legal))
            move = rng.choice([int(a) for a in GAME.legal_moves(s)])
            after = GAME.play(s, move)
            if move != GAME.pass_action:
                r, c = GAME.point_of(move)
                turned = B.flips_of(r * 8 + c, P, O)
                mover = GAME.to_move(s) + 1
                cells = GAME.cells(after).ravel()
                assert sum(1 << int(i) for i in np.flatnonzero(cells == mover)) == P | turned | (1 << (r * 8 + c))
            s = after


def test_the_eight_symmetries_are_the_squares():
    maps = [square_map(k) for k in range(8)]
    images = {tuple(m[sq] for sq in range(64)) for m in maps}
    assert len(images) == 8  # 8 different permutations of the squares
    naive = {tuple(r2 * 8 + c2 for r, c in (divmod(sq, 8) for sq in range(64)) for r2, c2 in [f(r, c)])
             for f in (lambda r, c: (r, c), lambda r, c: (7 - r, c), lambda r, c: (r, 7 - c),
                       lambda r, c: (7 - r, 7 - c), lambda r, c: (c, r), lambda r, c: (7 - c, r),
                       lambda r, c: (c, 7 - r), lambda r, c: (7 - c, 7 - r))}
    assert images == naive
    P, O = B.START
    assert len({B.canonical(*(B.symmetries(P)[k], B.symmetries(O)[k])) for k in range(8)}) == 1


def test_a_build_resumes_and_writes_its_sidecar(tiny):
    out, first, second = tiny
    assert first["positions"] >= 30 and second["positions"] >= 60 > first["positions"]
    assert second["commands"] == ["test", "test"] and second["depth"] == 2
    import json
    assert json.loads(out.with_suffix(".json").read_text())["positions"] == second["positions"]
    book = B.Book.load(out)
    assert len(book) == second["positions"]


def test_a_build_continues_a_book_file_without_its_work_folder(tiny, tmp_path):
    import shutil
    out = tmp_path / "book.npz"
    shutil.copy(tiny[0], out)
    shutil.copy(tiny[0].with_suffix(".json"), out.with_suffix(".json"))
    before = B.Book.load(out)
    args = build.parser().parse_args(["--out", str(out), "--work", str(tmp_path / "new"), "--depth", "2",
                                      "--positions", str(len(before) + 20), "--max-plies", "5", "--quiet"])
    args.command = "again"
    sidecar = build.run(args)
    after = B.Book.load(out)
    assert sidecar["commands"] == ["test", "test", "again"] and len(after) >= len(before) + 20
    for key, (value, expanded) in before.entries.items():  # nothing lost; the leaves keep their values
        assert key in after.entries and (expanded <= after.entries[key][1])
        if not after.entries[key][1]:
            assert after.entries[key][0] == pytest.approx(value, abs=1e-4)


def test_the_book_is_found_under_every_symmetry(tiny):
    book = B.Book.load(tiny[0])
    # every expanded position of the tiny book, in the orientation of the game from the start
    s = GAME.initial_state()
    seen = 0
    for line in ([], [19], [19, 18], [19, 20], [37, 29]):
        s = GAME.initial_state()
        for sq in line:
            s = GAME.play(s, GAME.action(sq // 8, sq % 8))
        P, O = bits_of(s)
        moves = book.moves(P, O)
        if moves is None:
            continue
        seen += 1
        assert set(moves) == set(B.squares(B.moves_of(P, O)))
        for k in range(8):
            m = square_map(k)
            turned = book.moves(B.symmetries(P)[k], B.symmetries(O)[k])
            assert turned == {m[sq]: v for sq, v in moves.items()}
        best = max(moves.values())
        rng = random.Random(0)
        for k in range(8):  # the chosen move is the (mapped) best within the margin
            square, value = book.choose(B.symmetries(P)[k], B.symmetries(O)[k], rng, margin=0.0)
            assert value == best and moves[{v: q for q, v in square_map(k).items()}[square]] == best
    assert seen >= 3


def test_the_values_are_the_books_negamax(tiny):
    book = B.Book.load(tiny[0])
    for key, (value, expanded) in book.entries.items():
        if expanded:
            assert value == pytest.approx(max(book.moves(*key).values()), abs=1e-3)


def _hand_book():
    """After black's d3 (square 19), white's three replies valued 1.0, 0.6 and -2.0 for white."""
    P, O = B.START
    turned = B.flips_of(19, P, O)
    white, black = O & ~turned, P | turned | (1 << 19)
    entries = {B.canonical(white, black): (1.0, True)}
    values = iter([1.0, 0.6, -2.0])
    chosen = {}
    for square, key, sign, final in B.successors(white, black):
        v = next(values)
        entries[key] = (-v, False)
        chosen[square] = v
    return B.Book(entries), (white, black), chosen


def test_variety_picks_only_the_moves_within_the_margin():
    book, (P, O), values = _hand_book()
    assert book.moves(P, O) == pytest.approx(values)
    rng = random.Random(7)
    picks = {book.choose(P, O, rng, margin=0.5)[0] for _ in range(200)}
    assert picks == {sq for sq, v in values.items() if v >= 0.5}  # both near moves, never the one 3 discs worse
    assert {book.choose(P, O, rng, margin=0.0)[0] for _ in range(50)} == {max(values, key=values.get)}
    assert book.choose(O, P, rng) is None  # not a book position


def _counted(player):
    calls = []
    search = player.searcher.search

    def counting(state, limits):
        calls.append(state)
        return search(state, limits)
    player.searcher.search = counting
    return calls


def test_the_player_plays_the_book_move_without_searching(tmp_path):
    book, (P, O), values = _hand_book()
    path = tmp_path / "hand.npz"
    book.save(path)
    s = GAME.play(GAME.initial_state(), GAME.action(2, 3))  # black d3: white to move, the hand book's position
    assert bits_of(s) == (P, O)
    picks = set()
    for seed in range(6):
        player = make_player(OthelloSettings(seed=seed))
        player.book_path = path
        player._book = None
        calls = _counted(player)
        move = player.choose(s, 5.0)
        picks.add(move)
        assert calls == [] and player.last["book"] and player.last["nodes"] == 0
        r, c = GAME.point_of(move)
        assert values[r * 8 + c] >= max(values.values()) - B.DEFAULT_MARGIN
        report = player.report(move)
        assert report["value"] == pytest.approx(values[r * 8 + c]) and not report["exact"]
    assert len(picks) == 2  # the seeds vary the choice between the two near-best moves


def test_a_depth_limit_of_the_harness_is_a_search_not_the_book(tmp_path):
    book, _, _ = _hand_book()
    path = tmp_path / "hand.npz"
    book.save(path)
    s = GAME.play(GAME.initial_state(), GAME.action(2, 3))  # the hand book's position
    player = make_player(OthelloSettings())
    player.book_path, player._book = path, None
    calls = _counted(player)
    player.choose(s, 60.0, depth=3)  # the game manager's -l 3: the search it asks for
    assert len(calls) == 1 and player.last["depth"] == 3
    player.choose(s, 60.0, depth=3, solve=True)  # a midgame depth with the player's own policies (NBoard)
    assert len(calls) == 1 and player.last["book"]


def test_off_the_book_the_player_searches_as_before(tmp_path):
    book, _, _ = _hand_book()
    path = tmp_path / "hand.npz"
    book.save(path)
    s = GAME.initial_state()
    for sq in (19, 18, 17):
        s = GAME.play(s, GAME.action(sq // 8, sq % 8))
    with_book = make_player(OthelloSettings(seed=1))
    with_book.book_path, with_book._book = path, None
    without = make_player(OthelloSettings(seed=1, book=False))
    assert without.opening_book() is None
    calls = _counted(with_book)
    a = with_book.choose(s, 60.0, depth=4, solve=True)  # the book looked at (as NBoard asks), then the same search
    b = without.choose(s, 60.0, depth=4, solve=True)
    assert len(calls) == 1 and "book" not in with_book.last and a == b
    assert with_book.last["nodes"] == without.last["nodes"] > 0


@pytest.mark.parametrize("content", [b"not a zip at all", b"PK\x03\x04broken", None])
def test_a_corrupt_book_is_a_clear_error_and_the_player_plays_without_it(tmp_path, capsys, content):
    path = tmp_path / "book.npz"
    if content is None:  # an npz whose arrays would need pickle
        np.savez(path, player=np.array([object()], dtype=object), opponent=np.zeros(1, np.uint64),
                 value=np.zeros(1), expanded=np.zeros(1, np.uint8))
    else:
        path.write_bytes(content)
    with pytest.raises(B.BookError, match="not an Othello book"):
        B.Book.load(path)
    player = make_player(OthelloSettings())
    capsys.readouterr()  # (what loading the shipped book said)
    player.book_path, player._book = path, None
    s = GAME.initial_state()
    for _ in range(2):
        move = player.choose(s, 5.0, depth=2, solve=True)
        assert move in GAME.legal_moves(s) and "book" not in player.last
    err = capsys.readouterr().err
    assert err.count("playing without the opening book") == 1 and str(path) in err


def test_a_missing_or_inconsistent_book_is_refused(tmp_path):
    with pytest.raises(B.BookError):
        B.Book.load(tmp_path / "absent.npz")
    path = tmp_path / "short.npz"
    np.savez(path, player=np.zeros(2, np.uint64), opponent=np.zeros(1, np.uint64), value=np.zeros(2),
             expanded=np.zeros(2, np.uint8))
    with pytest.raises(B.BookError, match="one length"):
        B.Book.load(path)


def test_no_book_on_other_boards(tmp_path, capsys):
    path = tmp_path / "broken.npz"
    path.write_bytes(b"junk")
    player = make_player(OthelloSettings(), size=6)
    player.book_path, player._book = path, None
    assert player.opening_book() is None and capsys.readouterr().err == ""  # not even read


def test_under_the_managers_rules_no_book_move_that_would_pass(tmp_path):
    P, O = (1 << 0) | (1 << 63), (1 << 9) | (1 << 54)  # c3 and f6 leave the opponent without a move
    mine, theirs = P | (1 << 9) | (1 << 18), 1 << 54
    book = B.Book({B.canonical(P, O): (5.0, True), B.canonical(mine, theirs): (5.0, False)})
    assert book.moves(P, O, passes=False) is None and book.moves(P, O) == {18: 5.0, 45: 5.0}
    hand, (P, O), values = _hand_book()  # d3's replies: none of them passes
    assert hand.moves(P, O, passes=False) == hand.moves(P, O)
    path = tmp_path / "hand.npz"
    hand.save(path)
    manager_game = make_game("othello", size=8, variant="manager")
    manager = make_player(OthelloSettings(), variant="manager")
    manager.book_path, manager._book = path, None
    calls = _counted(manager)
    s = manager_game.play(manager_game.initial_state(), manager_game.action(2, 3))
    move = manager.choose(s, 5.0)
    r, c = manager_game.point_of(move)
    assert calls == [] and manager.last["book"] and values[r * 8 + c] >= max(values.values()) - B.DEFAULT_MARGIN


def test_the_shipped_book():
    path = B.shipped_path()
    if not path.is_file():
        pytest.skip("no book shipped")
    import json
    book = B.Book.load(path)
    sidecar = json.loads(path.with_suffix(".json").read_text())
    assert sidecar["positions"] == len(book) and sidecar["cpu_hours"] > 0
    assert book.moves(*B.START) is not None  # the start has book moves
    player = make_player(OthelloSettings())
    calls = _counted(player)
    player.choose(GAME.initial_state(), 5.0)
    assert calls == [] and player.last["book"]


def test_a_move_that_makes_the_opponent_pass_or_ends_the_game():
    # the mover on a1 and h8, the opponent on b2 and g7: c3 (square 18) takes b2, and g7 has no move
    P, O = (1 << 0) | (1 << 63), (1 << 9) | (1 << 54)
    after = {sq: (key, sign, final) for sq, key, sign, final in B.successors(P, O)}
    mine, theirs = P | (1 << 9) | (1 << 18), 1 << 54
    assert after[18] == (B.canonical(mine, theirs), 1, None)  # the same side moves again: the value is not negated
    # f6 (45) takes g7 and leaves b2 without a move: the half turn of c3's position, so the same key
    assert set(after) == {18, 45} and after[45] == after[18]
    book = B.Book({B.canonical(P, O): (0.0, True), B.canonical(mine, theirs): (5.0, False)})
    assert book.moves(P, O) == {18: 5.0, 45: 5.0}
    # alone against b2, c3 ends the game 3 discs to none
    assert B.successors(1, 1 << 9) == [(18, None, 1, 3)]


def test_the_pipe_agent_answers_from_the_book_without_a_depth_limit(tmp_path):
    from adapters.othello_agent import OthelloAgentSettings, PipeAgent
    from protocols.othello_pipe import Flags
    s = GAME.play(GAME.initial_state(), GAME.action(2, 3))  # light to move after dark's d3
    P, O = bits_of(s)
    entries = {B.canonical(P, O): (0.0, True)}
    entries.update({key: (0.0, False) for _, key, _, _ in B.successors(P, O)})  # every reply as good
    path = tmp_path / "book.npz"
    B.Book(entries).save(path)
    board = GAME.cells(s).tolist()
    for limit in (-1, 4):
        messages = []
        agent = PipeAgent(OthelloAgentSettings(), log=messages.append)
        player = agent.player(8)
        player.book_path, player._book = path, None
        row, col = agent.choose(board, Flags(color=2, limit=limit, caching=True, ordering=True))
        assert row * 8 + col in B.squares(B.moves_of(P, O))
        if limit < 0:  # the player's own choice: the book, said in the verbose log
            assert agent.last is None and any("from the opening book" in m for m in messages)
        else:  # the manager's -l 4: the search it asks for
            assert agent.last.stats["depth"] == 4 and not any("book" in m for m in messages)
