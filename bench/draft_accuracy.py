"""The drafter's accuracy on every bundled map, clean and degraded the way a scan is: the table
in docs/from-a-module.md.

Each map is rendered by hexforge, degraded (JPEG quality 60, Gaussian blur 1 px, a colour
cast, 2% larger and turned 0.5 degrees with the grid registered by two hexes, all at once),
drafted, and scored hex by hex against its source data: a hex is right when its terrain,
overlays, hexside features and the roads and railways across its sides all are.

    python bench/draft_accuracy.py [GAME[/MAP],...] [DEGRADATION,...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "draft"))
from known_answers import DEGRADATIONS, MAPS, run  # noqa: E402

from toolkit.io import load_game  # noqa: E402
from toolkit.render import render_map  # noqa: E402


def main(argv: list[str]) -> None:
    chosen = argv[0].split(",") if argv else None
    degradations = argv[1].split(",") if len(argv) > 1 else DEGRADATIONS
    print(f"{'map':<34}{'picture':<8}{'hexes right':>12}{'terrain':>9}{'listed':>8}{'wrong unlisted':>16}"
          f"{'hexsides r/miss/false':>23}{'links r/miss/false':>20}{'s':>6}")
    for game_id, map_id, dpi in MAPS:
        if chosen and game_id not in chosen and f"{game_id}/{map_id}" not in chosen:
            continue
        game = load_game(game_id)
        rendered = render_map(game.maps[map_id], dpi=dpi, game=game)
        for degradation in degradations:
            start = time.perf_counter()
            _, s = run(game, map_id, dpi, degradation, rendered)
            print(f"{game_id + '/' + map_id + f' ({dpi} dpi)':<34}{degradation:<8}{s.accuracy:>12.1%}"
                  f"{1 - len(s.wrong_terrain) / s.hexes:>9.1%}{s.listed / s.hexes:>8.0%}{len(s.unflagged):>16}"
                  f"{'/'.join(map(str, s.sides)):>23}{'/'.join(map(str, s.links)):>20}"
                  f"{time.perf_counter() - start:>6.0f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
