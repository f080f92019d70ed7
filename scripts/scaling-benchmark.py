#!/usr/bin/env python3
"""How deckport's time and peak memory grow with the size of a deck.

    scripts/scaling-benchmark.py                              # both series, every size and task
    scripts/scaling-benchmark.py --series notes --sizes 1000,10000
    scripts/scaling-benchmark.py --series media --tasks legacy-to-latest --no-build
    scripts/scaling-benchmark.py --plot-from notes.json media.json   # tables and plot of saved runs

Two series of decks, each made once by the real Anki backend with scripts/benchmark.py's
generator (the same note type, fields, tags, nested decks and 15 % rescheduled cards) and
cached under .build-bench/series-*:

* notes: 1,000, 10,000, 100,000 and 1,000,000 notes (two cards each) with 100 images, so that
  what grows is the collection;
* media: 10,000 notes with 0.5, 1, 2 and 5 GB of sound files (400-600 KB each, every one used
  by a note), so that what grows is the media.

Every task of scripts/benchmark.py runs on every deck, deckport alone, each a separate process
measured from outside (wall time, and the peak resident set size that the kernel reports through
wait4); the figure is the median of --repeats runs after one unmeasured warm-up. The script
prints a Markdown table per series and writes a plot of both (time on log-log axes, where a
straight line of slope 1 is linear growth; memory against size) as an SVG file.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchmark  # noqa: E402  (scripts/benchmark.py: deck generation and measuring)

GIB = 2**30
SOUND_MEAN_BYTES = 500_000

SERIES = {
    "notes": {
        "unit": "notes",
        "sizes": [1_000, 10_000, 100_000, 1_000_000],
        "spec": lambda size: {"notes": size, "images": 100, "sounds": 0},
        "label": lambda size: f"{size:,} notes",
        "axis": "notes",
    },
    "media": {
        "unit": "bytes of media",
        "sizes": [GIB // 2, GIB, 2 * GIB, 5 * GIB],
        "spec": lambda size: {"notes": 10_000, "images": 0, "sounds": size // SOUND_MEAN_BYTES},
        "label": lambda size: f"{size / GIB:g} GB of media",
        "axis": "media (GB)",
    },
}

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def deck_name(series: str, size: int) -> str:
    return f"series-{series}-{size}"


def run_series(series: str, sizes: list[int], tasks: list[str], repeats: int, deckport: str) -> dict:
    """{size: {task: {"seconds", "rss_mb"}}} for one series."""
    definition = SERIES[series]
    results = {}
    for size in sizes:
        name = deck_name(series, size)
        benchmark.log(f"{name}: {definition['label'](size)}")
        measured = benchmark.benchmark_deck(
            name, tasks, repeats, deckport, regenerate=False, spec=definition["spec"](size), backend=False)
        results[size] = {
            task: {"seconds": tools["deckport"]["seconds"], "rss_mb": tools["deckport"]["rss_mb"]}
            for task, tools in measured["tasks"].items()
        }
    return results


def print_table(series: str, results: dict, tasks: list[str]) -> None:
    label = SERIES[series]["label"]
    print(f"\n{series} series: seconds / peak RSS in MB, deckport alone")
    print("| size | " + " | ".join(tasks) + " |")
    print("|---|" + "---:|" * len(tasks))
    for size, by_task in results.items():
        cells = [f"{by_task[t]['seconds']:.2f} s / {by_task[t]['rss_mb']:.0f} MB" for t in tasks]
        print(f"| {label(size)} | " + " | ".join(cells) + " |")


# ------------------------------------------------------------------------------------------
# The plot: one row per series, time (log-log) on the left, memory on the right.


def svg_plot(all_results: dict, tasks: list[str]) -> str:
    panel_width, panel_height, margin = 420, 260, 60
    rows = list(all_results)
    width = 2 * (panel_width + 2 * margin)
    height = len(rows) * (panel_height + 2 * margin) + 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    for row, series in enumerate(rows):
        results = all_results[series]
        sizes = list(results)
        scale_x = 1 / GIB if series == "media" else 1
        for column, (metric, title, log_y) in enumerate(
            [("seconds", "time (s)", True), ("rss_mb", "peak memory (MB)", False)]
        ):
            left = column * (panel_width + 2 * margin) + margin
            top = row * (panel_height + 2 * margin) + margin
            values = [results[s][t][metric] for s in sizes for t in tasks]
            parts += panel(
                left, top, panel_width, panel_height,
                xs=[s * scale_x for s in sizes],
                lines={t: [results[s][t][metric] for s in sizes] for t in tasks},
                y_range=(min(values), max(values)), log_y=log_y,
                title=f"{series} series: {title} against {SERIES[series]['axis']}",
            )
    legend_y = height - 20
    for index, task in enumerate(tasks):
        x = margin + index * 150
        parts.append(f'<line x1="{x}" y1="{legend_y}" x2="{x + 24}" y2="{legend_y}" '
                     f'stroke="{COLOURS[index % len(COLOURS)]}" stroke-width="2"/>')
        parts.append(f'<text x="{x + 30}" y="{legend_y + 4}">{task}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def panel(left, top, width, height, xs, lines, y_range, log_y, title) -> list[str]:
    """One chart: log x axis, log or linear y axis, a polyline per task."""
    x_low, x_high = math.log10(min(xs)), math.log10(max(xs))
    if log_y:
        y_low, y_high = math.floor(math.log10(y_range[0])), math.ceil(math.log10(y_range[1]))
    else:
        y_low, y_high = 0.0, nice_ceiling(y_range[1])

    def to_x(value: float) -> float:
        return left + (math.log10(value) - x_low) / max(x_high - x_low, 1e-9) * width

    def to_y(value: float) -> float:
        position = math.log10(value) if log_y else value
        return top + height - (position - y_low) / max(y_high - y_low, 1e-9) * height

    parts = [
        f'<text x="{left}" y="{top - 12}" font-weight="bold">{title}</text>',
        f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#888"/>',
    ]
    for x in xs:
        parts.append(f'<line x1="{to_x(x):.1f}" y1="{top}" x2="{to_x(x):.1f}" y2="{top + height}" stroke="#eee"/>')
        parts.append(f'<text x="{to_x(x):.1f}" y="{top + height + 16}" text-anchor="middle">{x:g}</text>')
    ticks = [10**e for e in range(int(y_low), int(y_high) + 1)] if log_y else [
        y_low + (y_high - y_low) * i / 4 for i in range(5)]
    for tick in ticks:
        y = to_y(tick)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + width}" y2="{y:.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{tick:g}</text>')
    for index, (task, values) in enumerate(lines.items()):
        points = " ".join(f"{to_x(x):.1f},{to_y(v):.1f}" for x, v in zip(xs, values))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{COLOURS[index % len(COLOURS)]}" '
                     f'stroke-width="2"><title>{task}</title></polyline>')
    return parts


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten at or above `value`."""
    power = 10 ** math.floor(math.log10(value))
    return next(step * power for step in (1, 2, 2.5, 5, 10) if step * power >= value)


