// The side panels: message (refusals with their rule), selection, hex info, turn track,
// off-map boxes and the event log.

const $ = (id) => document.getElementById(id);

export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export function reasonHtml(r) {
  const rule = r.rule ? ` <span class="rule">[rule ${esc(r.rule)}]</span>` : "";
  const where = r.hex ? ` (hex ${esc(r.hex)})` : "";
  return `${esc(r.text)}${where}${rule} <span class="note">${esc(r.code)}</span>`;
}

export function showMessage(kind, html) {
  const m = $("message");
  m.hidden = !html;
  m.className = `panel ${kind}`;
  m.innerHTML = html || "";
}

export function showRefusal(err) {
  if (err.refused && err.refused.length) {
    showMessage("refused", `<b>Refused.</b> ${err.refused.map(reasonHtml).join("<br>")}`);
  } else {
    showMessage("refused", `<b>Error.</b> ${esc(err.message)}`);
  }
}

export function eventText(e) {
  switch (e.type) {
    case "move": return `${e.side}: ${e.units.join("+")} ${e.path[0]} → ${e.path[e.path.length - 1]} (${e.spent} MP${e.mode ? ", " + e.mode : ""})`;
    case "phase": {
      let t = `Turn ${e.to.turn}: ${e.to.side || ""} ${e.to.phase}`;
      if (e.arrived && e.arrived.length) t += `; arrived ${e.arrived.join(", ")}`;
      for (const [side, s] of Object.entries(e.supply || {})) {
        t += `; supply ${side}: ${s.unsupplied.length ? s.unsupplied.map((u) => `${u} ${s.status[u]}`).join(", ") : "all supplied"}`;
      }
      return t;
    }
    case "loss": return `${e.unit} loses ${e.steps} step(s)${e.eliminated ? " and is eliminated" : ""}`;
    case "retreat": return e.eliminated ? `${e.units.join(", ")}: no retreat, eliminated` : e.box ? `${e.units.join(", ")} retreat from ${e.path[0]} into the ${e.box} box` : `${e.units.join(", ")} retreat ${e.path.join(" → ")}${e.losses ? ` (${e.losses} step in ZOC)` : ""}`;
    case "advance": return `${e.units.join(", ")} advance ${e.path.join(" → ")}`;
    case "combat": {
      const special = Object.entries(e.special || {}).map(([role, kind]) => `; ${role}'s special result: ${kind}`).join("");
      return `${e.attackers.join("+")} attack ${e.defender}: ${e.odds} → ${e.column}, rolled ${Object.values(e.dice || {}).join("/")}: ${e.result}${special}`;
    }
    default: return JSON.stringify(e);
  }
}

export function drawLog(events, pending) {
  const log = $("log");
  log.innerHTML = events.map((e) => `<li class="${e.type}">${esc(eventText(e))}</li>`).join("")
    + (pending ? `<li class="note">${pending} event(s) still to replay</li>` : "");
  log.scrollTop = log.scrollHeight;
}

export function drawTrack(board, stage, arrivals) {
  const turns = board.turns.length ? board.turns : [{ number: stage.turn }];
  $("track").innerHTML = turns.map((t) => {
    const list = arrivals[t.number] ? arrivals[t.number].split(", ") : [];
    const arr = list.length ? `<div class="arr" title="arrive: ${esc(list.join(", "))}">+${list.length}</div>` : "";
    return `<div class="turn${t.number === stage.turn ? " now" : ""}" title="${esc(t.date || "")}"><b>${t.number}</b><div>${esc(t.weather || "")}</div>${arr}</div>`;
  }).join("");
}

export function drawBoxes(board, units, counterPx) {
  const img = (u) => `<img src="/counter/${encodeURIComponent(u.counter)}.png?px=${counterPx}${u.reduced ? "&face=back" : ""}" title="${esc(u.name)} (${esc(u.id)})" alt="${esc(u.id)}">`;
  const html = [];
  for (const b of board.boxes) {
    const inside = units.filter((u) => u.box === b.id);
    html.push(`<div class="box"><h4>${esc(b.name)} (${inside.length})</h4>${inside.map(img).join("")}</div>`);
  }
  const dead = units.filter((u) => u.eliminated);
  html.push(`<div class="box"><h4>Eliminated (${dead.length})</h4>${dead.map(img).join("")}</div>`);
  $("boxes").innerHTML = html.join("");
}

export function drawHexInfo(info) {
  if (!info) { $("hexinfo").textContent = "Hover a hex."; return; }
  const rows = [];
  const cost = (c) => (c === "prohibited" ? "<b>prohibited</b>" : c === null ? "no cost of its own" : `${esc(c)} MP`);
  if (info.place) rows.push(["Place", `${esc(info.place.name)} (${esc(info.place.kind)})`]);
  if (info.terrain) rows.push(["Terrain", `${esc(info.terrain.name)}: ${cost(info.terrain.cost)}${info.terrain.combat ? "; combat " + esc(info.terrain.combat) : ""}`]);
  for (const f of info.features) rows.push(["Feature", `${esc(f.name)}: ${cost(f.cost)}`]);
  for (const l of info.lines) rows.push(["Line", `${esc(l.name)}: ${cost(l.cost)} per hex along it`]);
  for (const s of info.hexsides) rows.push([`Side ${esc(s.direction)}`, s.features.map((f) => `${esc(f.name)} ${f.cost === null ? "no extra cost" : "+" + cost(f.cost)}`).join(", ") + (s.to ? ` (to ${esc(s.to)})` : "")]);
  for (const v of info.victory) rows.push(["Victory", `${v.points ?? "?"} VP${v.side ? " (" + esc(v.side) + ")" : ""}`]);
  if (info.enemy_zoc) rows.push(["Enemy ZOC", `${info.enemy_zoc} unit(s)`]);
  if (info.units.length) rows.push(["Units", esc(info.units.join(", "))]);
  $("hexinfo").innerHTML = `<b>${esc(info.hex)}</b> <span class="note">costs for class ${esc(info.class)}, ${esc(info.weather)}</span>`
    + `<table class="info">${rows.map(([k, v]) => `<tr><td>${k}</td><td>${v}</td></tr>`).join("")}</table>`;
}
