"""Loading a game and finding its ruleset, cached against uncached, in the same run.

``load_game`` keeps a parsed game per process (toolkit/io/_gamecache.py) and hands each
caller its own copy; the baseline is the parse it replaces (``_load_game``). ``get_ruleset``
reads the package entry points once per process; the baseline reads them on every call, as
it did before. CPU time, best of five, per bundled game.

    python bench/bench_load.py
"""

from __future__ import annotations

import time

from toolkit.io import bundled_games, clear_game_cache, load_game
from toolkit.io.games import _load_game, game_path
from toolkit.referee import get_ruleset, registry


def _best_ms(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return min(times) * 1000


def _uncached_ruleset(name: str):
    registry.refresh()
    return get_ruleset(name)


def main() -> None:
    clear_game_cache()
    print(f"{'game':20} {'parse ms':>9} {'first ms':>9} {'cached ms':>10} {'ratio':>6}")
    for game_id in bundled_games():
        path = game_path(game_id)
        parse = _best_ms(lambda: _load_game(path))
        first = _best_ms(lambda: (clear_game_cache(), load_game(game_id)))   # a parse, nothing pickled
        load_game(game_id)                  # the second: a parse, the game kept
        cached = _best_ms(lambda: load_game(game_id))
        print(f"{game_id:20} {parse:9.1f} {first:9.1f} {cached:10.1f} {cached / parse:6.2f}")
    name = bundled_games()[0]
    get_ruleset(name)
    plain = _best_ms(lambda: [_uncached_ruleset(name) for _ in range(20)]) / 20
    cached = _best_ms(lambda: [get_ruleset(name) for _ in range(20)]) / 20
    print(f"get_ruleset({name!r}): entry points read each call {plain:.3f} ms, once per process "
          f"{cached:.4f} ms ({plain / max(cached, 1e-6):.0f}x)")


if __name__ == "__main__":
    main()
