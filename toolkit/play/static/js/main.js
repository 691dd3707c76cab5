// hexforge play: the page. Selecting a unit asks the referee "Where" and shades the hexes;
// clicking or dropping on a hex asks it to move there; refusals show their reason and rule.

import { get, post } from "./api.js";
import { MapView, frac } from "./board.js";
import * as panels from "./panels.js";
import { CombatPanel } from "./combat.js";

const $ = (id) => document.getElementById(id);
const S = { board: null, pos: null, view: null, sel: [], selHex: null, where: null, reach: new Map(), los: null, hexCache: new Map() };
window.hexforge = S;   // for the browser test and the curious

async function start() {
  document.body.dataset.ready = "0";
  S.board = await get("/api/board");
  S.view = new MapView(S.board, { onClick, onHover, onHoverMove, onDragStart, onDrop });
  S.combat = new CombatPanel(S, refresh);
  $("game-name").textContent = S.board.game.name;
  document.title = `${S.board.game.name} - hexforge play`;
  for (const id of ["ov-zoc-side", "ov-supply-side", "ov-command-side"]) {
    $(id).innerHTML = S.board.sides.map((s) => `<option value="${s.id}">${panels.esc(s.name)}</option>`).join("");
  }
  $("mode").innerHTML = `<option value="">normal</option>` + S.board.modes.filter((m) => m !== "normal").map((m) => `<option>${panels.esc(m)}</option>`).join("");
  $("mode-row").hidden = S.board.modes.filter((m) => m !== "normal").length === 0;
  for (const id of ["ov-zoc-side", "ov-supply-side", "ov-command-side"]) $(id).value = S.pos ? S.pos.stage.side : $(id).value;
  await refresh();
  for (const id of ["ov-zoc-side", "ov-supply-side", "ov-command-side"]) $(id).value = S.pos.stage.side;   // the side to move
  const first = S.pos.units.find((u) => u.hex && u.side === S.pos.stage.side) || S.pos.units.find((u) => u.hex);
  if (first) S.view.centreOn(first.hex);
  document.body.dataset.ready = "1";
}

function stageSide() { return S.board.sides.find((s) => s.id === S.pos.stage.side); }

async function refresh(position = null) {
  S.pos = position || (await get("/api/position")).position;
  S.hexCache.clear();
  const st = S.pos.stage;
  $("turn").textContent = st.turn;
  const turn = S.board.turns.find((t) => t.number === st.turn);
  $("date").textContent = turn && turn.date ? `(${turn.date})` : "";
  const side = stageSide();
  $("side").textContent = side ? side.name : (st.side || "-");
  $("side-chip").style.background = side ? side.colour : "transparent";
  $("phase").textContent = st.phase;
  $("weather").textContent = S.pos.weather;
  $("btn-undo").disabled = !S.pos.can_undo || S.pos.pending > 0;
  $("btn-step").hidden = $("btn-finish").hidden = !S.pos.pending;
  $("btn-phase").disabled = S.pos.pending > 0;
  panels.drawLog(S.pos.events, S.pos.pending);
  panels.drawTrack(S.board, st, S.board.arrivals || {});
  panels.drawBoxes(S.board, S.pos.units, S.board.map.counter * 2);
  const byId = new Map(S.pos.units.map((u) => [u.id, u]));
  if (S.sel.length && !S.sel.every((id) => byId.get(id) && byId.get(id).hex === S.selHex)) clearSelection();
  S.view.drawUnits(S.pos.units, S.sel);
  const last = S.pos.events.at(-1);       // the last move drawn, so a replay shows each one
  S.view.overlay("last", last && ["move", "retreat", "advance"].includes(last.type) && last.path.length > 1
    ? { lines: [[last.path, "rgba(31,95,208,.8)", true]], above: true } : null);
  if (S.sel.length) await select(S.sel);
  S.combat.show();
  if (S.combat.active() && !S.sel.length) $("selection").textContent = "Combat: click your units to attack with, then the enemy hex; the panel below gives the odds.";
  if (S.combat.active()) S.view.highlight(S.combat.attackers);
  await refreshOverlays();
}

// -- selection and "Where" ---------------------------------------------------------------------

function clearSelection() {
  S.sel = []; S.selHex = null; S.where = null; S.reach = new Map();
  S.view.clearShade(); S.view.path(null); S.view.highlight([]);
  $("mp").textContent = "no unit selected";
  $("selection").innerHTML = "Click a counter to select it. Click it again to pick the next unit of its stack.";
}

