// The map view: the map image with an SVG on top in the image's pixels (hex polygons for
// shading and hit testing, overlays, paths, counters), zoom, scrolling and the overview.

const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Yellow for no MP left through to deep green for a full allowance (as `referee moves --png`).
export function mpColour(left, ma) {
  const share = ma > 0 ? Math.max(0, Math.min(1, left / ma)) : 0;
  return `rgba(${Math.round(250 - 210 * share)},${Math.round(220 - 60 * share)},${Math.round(60 + 20 * share)},0.5)`;
}

export function frac(text) {
  if (text === null || text === undefined) return 0;
  const [a, b] = String(text).split("/");
  return b ? Number(a) / Number(b) : Number(a);
}

export class MapView {
  constructor(board, handlers) {
    this.board = board;
    this.h = handlers;
    this.centres = new Map(board.map.hexes.map(([id, x, y]) => [id, [x, y]]));
    this.polys = new Map();
    this.zoom = 1;
    this.view = document.getElementById("mapview");
    this.stage = document.getElementById("stage");
    this.zoomer = document.getElementById("zoomer");
    this.svg = document.getElementById("svg");
    const { width, height } = board.map;
    const img = document.getElementById("mapimg");
    img.src = "/map.png";
    img.width = width; img.height = height;
    this.svg.setAttribute("width", width);
    this.svg.setAttribute("height", height);
    this.svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    this.svg.innerHTML = "";
    const defs = el("defs", {}, this.svg);
    const hatch = el("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    el("rect", { width: 8, height: 8, fill: "rgba(240,200,60,.35)" }, hatch);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "rgba(60,60,60,.55)", "stroke-width": 3 }, hatch);
    const zoc = el("pattern", { id: "zochatch", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" }, defs);
    el("rect", { width: 10, height: 10, fill: "rgba(200,16,46,.10)" }, zoc);
    el("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "rgba(200,16,46,.6)", "stroke-width": 2.5 }, zoc);
    this.layers = {};
    for (const name of ["grid", "overlay", "labels", "paths", "counters", "marks", "hover"]) {
      this.layers[name] = el("g", { id: `layer-${name}` }, this.svg);
    }
    this.layers.overlay.classList.add("ov");
    this.layers.labels.classList.add("ov");
    for (const [id] of board.map.hexes) {
      const p = el("polygon", { points: this.points(id), class: "hex", "data-hex": id }, this.layers.grid);
      this.polys.set(id, p);
    }
    this.hoverPoly = el("polygon", { class: "hoverhex", points: "" }, this.layers.hover);
    this.shaded = [];
    this.overlays = {};
    this.setZoom(1);
    this.bindPointer();
    this.bindOverview();
  }

  points(id, scale = 1) {
    const [cx, cy] = this.centres.get(id);
    const r = this.board.map.radius * scale;
    const start = this.board.map.flat ? 180 : 270;
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (start + 60 * i) * Math.PI / 180;
      pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  // -- zoom, scrolling, overview ------------------------------------------------------------

  setZoom(z, anchor = null) {
    const old = this.zoom;
    z = Math.max(0.25, Math.min(3, z));
    const v = this.view;
    const ax = anchor ? anchor[0] : v.clientWidth / 2, ay = anchor ? anchor[1] : v.clientHeight / 2;
    const mx = (v.scrollLeft + ax) / old, my = (v.scrollTop + ay) / old;
    this.zoom = z;
    this.zoomer.style.transform = `scale(${z})`;
    this.stage.style.width = `${this.board.map.width * z}px`;
    this.stage.style.height = `${this.board.map.height * z}px`;
    v.scrollLeft = mx * z - ax;
    v.scrollTop = my * z - ay;
    document.getElementById("zoom-level").textContent = `${Math.round(z * 100)}%`;
    this.updateViewRect();
  }

  centreOn(id) {
    const [x, y] = this.centres.get(id);
    this.view.scrollLeft = x * this.zoom - this.view.clientWidth / 2;
    this.view.scrollTop = y * this.zoom - this.view.clientHeight / 2;
  }

  bindOverview() {
    const box = document.getElementById("overview");
    document.getElementById("overview-img").src = "/map.png";
    this.viewRect = document.getElementById("viewrect");
    this.view.addEventListener("scroll", () => this.updateViewRect());
    window.addEventListener("resize", () => this.updateViewRect());
    const go = (e) => {
      const r = box.getBoundingClientRect();
      const fx = (e.clientX - r.left) / r.width, fy = (e.clientY - r.top) / r.height;
      this.view.scrollLeft = fx * this.board.map.width * this.zoom - this.view.clientWidth / 2;
      this.view.scrollTop = fy * this.board.map.height * this.zoom - this.view.clientHeight / 2;
    };
    let down = false;
    box.addEventListener("pointerdown", (e) => { down = true; box.setPointerCapture(e.pointerId); go(e); });
    box.addEventListener("pointermove", (e) => { if (down) go(e); });
    box.addEventListener("pointerup", () => { down = false; });
    document.getElementById("zoom-in").onclick = () => this.setZoom(this.zoom * 1.25);
    document.getElementById("zoom-out").onclick = () => this.setZoom(this.zoom / 1.25);
    this.view.addEventListener("wheel", (e) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      const r = this.view.getBoundingClientRect();
      this.setZoom(this.zoom * (e.deltaY < 0 ? 1.15 : 1 / 1.15), [e.clientX - r.left, e.clientY - r.top]);
    }, { passive: false });
  }

  updateViewRect() {
    if (!this.viewRect) return;
    const W = this.board.map.width * this.zoom, H = this.board.map.height * this.zoom;
    const v = this.view;
    const s = (a, b) => `${Math.max(0, Math.min(100, (a / b) * 100))}%`;
    Object.assign(this.viewRect.style, {
      left: s(v.scrollLeft, W), top: s(v.scrollTop, H),
      width: s(Math.min(v.clientWidth, W), W), height: s(Math.min(v.clientHeight, H), H),
    });
  }

  // -- pointer: click, hover, drag and drop -------------------------------------------------

  hexAt(e) {
    const node = document.elementFromPoint(e.clientX, e.clientY);
    const owner = node && node.closest ? node.closest("[data-hex]") : null;
    return owner ? owner.getAttribute("data-hex") : null;
  }

  toMap(e) {
    const r = this.svg.getBoundingClientRect();
    return [(e.clientX - r.left) / this.zoom, (e.clientY - r.top) / this.zoom];
  }

  bindPointer() {
    let press = null;
    this.svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      const c = e.target.closest(".counter");
      press = { x: e.clientX, y: e.clientY, unit: c ? c.getAttribute("data-unit") : null, hex: this.hexAt(e), drag: false };
    });
    window.addEventListener("pointermove", (e) => {
      if (press && press.unit && !press.drag && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 6) {
        press.drag = true;
        this.h.onDragStart(press.unit, press.hex);
        this.ghost = el("image", { href: this.counterHref(press.unit), width: this.board.map.counter, height: this.board.map.counter, opacity: 0.75, "pointer-events": "none" }, this.layers.hover);
      }
      if (press && press.drag && this.ghost) {
        const [x, y] = this.toMap(e);
        const s = this.board.map.counter;
        this.ghost.setAttribute("x", x - s / 2);
        this.ghost.setAttribute("y", y - s / 2);
      }
      if (e.target === this.svg || this.svg.contains(e.target)) {
        const hex = this.hexAt(e);
        if (hex !== this.hovered) {
          this.hovered = hex;
          this.hoverPoly.setAttribute("points", hex ? this.points(hex) : "");
          this.h.onHover(hex, e);
        } else if (hex) this.h.onHoverMove(e);
      }
    });
    window.addEventListener("pointerup", (e) => {
      if (!press) return;
      const p = press;
      press = null;
      if (this.ghost) { this.ghost.remove(); this.ghost = null; }
      const hex = this.hexAt(e);
      if (p.drag) { if (hex) this.h.onDrop(hex); return; }
      if (hex && (e.target === this.svg || this.svg.contains(e.target))) this.h.onClick(hex, p.unit, e);
    });
    this.svg.addEventListener("pointerleave", () => { this.hovered = null; this.hoverPoly.setAttribute("points", ""); this.h.onHover(null); });
  }

  // -- counters -----------------------------------------------------------------------------

  counterHref(unitId) {
    const u = this.units.get(unitId);
    return `/counter/${encodeURIComponent(u.counter)}.png?px=${this.board.map.counter * 2}${u.reduced ? "&face=back" : ""}`;
  }

  drawUnits(units, selected) {
    this.occupied = new Set(units.filter((u) => u.hex).map((u) => u.hex));
    this.units = new Map(units.map((u) => [u.id, u]));
    const layer = this.layers.counters;
    layer.innerHTML = "";
    const stacks = new Map();
    for (const u of units) if (u.hex) (stacks.get(u.hex) || stacks.set(u.hex, []).get(u.hex)).push(u);
    const s = this.board.map.counter;
    const step = Math.max(3, s * 0.07);
    this.stacks = stacks;
    for (const [hex, list] of stacks) {
      const [cx, cy] = this.centres.get(hex);
      const order = this.stackOrder(hex, list);
      order.forEach((u, i) => {
        const off = (i - (order.length - 1)) * step;
        const g = el("g", { class: `counter${u.moved ? " moved" : ""}`, "data-unit": u.id, "data-hex": hex }, layer);
        const x = cx - s / 2 - off, y = cy - s / 2 - off;
        el("image", { href: this.counterHref(u.id), x, y, width: s, height: s }, g);
        el("title", {}, g).textContent = `${u.name} (${u.id})${u.moved ? ", moved" : ""}${u.status.length ? ", " + u.status.join(", ") : ""}`;
        if (u.status.length) this.statusTag(g, u.status, x, y, s);
        g.dataset.box = `${x - 2},${y - 2}`;
      });
      if (order.length > 1) {
        const t = el("text", { class: "mplabel", x: cx + s / 2 - 2, y: cy - s / 2 - step * (order.length - 1) - 2, style: "font-size:12px" }, layer);
        t.textContent = order.length;
      }
    }
    this.highlight(selected);
  }

  // A band across the counter's foot naming its statuses ("Fired", "Flown"), as a marker on a
  // printed counter would: the statuses decide what the unit may still do this turn.
  statusTag(g, statuses, x, y, s) {
    const tag = el("g", { class: "status", transform: `translate(${x},${y})` }, g);
    const h = Math.max(9, s * 0.26);
    el("rect", { x: 0, y: s - h, width: s, height: h }, tag);
    const t = el("text", { x: s / 2, y: s - h * 0.25, style: `font-size:${(h * 0.78).toFixed(1)}px` }, tag);
    t.textContent = statuses.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");
    t.setAttribute("textLength", Math.min(s - 2, t.textContent.length * h * 0.5));
    t.setAttribute("lengthAdjust", "spacingAndGlyphs");
  }

  // Outline the selected units' counters (without redrawing the others).
  highlight(selected) {
    for (const r of this.layers.counters.querySelectorAll("rect.sel")) r.remove();
    const s = this.board.map.counter;
    for (const id of selected) {
      const g = this.layers.counters.querySelector(`g.counter[data-unit="${CSS.escape(id)}"]`);
      if (!g) continue;
      const [x, y] = g.dataset.box.split(",").map(Number);
      el("rect", { class: "sel", x, y, width: s + 4, height: s + 4 }, g);
    }
  }

  // Redraw one hex's stack (its top unit changed).
  restack(hex) {
    const list = this.stacks && this.stacks.get(hex);
    if (!list) return;
    const nodes = [...this.layers.counters.querySelectorAll(`g.counter[data-hex="${CSS.escape(hex)}"]`)];
    const byUnit = new Map(nodes.map((g) => [g.getAttribute("data-unit"), g]));
    const s = this.board.map.counter;
    const step = Math.max(3, s * 0.07);
    const [cx, cy] = this.centres.get(hex);
    const order = this.stackOrder(hex, list);
    order.forEach((u, i) => {
      const g = byUnit.get(u.id);
      const off = (i - (order.length - 1)) * step;
      const x = cx - s / 2 - off, y = cy - s / 2 - off;
      const img = g.querySelector("image");
      img.setAttribute("x", x); img.setAttribute("y", y);
      const tag = g.querySelector("g.status");
      if (tag) tag.setAttribute("transform", `translate(${x},${y})`);
      g.dataset.box = `${x - 2},${y - 2}`;
      this.layers.counters.appendChild(g);   // in stack order, the top one last
    });
  }

  // The top unit of each stack is drawn last; a click brings the next one to the top.
  stackOrder(hex, list) {
    this.tops = this.tops || new Map();
    const top = this.tops.get(hex);
    const order = list.filter((u) => u.id !== top);
    const t = list.find((u) => u.id === top);
    if (t) order.push(t);
    return order;
  }

  // -- shading, paths, marks, overlays -------------------------------------------------------

  clearShade() {
    for (const p of this.shaded) { p.setAttribute("class", "hex"); p.style.fill = ""; }
    this.shaded = [];
    this.layers.labels.innerHTML = "";
  }

  shade(where, start) {
    this.clearShade();
    const ma = frac(where.ma);
    const blocked = !!where.blocked;
    for (const h of where.hexes) {
      const p = this.polys.get(h.hex);
      if (!p) continue;
      if (!h.can_end) p.setAttribute("class", "hex passonly");
      else {
        p.setAttribute("class", blocked ? "hex reach blocked" : "hex reach");
        p.style.fill = blocked ? "rgba(120,120,160,.35)" : mpColour(frac(h.mp_left), ma);
      }
      this.shaded.push(p);
    }
    if (start && this.polys.get(start)) {
      const p = this.polys.get(start);
      p.setAttribute("class", "hex start");
      this.shaded.push(p);
    }
    if (where.hexes.length <= 400 && this.zoom >= 0.5) {
      for (const h of where.hexes) {
        if (this.occupied && this.occupied.has(h.hex)) continue;   // the counter's values stay readable
        const [x, y] = this.centres.get(h.hex);
        const t = el("text", { class: "mplabel", x, y: y + this.board.map.size * 0.3 }, this.layers.labels);
        t.textContent = h.mp_left;
      }
    }
  }

  path(hexes, bad = false) {
    this.layers.paths.innerHTML = "";
    if (!hexes || hexes.length < 2) return;
    const pts = hexes.map((h) => this.centres.get(h)).filter(Boolean).map(([x, y]) => `${x},${y}`).join(" ");
    el("polyline", { points: pts, class: bad ? "pathline bad" : "pathline" }, this.layers.paths);
  }

  markX(hex) {
    this.layers.marks.innerHTML = "";
    if (!hex || !this.centres.get(hex)) return;
    const [x, y] = this.centres.get(hex);
    const r = this.board.map.size * 0.3;
    el("line", { x1: x - r, y1: y - r, x2: x + r, y2: y + r, class: "xmark" }, this.layers.marks);
    el("line", { x1: x - r, y1: y + r, x2: x + r, y2: y - r, class: "xmark" }, this.layers.marks);
  }

  clearMarks() { this.layers.marks.innerHTML = ""; }

  // spec: {hexes: {id: colour}, rings: {id: colour}, lines: [[ids], colour, dashed]}
  overlay(name, spec) {
    if (this.overlays[name]) this.overlays[name].remove();
    delete this.overlays[name];
    if (!spec) return;
    // spec.above: drawn over the counters (a path that must show through a stack)
    const g = el("g", { "data-overlay": name, "pointer-events": "none" }, spec.above ? this.layers.hover : this.layers.overlay);
    for (const [id, colour] of Object.entries(spec.hexes || {})) {
      if (this.centres.get(id)) el("polygon", { points: this.points(id, 0.97), fill: colour, stroke: "none" }, g);
    }
    for (const [id, colour] of Object.entries(spec.outlines || {})) {
      if (this.centres.get(id)) el("polygon", { points: this.points(id, 0.9), fill: "none", stroke: colour, "stroke-width": 3 }, g);
    }
    for (const [id, colour] of Object.entries(spec.rings || {})) {
      if (!this.centres.get(id)) continue;
      const [x, y] = this.centres.get(id);
      el("circle", { cx: x, cy: y, r: this.board.map.size * 0.47, fill: "none", stroke: colour, "stroke-width": 5 }, g);
    }
    for (const [ids, colour, dashed] of spec.lines || []) {
      const pts = ids.map((h) => this.centres.get(h)).filter(Boolean).map(([x, y]) => `${x},${y}`).join(" ");
      el("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": 4, "stroke-dasharray": dashed ? "7 5" : "none", "stroke-linecap": "round" }, g);
    }
    this.overlays[name] = g;
  }
}