def plot_from(paths: list[str], svg: str) -> None:
    """The tables and the plot of the series saved in the --json files at `paths`."""
    all_results = {}
    for path in paths:
        with open(path) as handle:
            saved = json.load(handle)
        print(f"{path}: {saved['machine']}")
        for series, results in saved["results"].items():
            all_results[series] = {int(size): by_task for size, by_task in results.items()}
    tasks = [t for t in benchmark.TASKS if all(t in by_task for r in all_results.values() for by_task in r.values())]
    for series in [s for s in SERIES if s in all_results]:
        print_table(series, all_results[series], tasks)
    with open(svg, "w") as handle:
        handle.write(svg_plot({s: all_results[s] for s in SERIES if s in all_results}, tasks))
    print(f"\nPlot: {os.path.relpath(svg, benchmark.ROOT)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Time deckport on decks of growing size.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--series", default="notes,media", help="comma-separated: notes, media (default: both)")
    parser.add_argument("--sizes", help="comma-separated sizes, for one series (notes, or bytes of media)")
    parser.add_argument("--tasks", default=",".join(benchmark.TASKS),
                        help=f"comma-separated, of: {', '.join(benchmark.TASKS)}")
    parser.add_argument("--repeats", type=int, default=1, help="measured runs per task and size (default 1)")
    parser.add_argument("--no-build", action="store_true", help="use .build/release/deckport as it is")
    parser.add_argument("--generate-only", action="store_true", help="make (or check) the decks and stop")
    parser.add_argument("--svg", default=os.path.join(benchmark.ROOT, "docs", "performance-scaling.svg"),
                        help="where to write the plot (default docs/performance-scaling.svg)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    parser.add_argument("--plot-from", metavar="FILE", nargs="+",
                        help="measure nothing: print the tables and write the plot of the series in these "
                             "--json files (one run per series, measured apart)")
    args = parser.parse_args()

    if args.plot_from:
        plot_from(args.plot_from, args.svg)
        return

    benchmark.ensure_venv(__file__)
    series_names = [s for s in args.series.split(",") if s]
    tasks = [t for t in args.tasks.split(",") if t]
    for series in series_names:
        if series not in SERIES:
            parser.error(f"unknown series '{series}' (known: {', '.join(SERIES)})")
    for task in tasks:
        if task not in benchmark.TASKS:
            parser.error(f"unknown task '{task}' (known: {', '.join(benchmark.TASKS)})")
    if args.sizes and len(series_names) != 1:
        parser.error("--sizes goes with exactly one --series")
    os.makedirs(benchmark.BENCH_DIR, exist_ok=True)
    chosen = {
        series: [int(s) for s in args.sizes.split(",")] if args.sizes else SERIES[series]["sizes"]
        for series in series_names
    }
    if args.generate_only:
        for series, sizes in chosen.items():
            for size in sizes:
                benchmark.ensure_deck(deck_name(series, size), False, SERIES[series]["spec"](size))
        return

    deckport = os.path.join(benchmark.ROOT, ".build", "release", "deckport")
    if not args.no_build:
        subprocess.run([os.path.join(benchmark.ROOT, "scripts", "setup.sh"), "release"], check=True)

    all_results = {}
    for series, sizes in chosen.items():
        all_results[series] = run_series(series, sizes, tasks, args.repeats, deckport)
    print(f"\nMachine: {benchmark.machine_summary()}")
    for series, results in all_results.items():
        print_table(series, results, tasks)
    with open(args.svg, "w") as handle:
        handle.write(svg_plot(all_results, tasks))
    print(f"\nPlot: {os.path.relpath(args.svg, benchmark.ROOT)}")
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({"machine": benchmark.machine_summary(), "results": all_results}, handle, indent=2)


if __name__ == "__main__":
    main()