async function select(ids) {
  const t0 = performance.now();
  const units = ids.map((id) => S.pos.units.find((u) => u.id === id)).filter(Boolean);
  if (!units.length) { clearSelection(); return; }
  S.sel = units.map((u) => u.id);
  S.selHex = units[0].hex;
  const where = await get("/api/where", { units: S.sel.join(","), mode: $("mode").value });
  const t1 = performance.now();
  if (S.sel.join(",") !== where.units.join(",")) return;   // a newer selection won
  S.where = where;
  S.reach = new Map(where.hexes.map((h) => [h.hex, h]));
  S.view.shade(where, S.selHex);
  S.view.highlight(S.sel);
  drawSelection();
  await new Promise((ok) => requestAnimationFrame(ok));   // the shading is on screen at the next frame
  S.whereMs = performance.now() - t0;
  S.whereAskMs = t1 - t0;     // of which the question to the referee, there and back
  document.body.dataset.whereMs = S.whereMs.toFixed(1);
  document.body.dataset.whereCount = String(where.hexes.length);
}

function drawSelection() {
  const w = S.where;
  const names = S.sel.join(" + ");
  let mp = `${names}: MA ${w.ma}, ${w.count} hexes`;
  if (w.refused) mp = `${names} cannot move: ${w.refused.text}`;
  else if (w.blocked) mp += ` (not now: ${w.blocked.text})`;
  $("mp").textContent = mp;
  const here = S.pos.units.filter((u) => u.hex === S.selHex);
  const rows = here.map((u) => `<label class="unitrow${u.moved ? " moved" : ""}"><input type="checkbox" data-unit="${u.id}" ${S.sel.includes(u.id) ? "checked" : ""}>`
    + `<img src="/counter/${encodeURIComponent(u.counter)}.png?px=${S.board.map.counter * 2}${u.reduced ? "&face=back" : ""}" alt="">`
    + `<span>${panels.esc(u.name)} <span class="note">${u.id}, ${u.side}, MA ${u.ma}${u.steps < u.full ? `, ${u.steps}/${u.full} steps` : ""}${u.moved ? ", moved" : ""}${u.status.length ? ", " + u.status.join(", ") : ""}</span></span></label>`);
  let note = "";
  if (w.refused) note = `<div>${panels.reasonHtml(w.refused)}</div>`;
  else if (w.blocked) note = `<div class="note">${panels.reasonHtml(w.blocked)}</div>`;
  $("selection").innerHTML = `<div class="note">Hex ${S.selHex}. Tick units to move them together.</div>${rows.join("")}${note}`;
  for (const box of $("selection").querySelectorAll("input[data-unit]")) {
    box.onchange = () => {
      const ids = [...$("selection").querySelectorAll("input[data-unit]:checked")].map((b) => b.getAttribute("data-unit"));
      if (ids.length) select(ids); else clearSelection();
    };
  }
}

// -- pointer -------------------------------------------------------------------------------------

async function onClick(hex, unit) {
  if ($("ov-los").checked) { await losClick(hex); return; }
  if (S.combat.active()) { await S.combat.click(hex, unit); return; }
  if (S.sel.length && hex !== S.selHex && (S.reach.has(hex) || !(S.view.stacks && S.view.stacks.get(hex)))) {
    await moveTo(hex);
    return;
  }
  const stack = (S.view.stacks && S.view.stacks.get(hex)) || [];
  if (!stack.length) { clearSelection(); return; }
  let pick = unit || S.view.stackOrder(hex, stack).at(-1).id;
  if (unit && S.sel.length === 1 && S.sel[0] === unit && stack.length > 1) {
    const order = S.view.stackOrder(hex, stack);        // bring the next unit of the stack up
    pick = order[(order.length - 2 + order.length) % order.length].id;
  }
  S.view.tops.set(hex, pick);
  S.view.restack(hex);
  panels.showMessage("", "");
  S.view.clearMarks();
  await select([pick]);
}

function onDragStart(unit, hex) {
  if (!S.sel.includes(unit)) { S.view.tops.set(hex, unit); S.view.restack(hex); select([unit]); }
}

async function onDrop(hex) {
  if (hex !== S.selHex) await moveTo(hex);
}

async function moveTo(hex) {
  const units = S.sel.slice();
  try {
    const r = await post("/api/move", { units, to: hex, mode: $("mode").value || null });
    const e = r.event;
    panels.showMessage("ok", `Moved ${panels.esc(e.units.join(" + "))} to ${panels.esc(hex)}: ${panels.esc(e.spent)} MP spent, ${panels.esc(e.mp_left)} left.`);
    S.view.clearMarks();
    clearSelection();
    await refresh(r.position);
  } catch (err) {
    panels.showRefusal(err);
    const bad = err.refused && err.refused[0] && err.refused[0].hex;
    S.view.markX(bad || hex);
    document.body.dataset.lastRefusal = err.refused && err.refused[0] ? err.refused[0].code : "error";
  }
}

