"""The HTTP face of a play session: a Starlette app serving the page, the pictures and a JSON
API over :class:`~toolkit.play.session.Session` and :mod:`~toolkit.play.views`.

Refusals answer 409 with ``{"error": text, "refused": [reason, ...]}`` (each reason as in
docs/referee.md; a roll whose special result needs its owner's choice adds ``"choice"``); bad input answers 400 with ``{"error": text}``. One lock serialises the
session: the server is for one table on this machine, not a public service.
"""

from __future__ import annotations

import json
import threading
import time
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import HexforgeError, IllegalMoveError
from ..io._source import dump_yaml
from ..referee import position_to_dict
from . import views
from .images import MapArt, counter_png
from .savefile import replay_all, session_from_dict, session_to_dict
from .session import Session

__all__ = ["Table", "create_app", "bind", "serve", "STATIC"]

STATIC = resources.files(__package__) / "static"
#: Largest request body the API reads (a saved game of a long campaign fits many times).
MAX_BODY = 20 * 1024 * 1024


class Table:
    """The game on the table: the session, its map drawn for the screen, one lock."""

    def __init__(self, session: Session, module: str | None = None) -> None:
        from .vassal import Modules
        self.lock = threading.RLock()
        self.arts: dict = {}
        self.modules = Modules(module)
        self.session = session
        views.prepare(session)

    @property
    def art(self) -> MapArt:
        pos = self.session.pos
        key = (id(pos.game), pos.map_id)
        if key not in self.arts:
            self.arts = {key: MapArt.draw(pos.game, pos.map_id)}
        return self.arts[key]


def _refused(exc: IllegalMoveError, fmt) -> JSONResponse:
    body = {"error": str(exc), "refused": [r.to_dict(fmt) for r in exc.reasons]}
    if getattr(exc, "choice", None):      # a roll waiting for its owner's choice (combat.roll)
        body["choice"] = exc.choice
    return JSONResponse(body, status_code=409)


