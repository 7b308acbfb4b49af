"""An SVG histogram of scores, written by hand (no plotting library)."""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 640, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 40, 48


def histogram_svg(scores: list[int], title: str, bins: int = 30) -> str:
    """An SVG document: a histogram of ``scores`` (at least one) with labelled axes."""
    low, high = min(scores), max(scores)
    if high == low:
        high = low + 1
    step = math.ceil((high - low + 1) / bins)
    counts = [0] * bins
    for score in scores:
        counts[min((score - low) // step, bins - 1)] += 1
    used = max(i for i, c in enumerate(counts) if c) + 1
    counts = counts[:used]
    tallest = max(counts)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    bar_w = plot_w / len(counts)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-size="15">{escape(title)}</text>',
    ]
    for i, count in enumerate(counts):
        h = plot_h * count / tallest
        x = LEFT + i * bar_w
        start = low + i * step
        parts.append(
            f'<rect class="bar" x="{x:.2f}" y="{TOP + plot_h - h:.2f}" width="{bar_w - 1:.2f}" '
            f'height="{h:.2f}" fill="#3b7dd8"><title>{start}–{start + step - 1}: {count}</title>'
            "</rect>"
        )
    base = TOP + plot_h
    parts.append(f'<line x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}" stroke="#333"/>')
    parts.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{base}" stroke="#333"/>')
    for i in range(0, len(counts) + 1, max(1, len(counts) // 6)):
        x = LEFT + i * bar_w
        parts.append(
            f'<text x="{x:.2f}" y="{base + 16}" text-anchor="middle">{low + i * step}</text>'
        )
    for fraction in (0.0, 0.5, 1.0):
        y = base - plot_h * fraction
        label = round(tallest * fraction)
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.2f}" text-anchor="end">{label}</text>')
    parts.append(
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 10}" text-anchor="middle">score</text>'
    )
    parts.append(
        f'<text x="14" y="{TOP + plot_h / 2}" text-anchor="middle" '
        f'transform="rotate(-90 14 {TOP + plot_h / 2})">games</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