function onHover(hex) {
  const tip = $("tip");
  if (!hex) { tip.hidden = true; S.view.path(S.where ? null : null); return; }
  const h = S.reach.get(hex);
  if (S.sel.length && h) {
    S.view.path(h.path);
    tip.innerHTML = `${hex}: cost ${h.cost} MP, ${h.mp_left} MP left${h.stops ? " (the move ends here)" : ""}${h.can_end ? "" : "<br>may pass, not stop: " + panels.esc(h.why_not ? h.why_not.text : "stacking")}`;
    tip.hidden = false;
    $("mp").textContent = `${S.sel.join(" + ")}: MA ${S.where.ma}; to ${hex}: ${h.mp_left} MP left`;
  } else {
    S.view.path(null);
    tip.hidden = !S.sel.length || hex === S.selHex;
    tip.textContent = `${hex}: out of reach`;
  }
  clearTimeout(S.hexTimer);
  S.hexTimer = setTimeout(() => hexInfo(hex), 90);
}

function onHoverMove(e) {
  const tip = $("tip");
  tip.style.left = `${e.clientX + 14}px`;
  tip.style.top = `${e.clientY + 12}px`;
}

async function hexInfo(hex) {
  const key = `${hex}|${S.sel.join(",")}`;
  try {
    if (!S.hexCache.has(key)) S.hexCache.set(key, await get(`/api/hex/${encodeURIComponent(hex)}`, { units: S.sel.join(",") }));
    panels.drawHexInfo(S.hexCache.get(key));
  } catch (err) { panels.drawHexInfo(null); }
}

window.addEventListener("pointermove", (e) => { if (!$("tip").hidden) onHoverMove(e); });

// -- overlays ----------------------------------------------------------------------------------

async function refreshOverlays() {
  const notes = [];
  const v = S.view;
  if ($("ov-zoc").checked) {
    const z = await get("/api/overlay/zoc", { side: $("ov-zoc-side").value });
    v.overlay("zoc", { hexes: Object.fromEntries(z.hexes.map((h) => [h, "url(#zochatch)"])) });
    notes.push(`Enemy ZOC of ${z.side}: ${z.hexes.length} hexes${z.rule ? " (rule " + z.rule + ")" : ""}.`);
  } else v.overlay("zoc", null);
  if ($("ov-supply").checked) {
    const s = await get("/api/overlay/supply", { side: $("ov-supply-side").value });
    // the isolation map: hexes supply does not reach are tinted, the supply road is outlined
    const reached = new Set(s.reached);
    const hexes = Object.fromEntries(S.board.map.hexes.filter(([h]) => !reached.has(h)).map(([h]) => [h, "rgba(90,40,130,.33)"]));
    const outlines = Object.fromEntries(s.road.map((h) => [h, "rgba(20,120,40,.9)"]));
    const rings = {};
    for (const u of s.unsupplied) { const unit = S.pos.units.find((x) => x.id === u); if (unit && unit.hex) rings[unit.hex] = "#c8102e"; }
    v.overlay("supply", { hexes, outlines, rings });
    const why = s.unsupplied.map((u) => `${u}: ${s.status[u]}${s.reasons[u] ? " (" + s.reasons[u].text + ")" : ""}`);
    notes.push(`Supply of ${s.side}${s.rule ? " (rule " + s.rule + ")" : ""}: ${s.supplied.length} supplied, ${s.unsupplied.length} not${why.length ? ": " + why.join("; ") : ""}. Purple: hexes supply does not reach (isolated); green outline: the supply road; red rings: unsupplied units.`);
  } else v.overlay("supply", null);
  if ($("ov-command").checked) {
    const c = await get("/api/overlay/command", { side: $("ov-command-side").value });
    const side = S.board.sides.find((s) => s.id === c.side);
    const outlines = {}, rings = {};
    for (const hq of c.hqs) {
      for (const h of hq.hexes) outlines[h] = side ? side.colour : "#1f5fd0";
      rings[hq.hex] = "#1f5fd0";
    }
    v.overlay("command", { outlines, rings });
    notes.push(`Command of ${c.side}: ` + (c.hqs.map((h) => `${h.hq} (${h.radius ?? "?"} hexes): ${h.units.length} units in range`).join("; ") || "no HQ on the map") + ".");
  } else v.overlay("command", null);
  if ($("ov-los").checked && S.los && S.los.result) {
    const r = S.los.result;
    v.overlay("los", { lines: [[[r.from, r.to], r.visible ? "#0f8f4f" : "#c8102e", !r.visible]], rings: r.blocked_by ? { [r.blocked_by]: "#c8102e" } : {} });
    notes.push(r.visible ? `Line of sight ${r.from} → ${r.to}: clear.` : `Line of sight ${r.from} → ${r.to}: ${r.reason.text}${r.reason.rule ? " [rule " + r.reason.rule + "]" : ""}.`);
  } else if ($("ov-los").checked) {
    v.overlay("los", S.los && S.los.from ? { outlines: { [S.los.from]: "#0f8f4f" } } : null);
    notes.push(S.los && S.los.from ? `From ${S.los.from}: click the target hex.` : "Click the hex to look from.");
  } else v.overlay("los", null);
  $("overlay-note").textContent = notes.join(" ");
}

