"""Figures 2-5 of the RLDP paper's Sec. 8 (000_aca93ed29ea857ee.txt), redrawn from our runs with their
spread: the mean (or median) over runs as a line, the 25-75 % quantile range as a band and the 5-95 %
range as a lighter band. No claims here; the claims of sec8_adult.py and sec8_synthetic.py call these.
"""

from __future__ import annotations

import math

import numpy as np

MARKS = {"GRR": "v", "SRR": "s", "IR": "^", "PolyOpt": "o", "NR": "x"}
COLORS = {"GRR": "tab:gray", "SRR": "tab:blue", "IR": "tab:green", "PolyOpt": "tab:red", "NR": "tab:purple"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path):
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    _plt().close(fig)


def narrow(lo, hi, tol: float) -> bool:
    """Whether the bracket [lo, hi] is narrow enough to be drawn as a curve: (hi - lo) <= tol * hi."""
    return hi - lo <= tol * abs(hi)


def fig2_adult(path, panels, *, narrow_tol: float = 1e-3) -> None:
    """Figure 2: NMI against eps on the adult pairs. ``panels`` = [(title, eps list, {mech: [nmi]}, note,
    brackets)]; one data set per panel, deterministic mechanisms: no spread to draw. ``note`` names the
    missing curves; ``brackets`` (may be absent or None) = {mech: [(lower, upper) at each eps]}, certified
    brackets of the NMI: a curve (through the lower ends) when every bracket of the mechanism is narrow
    (:func:`narrow`), else a shaded band [lower, upper] with the lower ends dashed. Panels with brackets use
    a log NMI axis (their values span five decades)."""
    plt = _plt()
    cols = min(2, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, 4.6 * rows), squeeze=False)
    for ax, panel in zip(axes.flat, panels, strict=True):
        title, eps, curves, note = panel[:4]
        brackets = panel[4] if len(panel) > 4 and panel[4] else {}
        xs = [float(e) for e in eps]
        for m, ys in curves.items():
            ax.plot(xs, ys, marker=MARKS.get(m, "."), color=COLORS.get(m), label=m)
        for m, br in brackets.items():
            lo, hi = [b[0] for b in br], [b[1] for b in br]
            c = COLORS.get(m)
            if all(narrow(a, b, narrow_tol) for a, b in br):
                ax.plot(xs, lo, marker=MARKS.get(m, "."), color=c,
                        label=f"{m} (certified bracket, width <= {narrow_tol:.0e}: curve)")
            else:
                ax.fill_between(xs, lo, hi, color=c, alpha=0.25, linewidth=0,
                                label=f"{m}: certified bracket [lower, upper] (band)")
                ax.plot(xs, lo, marker=MARKS.get(m, "."), color=c, linestyle="--", linewidth=1,
                        label=f"{m}: lower end (an exactly feasible mechanism)")
        ax.set_xlabel("eps")
        ax.set_ylabel("NMI under P-hat" + (" (log scale)" if brackets else ""))
        if brackets:
            ax.set_yscale("log")
            lo_y, hi_y = ax.get_ylim()
            ax.set_ylim(lo_y, hi_y * 100)     # head room for the note
        ax.set_title(title, fontsize=9)
        if note:
            ax.text(0.02, 0.98, note, transform=ax.transAxes, fontsize=6.5, va="top", color="tab:red", wrap=True)
        ax.legend(fontsize=6.5 if brackets else 8, loc="lower right")
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.suptitle("RLDP paper Fig. 2 (redrawn): adult data, NMI against eps, alpha = 2, beta = 0.05 "
                 "(one data set per panel: no spread)", fontsize=10)
    _save(fig, path)


def fig3_nmi_bands(path, shapes, *, runs: int) -> None:
    """Figure 3: mean NMI over runs against eps, with the 25-75 % and 5-95 % quantile bands.
    ``shapes`` = {label: (eps list, {eps: {mech: mean}}, {mech: {q: [quantile at each eps]}})}."""
    plt = _plt()
    fig, axes = plt.subplots(1, len(shapes), figsize=(6.2 * len(shapes), 4.4), squeeze=False)
    for ax, (label, (eps, means, qs)) in zip(axes.flat, shapes.items(), strict=True):
        xs = [float(e) for e in eps]
        for m in qs:
            c = COLORS.get(m)
            ax.fill_between(xs, qs[m][0.05], qs[m][0.95], color=c, alpha=0.08, linewidth=0)
            ax.fill_between(xs, qs[m][0.25], qs[m][0.75], color=c, alpha=0.22, linewidth=0)
            ax.plot(xs, [means[e][m] for e in eps], marker=MARKS.get(m, "."), color=c, label=m)
        ax.set_xlabel("eps")
        ax.set_ylabel("NMI under P-hat")
        ax.set_title(f"synthetic {label}: P* ~ Dirichlet(1/2), n = 32,561; mean of {runs} runs", fontsize=9)
        ax.legend(fontsize=8, loc="lower right")
        ax.grid(alpha=0.3)
    fig.suptitle("RLDP paper Fig. 3 (redrawn): line = mean, bands = 25-75 % and 5-95 % quantiles over runs",
                 fontsize=10)
    _save(fig, path)


