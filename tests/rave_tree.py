"""Test helpers over the RAVE search's node arrays (engines/search/rave.py), walked in Python apart from the
compiled kernels: the batch hooks' tests (the policy networks' prior, Hex's tree connections) check what the
compiled walk (engines/knowledge/tree_prior.py tree_frontier) collects against these."""
from engines.search.rave import PVISITS, VISITS
from engines.search.tree import COUNT, FIRST, M_ROOT, MOVE


def real_visits(tree_f, row) -> float:
    """A node's visits less its prior's virtual ones."""
    return float(tree_f[row, VISITS]) - float(tree_f[row, PVISITS])


def entered_nodes(searcher, min_visits) -> dict:
    """{row: moves from the root} of the expanded nodes a hook should visit: the root, and every node
    reached through nodes with min_visits real visits."""
    tree_f, tree_i = searcher.tree_f, searcher.tree_i
    out, todo = {}, [(int(searcher.meta[M_ROOT]), ())]
    while todo:
        row, moves = todo.pop()
        first, count = int(tree_i[row, FIRST]), int(tree_i[row, COUNT])
        if count == 0:
            continue
        out[row] = moves
        todo += [(j, moves + (int(tree_i[j, MOVE]),)) for j in range(first, first + count)
                 if real_visits(tree_f, j) >= min_visits]
    return out