def create_app(table: Table) -> Starlette:
    """The app serving ``table``: ``/`` the page, ``/static`` its scripts, ``/api`` the game."""

    def guarded(handler, raw_body=False):
        async def endpoint(request: Request):
            body = None
            if request.method == "POST":
                raw = await request.body()
                if len(raw) > MAX_BODY:
                    return JSONResponse({"error": f"request body over {MAX_BODY} bytes"}, status_code=413)
                if raw_body:
                    body = {"data": raw}
                elif raw:
                    try:
                        body = json.loads(raw)
                    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
                        return JSONResponse({"error": f"request body is not JSON: {exc}"}, status_code=400)
            with table.lock:
                try:
                    answer = handler(request, body if body is not None else {})
                    if request.method == "POST" and answer.status_code == 200:
                        views.prepare(table.session)
                    return answer
                except IllegalMoveError as exc:
                    return _refused(exc, table.session.fmt)
                except HexforgeError as exc:
                    return JSONResponse({"error": str(exc)}, status_code=400)
                except (KeyError, TypeError, ValueError) as exc:
                    return JSONResponse({"error": f"malformed request: {exc!r}"}, status_code=400)
        return endpoint

    def session() -> Session:
        return table.session

    def ids(text) -> list[str]:
        if isinstance(text, list):
            return [str(t) for t in text]
        return [u for u in str(text or "").replace(",", " ").split() if u]

    def state(event=None) -> JSONResponse:
        return JSONResponse({"event": event, "position": views.position_view(session())})

    # -- pictures and page -------------------------------------------------------------------

    async def index(request: Request):
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    def map_png(request, body):
        return Response(table.art.png, media_type="image/png", headers={"Cache-Control": "no-cache"})

    def counter(request, body):
        cid = request.path_params["counter"]
        back = request.query_params.get("face") == "back"
        px = int(request.query_params.get("px", table.art.face_px))
        data = counter_png(session().game, cid, back=back, px=px, cache=table.art.faces)
        return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=3600"})

    # -- questions ---------------------------------------------------------------------------

    def board(request, body):
        art = table.art
        return JSONResponse(views.board_view(session(), art.layout, art.size, art.counter_px))

    def position(request, body):
        return state()

    def where(request, body):
        q = request.query_params
        start = time.perf_counter()
        answer = views.where_view(session(), ids(q.get("units")), q.get("mode") or None)
        took = (time.perf_counter() - start) * 1000
        return JSONResponse(answer, headers={"Server-Timing": f"referee;dur={took:.1f}"})

    def hex_info(request, body):
        s = session()
        h = views.parse_hex(s, request.path_params["hex"])
        return JSONResponse(views.hex_view(s, h, ids(request.query_params.get("units"))))

    def overlay(request, body):
        s = session()
        kind = request.path_params["kind"]
        side = request.query_params.get("side") or s.pos.side
        if kind == "zoc":
            return JSONResponse(views.zoc_view(s, side))
        if kind == "supply":
            return JSONResponse(views.supply_view(s, side))
        if kind == "command":
            return JSONResponse(views.command_view(s, side))
        if kind == "los":
            q = request.query_params
            return JSONResponse(views.los_view(s, views.parse_hex(s, q.get("from", "")),
                                               views.parse_hex(s, q.get("to", ""))))
        return JSONResponse({"error": f"unknown overlay {kind!r}; expected zoc, supply, command or los"},
                            status_code=404)

    # -- actions -----------------------------------------------------------------------------

    def move(request, body):
        s = session()
        units = ids(body.get("units"))
        mode = body.get("mode") or None
        if body.get("path"):
            path = [views.parse_hex(s, h) for h in body["path"]]
        else:
            path = s.plan(units, views.parse_hex(s, body.get("to", "")), mode)
        return state(s.move(units, path, mode))

    def phase(request, body):
        return state(session().next_phase())

    def undo(request, body):
        return state(session().undo())

    def loss(request, body):
        return state(session().loss(str(body.get("unit", "")), int(body.get("steps", 1))))

    def combat_assess(request, body):
        from .combat import assess
        s = session()
        q = request.query_params
        try:
            supports = json.loads(q.get("supports") or "[]")
        except json.JSONDecodeError as exc:
            return JSONResponse({"error": f"supports: not JSON: {exc}"}, status_code=400)
        result = assess(s, ids(q.get("attackers")), views.parse_hex(s, q.get("defender", "")), supports)
        return JSONResponse(result.to_dict(s.fmt))

    def combat_roll(request, body):
        from .combat import roll
        s = session()
        supports = body.get("supports") or []
        return state(roll(s, ids(body.get("attackers")), views.parse_hex(s, body.get("defender", "")), supports,
                          body.get("special")))

    def combat_retreat(request, body):
        from .combat import retreat
        s = session()
        to = body.get("to")
        box = body.get("box")
        if box is not None and not isinstance(box, str):
            return JSONResponse({"error": f"box: expected a box id, found {box!r}"}, status_code=400)
        return state(retreat(s, ids(body.get("units")), views.parse_hex(s, to) if to else None, box))

    def combat_advance(request, body):
        from .combat import advance
        s = session()
        return state(advance(s, ids(body.get("units")), views.parse_hex(s, body.get("to", ""))))

    def save(request, body):
        s = session()
        name = f"{s.game.id}-turn{s.stage.turn}.hexforge.json"
        return Response(json.dumps(session_to_dict(s), indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    def position_file(request, body):
        s = session()
        return Response(dump_yaml(position_to_dict(s.pos)), media_type="application/yaml",
                        headers={"Content-Disposition": f'attachment; filename="{s.game.id}-position.yaml"'})

    def load(request, body):
        replay = request.query_params.get("replay") in ("1", "true")
        loaded = session_from_dict(body, request.query_params.get("name") or "uploaded game", replay=replay)
        table.session = loaded
        return state()

    def replay_step(request, body):
        return state(session().step())

    def replay_finish(request, body):
        replay_all(session(), "the loaded game")
        return state()

    def export_vsav(request, body):
        from .vassal import position_vsav
        s = session()
        data = position_vsav(s.pos, table.modules)
        return Response(data, media_type="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{s.game.id}-turn{s.stage.turn}.vsav"'})

    def import_vsav(request, body):
        from .vassal import position_from_vsav
        s = session()
        name = request.query_params.get("name") or "uploaded.vsav"
        pos, warnings = position_from_vsav(s.game, table.modules, body["data"], name)
        table.session = Session.from_position(pos, s.rs, game_name=s.game_name)
        answer = views.position_view(table.session)
        return JSONResponse({"event": None, "position": answer, "warnings": warnings})

    routes = [
        Route("/", index),
        Route("/map.png", guarded(map_png)),
        Route("/counter/{counter}.png", guarded(counter)),
        Route("/api/board", guarded(board)),
        Route("/api/position", guarded(position)),
        Route("/api/where", guarded(where)),
        Route("/api/hex/{hex}", guarded(hex_info)),
        Route("/api/overlay/{kind}", guarded(overlay)),
        Route("/api/move", guarded(move), methods=["POST"]),
        Route("/api/phase", guarded(phase), methods=["POST"]),
        Route("/api/undo", guarded(undo), methods=["POST"]),
        Route("/api/loss", guarded(loss), methods=["POST"]),
        Route("/api/combat/assess", guarded(combat_assess)),
        Route("/api/combat/roll", guarded(combat_roll), methods=["POST"]),
        Route("/api/combat/retreat", guarded(combat_retreat), methods=["POST"]),
        Route("/api/combat/advance", guarded(combat_advance), methods=["POST"]),
        Route("/api/save", guarded(save)),
        Route("/api/position.yaml", guarded(position_file)),
        Route("/api/load", guarded(load), methods=["POST"]),
        Route("/api/replay/step", guarded(replay_step), methods=["POST"]),
        Route("/api/replay/finish", guarded(replay_finish), methods=["POST"]),
        Route("/api/export.vsav", guarded(export_vsav)),
        Route("/api/import.vsav", guarded(import_vsav, raw_body=True), methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    return Starlette(routes=routes)


def bind(port: int = 0, host: str = "127.0.0.1"):
    """A listening socket on ``host``:``port`` (0: a free port); :class:`HexforgeError` if taken."""
    import socket
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # no Nagle: a response goes out as headers then body, and on a kept-alive connection the
    # body would wait for the browser's delayed ACK (about 40 ms); accepted sockets inherit it
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)         # connections wait in the backlog until the server takes them
    except OSError as exc:
        sock.close()
        raise HexforgeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return sock


def serve(table: Table, sock, *, on_ready=None) -> None:
    """Serve ``table`` on the bound socket until interrupted (uvicorn, quiet logs)."""
    import uvicorn
    config = uvicorn.Config(create_app(table), log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    if on_ready is not None:
        on_ready()
    server.run(sockets=[sock])
