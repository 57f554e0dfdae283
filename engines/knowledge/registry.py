"""The registry of each game's knowledge: which module holds it, the evaluations it offers, the
default bundle a search gets when given none.

Each game's knowledge module (engines/knowledge/{go,othello,hex}.py) offers ``EVALUATIONS`` (name ->
function game -> Knowledge), ``DEFAULT_EVALUATION``, optionally ``warm_up(game)`` (compile what it
compiles lazily) and ``heavy_knowledge(game)`` (the RAVE search's bundle).  This module is the one
place that names them: searches, adapters and the warm-up ask it, so none of them names a game.  It
sits above every game's knowledge (they import engines.knowledge.bundle, never this module).
"""
from engines.knowledge.bundle import Knowledge
from engines.validate import check_choice


def registered_module(game):
    """The module holding the game's knowledge (EVALUATIONS, DEFAULT_EVALUATION), None for a game
    without any.  Each is imported here, when first asked for, so that a process loads the cached
    kernels of the game it plays only (another game's cost 10-40 ms of start-up)."""
    name = getattr(game, "name", None)
    if name == "go":
        from engines.knowledge.go import registered as module
    elif name == "othello":
        from engines.knowledge.othello import registered as module
    elif name == "hex":
        from engines.knowledge.hex import registered as module
    else:
        return None
    return module


def evaluations(game) -> tuple[str, ...]:
    """The names of the evaluations registered for the game (the default first); () if none."""
    module = registered_module(game)
    if module is None:
        return ()
    names = tuple(module.EVALUATIONS)
    return (module.DEFAULT_EVALUATION,) + tuple(n for n in names if n != module.DEFAULT_EVALUATION)


def warm_up(game):
    """Compile whatever the game's knowledge module compiles lazily (its optional ``warm_up(game)``)."""
    module = registered_module(game)
    if module is not None and hasattr(module, "warm_up"):
        module.warm_up(game)


def knowledge_for(game, evaluation: str | None = None) -> Knowledge:
    """The registered knowledge of the game: the named evaluation (default: the game's default) with
    its value function.  A game with nothing registered gets an empty bundle (uniform priors, random
    rollouts, no evaluation); naming an evaluation for it is a ValueError."""
    module = registered_module(game)
    if module is None:
        if evaluation is not None:
            raise ValueError(f"no evaluations are registered for the game {getattr(game, 'name', game)!r}")
        return Knowledge()
    if evaluation is None:
        evaluation = module.DEFAULT_EVALUATION
    check_choice(f"evaluation for {game.name}", evaluation, evaluations(game))
    return module.EVALUATIONS[evaluation](game)


def heavy_knowledge_for(game) -> Knowledge:
    """The game's RAVE knowledge (its knowledge module's ``heavy_knowledge(game)``), else its
    registered default bundle."""
    module = registered_module(game)
    heavy = getattr(module, "heavy_knowledge", None) if module is not None else None
    return heavy(game) if heavy is not None else knowledge_for(game)
