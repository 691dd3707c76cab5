"""Play benchmark: "Where" (select a unit -> its hexes shaded) on the largest bundled map
(a-victory-denied, 1656 hexes, at the time of writing).

Target (issue 13): the shaded hexes on screen within 100 ms of selecting a unit. Measured
three ways over the phasing side's units: the server's answer (``where_view``: reachable hexes,
MP left, paths, stacking at each end), the HTTP round trip to a real uvicorn server on
127.0.0.1, and, when Chromium and chromedriver are installed, the page itself (click to
shaded, as the browser test measures). Baseline measured in the same run: the referee's bare
``reachable`` for the same units (what ``hexforge referee moves`` computes).

    python bench/bench_play.py [GAME]
"""

from __future__ import annotations

import http.client
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

from toolkit.io import bundled_games, load_game
from toolkit.play import Session, Table, bind, create_app
from toolkit.play.views import where_view
from toolkit.referee import reachable, ruleset_for

TARGET_MS = 100.0


def _median_ms(fn, items, repeat=3) -> float:
    times = []
    for item in items:
        best = min(_timed(fn, item) for _ in range(repeat))
        times.append(best)
    return statistics.median(times)


def _timed(fn, item) -> float:
    start = time.perf_counter()
    fn(item)
    return (time.perf_counter() - start) * 1000


def _serve(table):
    import uvicorn
    sock = bind(0)
    server = uvicorn.Server(uvicorn.Config(create_app(table), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, sock.getsockname()[1]


def _browser(url, units):
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver_path):
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1500,950",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='hexforge-bench-')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.get(url)
        while driver.execute_script("return document.body.dataset.ready") != "1":
            time.sleep(0.05)
        times = []
        for uid in units:
            driver.execute_script("document.body.dataset.whereMs = ''")
            driver.execute_script(f"hexforge.select(['{uid}'])")
            while not driver.execute_script("return document.body.dataset.whereMs"):
                time.sleep(0.005)
            times.append(float(driver.execute_script("return document.body.dataset.whereMs")))
        return statistics.median(times[1:] or times), max(times)
    finally:
        driver.quit()


def _largest() -> str:
    return max(bundled_games(), key=lambda g: max(len(m.grid) for m in load_game(g).maps.values()))


def main() -> int:
    name = sys.argv[1] if len(sys.argv) > 1 else _largest()
    game = load_game(name)
    rs = ruleset_for(game)
    session = Session.new(game, rs, seed=1)
    pos = session.pos
    units = [u.id for u in pos.on_map(pos.side) if not u.counter.is_marker]
    table = Table(session)          # prepares the position's caches, as the server does after each change
    table.art
    sizes = [len(reachable(pos, rs, u)) for u in units]
    print(f"{name}: {len(pos.map.grid)} hexes, {len(units)} {pos.side} units reaching {statistics.mean(sizes):.0f} "
          f"hexes on average; medians over the units (best of 3 each), wall time, {os.cpu_count()} cores "
          f"shared (load {os.getloadavg()[0]:.1f})")
    base = _median_ms(lambda u: reachable(pos, rs, u), units)
    answer = _median_ms(lambda u: where_view(session, [u]), units)
    server, thread, port = _serve(table)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port)      # kept alive, as the browser does

        def ask(u):
            conn.request("GET", f"/api/where?units={u}")
            conn.getresponse().read()
        http_ms = _median_ms(ask, units)
        page = _browser(f"http://127.0.0.1:{port}/", units[:20])
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    rows = [("server answer (where_view)", answer), ("HTTP round trip, kept-alive connection", http_ms)]
    if page is not None:
        rows.append((f"page: select -> shaded on screen (max {page[1]:.0f} ms)", page[0]))
    print(f"{'measure':52s} {'ms':>8s} {'target':>8s} {'ok':>4s} {'baseline ms':>12s} {'x baseline':>10s}  baseline")
    for name, value in rows:
        ok = "yes" if value <= TARGET_MS else "NO"
        print(f"{name:52s} {value:8.1f} {TARGET_MS:8.0f} {ok:>4s} {base:12.1f} {value / base:10.1f}  "
              f"reachable() alone")
    if page is None:
        print("(no chromium/chromedriver: the page was not measured)")
    return 0 if all(v <= TARGET_MS for _, v in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
