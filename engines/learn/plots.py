"""PNG figures of a training run (matplotlib, the Agg backend: no display needed)."""
import pathlib


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def loss_curve(path, losses: list[float], value_losses: list[float] | None = None, title: str = "") -> pathlib.Path:
    """The training loss (mean over each episode's minibatches) against the episode."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(range(1, len(losses) + 1), losses, label="policy cross-entropy")
    if value_losses:
        ax.plot(range(1, len(value_losses) + 1), value_losses, label="value log-loss")
    ax.set_xlabel("episode")
    ax.set_ylabel("loss")
    ax.set_title(title or "ANET training loss")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return pathlib.Path(path)


def heat_map(path, names: list[str], wins, games: int, title: str = "") -> pathlib.Path:
    """wins[i][j] / games (the share of the series i won against j) as a colour grid."""
    plt = _pyplot()
    k = len(names)
    fig, ax = plt.subplots(figsize=(1.2 * k + 2.5, 1.0 * k + 2))
    share = [[(wins[i][j] / games) if i != j else float("nan") for j in range(k)] for i in range(k)]
    im = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(k), names, rotation=45, ha="right")
    ax.set_yticks(range(k), names)
    for i in range(k):
        for j in range(k):
            if i != j:
                ax.text(j, i, f"{wins[i][j]}", ha="center", va="center", fontsize=9)
    ax.set_xlabel("opponent")
    ax.set_ylabel("player (wins shown)")
    ax.set_title(title or f"TOPP: wins out of {games} a series")
    fig.colorbar(im, ax=ax, label="share won")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return pathlib.Path(path)