def fig4_eps_star_bands(path, shapes, *, runs: int) -> None:
    """Figure 4: the realised eps* of NR and PolyOpt against eps: median line, 25-75 % band (the paper's
    two quantiles) and 5-95 % band; the diagonal eps* = eps. Infinite eps* (a zero probability under P*)
    is drawn at the top of the axis. ``shapes`` = {label: (eps list, {mech: [[eps* of each run] at each eps]})}."""
    plt = _plt()
    fig, axes = plt.subplots(1, len(shapes), figsize=(6.2 * len(shapes), 4.4), squeeze=False)
    for ax, (label, (eps, per_mech)) in zip(axes.flat, shapes.items(), strict=True):
        xs = [float(e) for e in eps]
        finite = [x for m in per_mech.values() for col in m for x in col if math.isfinite(x)]
        top = 2 * max(finite + xs)
        for m, cols in per_mech.items():
            c = COLORS.get(m)
            arr = [np.minimum(np.asarray(col, dtype=float), top) for col in cols]
            q = {p: [float(np.quantile(a, p)) for a in arr] for p in (0.05, 0.25, 0.5, 0.75, 0.95)}
            ax.fill_between(xs, q[0.05], q[0.95], color=c, alpha=0.08, linewidth=0)
            ax.fill_between(xs, q[0.25], q[0.75], color=c, alpha=0.25, linewidth=0, label=f"{m} 25-75 %")
            ax.plot(xs, q[0.5], marker=MARKS.get(m, "."), color=c, label=f"{m} median")
        ax.plot(xs, xs, "k--", linewidth=1, label="eps* = eps")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("eps")
        ax.set_ylabel("realised eps* under P* (eq. (62))")
        ax.set_title(f"synthetic {label}, {runs} runs", fontsize=9)
        ax.legend(fontsize=7, loc="upper left")
        ax.grid(alpha=0.3, which="both")
    fig.suptitle("RLDP paper Fig. 4 (redrawn): realised privacy eps*, median and quantile bands", fontsize=10)
    _save(fig, path)


def fig5_difference_spread(path, shapes, *, eps: str) -> None:
    """Figure 5: the normalised difference (I_P-hat - I_P*) / I_P-hat at ``eps``, per mechanism: box =
    25-75 %, whiskers = 5-95 %, every run as a dot; the paper's +-3 % as dashed lines.
    ``shapes`` = {label: {mech: [difference of each run]}}."""
    plt = _plt()
    fig, axes = plt.subplots(1, len(shapes), figsize=(6.2 * len(shapes), 4.4), squeeze=False)
    rng = np.random.default_rng(0)  # horizontal jitter of the dots only
    for ax, (label, per_mech) in zip(axes.flat, shapes.items(), strict=True):
        names = list(per_mech)
        data = [100 * np.asarray(per_mech[m], dtype=float) for m in names]
        ax.boxplot(data, whis=(5, 95), showfliers=False, tick_labels=names)
        for i, (m, d) in enumerate(zip(names, data, strict=True), start=1):
            ax.scatter(i + rng.uniform(-0.15, 0.15, d.size), d, s=6, alpha=0.5, color=COLORS.get(m))
        for y in (-3, 3):
            ax.axhline(y, color="k", linestyle="--", linewidth=0.8)
        ax.set_ylabel("(I_P-hat - I_P*) / I_P-hat  [%]")
        ax.set_title(f"synthetic {label}, eps = {eps}, {len(data[0])} runs", fontsize=9)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle("RLDP paper Fig. 5 (redrawn): box = 25-75 %, whiskers = 5-95 %, dots = runs; dashed: +-3 %",
                 fontsize=10)
    _save(fig, path)
