"""A Knowledge bundle with the extra kernels of the RAVE search (engines/search/rave.py): a traced
policy playout, tree priors as virtual experience, and the ownership of final positions.  It names
no game; each game builds its own (Go: engines.knowledge.go.registered.heavy_knowledge).

  traced_playout, playout_params   SIG_TRACED_PLAYOUT: the playout policy (None: the game's random
                                   rollout_moves, one move at a time)
  experience, experience_params    SIG_EXPERIENCE: virtual visits and wins of new children (None:
                                   an even prior of RaveConfig.prior_even visits at 0.5)
  experience_visits                0: the experience is given when the children are made; N > 0 (a
                                   costly kernel such as a network): they start with the even prior
                                   and get the experience when their parent has N real visits
  experience_cost                  simulations one late experience counts as in a batch's budget (the
                                   clock sizes batches in simulations; a forward pass costs many)
  ownership, ownership_size        SIG_OWNERSHIP: who owns each point at the end of a playout
                                   (None / 0: no ownership statistics)
  playout_scratch                  entries of the trace buffer the traced playout wants (moves and
                                   its own scratch space, so that it allocates nothing per playout)
Everything of engines.knowledge.bundle.Knowledge stays (children, evaluate, value, ...).
"""
from dataclasses import dataclass, field

import numpy as np

from engines import kernels as K
from engines.knowledge.bundle import Knowledge, _kernel, _params
from engines.validate import check_int, check_number


@dataclass(frozen=True, eq=False)
class HeavyKnowledge(Knowledge):
    traced_playout: object = None
    playout_params: np.ndarray = field(default_factory=lambda: np.zeros(0))
    experience: object = None
    experience_params: np.ndarray = field(default_factory=lambda: np.zeros(0))
    ownership: object = None
    ownership_size: int = 0
    playout_scratch: int = 0
    experience_visits: int = 0
    experience_cost: float = 0.0

    def __post_init__(self):
        super().__post_init__()
        _kernel("HeavyKnowledge.traced_playout", self.traced_playout, K.SIG_TRACED_PLAYOUT)
        _kernel("HeavyKnowledge.experience", self.experience, K.SIG_EXPERIENCE)
        _kernel("HeavyKnowledge.ownership", self.ownership, K.SIG_OWNERSHIP)
        for name in ("playout_params", "experience_params"):
            object.__setattr__(self, name, _params(f"HeavyKnowledge.{name}", getattr(self, name)))
        check_int("HeavyKnowledge.ownership_size", self.ownership_size, 0)
        check_int("HeavyKnowledge.playout_scratch", self.playout_scratch, 0)
        check_int("HeavyKnowledge.experience_visits", self.experience_visits, 0)
        check_number("HeavyKnowledge.experience_cost", self.experience_cost, 0.0)
        if (self.ownership is None) != (self.ownership_size == 0):
            raise ValueError("HeavyKnowledge.ownership and ownership_size come together")