async function losClick(hex) {
  if (!S.los || S.los.result || !S.los.from) S.los = { from: hex };
  else S.los.result = await get("/api/overlay/los", { from: S.los.from, to: hex });
  await refreshOverlays();
}

for (const id of ["ov-zoc", "ov-supply", "ov-command", "ov-los", "ov-zoc-side", "ov-supply-side", "ov-command-side"]) {
  $(id).addEventListener("change", () => { if (id === "ov-los") S.los = null; refreshOverlays().catch(panels.showRefusal); });
}

// -- buttons -------------------------------------------------------------------------------------

async function act(path, okText) {
  try {
    const r = await post(path);
    panels.showMessage("ok", okText(r.event));
    S.view.clearMarks();
    await refresh(r.position);
  } catch (err) { panels.showRefusal(err); }
}

$("btn-undo").onclick = () => act("/api/undo", (e) => `Undone: ${panels.esc(panels.eventText(e))}`);
$("btn-phase").onclick = () => act("/api/phase", (e) => `Now ${panels.esc(panels.eventText(e))}`);
$("btn-step").onclick = () => act("/api/replay/step", (e) => (e ? `Replayed: ${panels.esc(panels.eventText(e))}` : "Replay finished"));
$("btn-finish").onclick = () => act("/api/replay/finish", () => "Replay finished");
$("mode").onchange = () => { if (S.sel.length) select(S.sel); };

async function loadFile(input, replay) {
  const file = input.files[0];
  input.value = "";
  if (!file) return;
  try {
    const data = JSON.parse(await file.text());
    await post("/api/load", data, { name: file.name, replay: replay ? "1" : "0" });
    clearSelection();
    S.view.tops = new Map();
    await start();
    panels.showMessage("ok", `Loaded ${panels.esc(file.name)}${replay ? ": step through its events with Step" : ""}.`);
  } catch (err) { panels.showRefusal(err); }
}
async function importVsav(input) {
  const file = input.files[0];
  input.value = "";
  if (!file) return;
  try {
    const answer = await fetch(`/api/import.vsav?name=${encodeURIComponent(file.name)}`, {
      method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: await file.arrayBuffer(),
    });
    const body = await answer.json();
    if (!answer.ok) throw Object.assign(new Error(body.error || answer.statusText), { refused: body.refused });
    clearSelection();
    S.view.tops = new Map();
    await start();
    const notes = (body.warnings || []).map(panels.esc).join("<br>");
    panels.showMessage("ok", `Started from ${panels.esc(file.name)}.${notes ? "<br>" + notes : ""}`);
  } catch (err) { panels.showRefusal(err); }
}
$("btn-vsav").onclick = async () => {
  panels.showMessage("ok", "Writing the VASSAL saved game (the first time, the module is built: a few seconds)...");
  try {
    const answer = await fetch("/api/export.vsav");
    if (!answer.ok) throw new Error((await answer.json()).error || answer.statusText);
    const name = (answer.headers.get("content-disposition") || "").match(/filename="([^"]+)"/);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await answer.blob());
    link.download = name ? name[1] : "position.vsav";
    link.click();
    panels.showMessage("ok", `Wrote ${panels.esc(link.download)}: open it in VASSAL with the game's module.`);
  } catch (err) { panels.showRefusal(err); }
};
$("file-vsav").onchange = (e) => importVsav(e.target);
$("file-load").onchange = (e) => loadFile(e.target, false);
$("file-replay").onchange = (e) => loadFile(e.target, true);

window.addEventListener("keydown", (e) => {
  if (e.key === "Escape") { clearSelection(); S.view.highlight([]); }
  if ((e.ctrlKey || e.metaKey) && e.key === "z" && !$("btn-undo").disabled) { e.preventDefault(); $("btn-undo").click(); }
});

S.select = select; S.moveTo = moveTo; S.refresh = refresh; S.frac = frac;
start().catch((err) => { panels.showRefusal(err); document.body.dataset.ready = "error"; });
