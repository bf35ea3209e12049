"""The figures of the validation report (matplotlib, written to PNG)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def bars(path, labels, series, ylabel, title):
    """Grouped bars: ``series`` maps a name to one value per label."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    n = len(series)
    width = 0.8 / max(n, 1)
    for i, (name, values) in enumerate(series.items()):
        ax.bar([x + i * width for x in range(len(labels))], values, width, label=name)
    ax.set_xticks([x + width * (n - 1) / 2 for x in range(len(labels))])
    ax.set_xticklabels(labels, rotation=0, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


def lines(path, series, xlabel, ylabel, title, shade=None):
    """Lines: ``series`` maps a name to (x, y); ``shade`` = [(x0, x1, label)]."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for name, (x, y) in series.items():
        ax.plot(x, y, label=name, lw=1.2)
    for x0, x1, label in shade or []:
        ax.axvspan(x0, x1, color="grey", alpha=0.15, lw=0)
        ax.text((x0 + x1) / 2, ax.get_ylim()[1] * 0.95, label, ha="center", va="top",
                fontsize=7)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    if len(series) <= 12:
        ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name
