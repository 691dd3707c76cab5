// The combat panel: in a combat phase, click the phasing side's units to pick the attackers,
// then an enemy hex: the referee gives the odds, each shift with its rule, and the
// distribution of results; Roll resolves it with the game's seeded dice.

import { get, post } from "./api.js";
import { esc, reasonHtml, showRefusal, showMessage } from "./panels.js";

const $ = (id) => document.getElementById(id);
// A side's result as words (the referee sends a sentence or the fields).
function describe(r) {
  if (typeof r === "string") return r;
  if (!r) return "";
  const out = [];
  if (r.eliminated) out.push("eliminated");
  if (r.exchange) out.push("exchange");
  if (r.steps) out.push(`loses ${r.steps} step${r.steps > 1 ? "s" : ""}`);
  if (r.retreat && r.retreat.length) out.push(`retreats ${r.retreat.join(" or ")}`);
  if (r.requirements) out.push(`${r.requirements} step(s) or hexes of retreat`);
  return out.join(", ") || "no effect";
}

const pct = (f) => { const [a, b] = String(f).split("/"); return ((Number(a) / Number(b || 1)) * 100).toFixed(1); };

export class CombatPanel {
  constructor(S, refresh) {
    this.S = S;
    this.refresh = refresh;
    this.attackers = [];
    this.defender = null;
    this.assessment = null;
    this.rolled = null;
    this.choice = null;   // a special result waiting for its owner's choice (roll's 409 "choice")
  }

  // Clicks on the map pick an attack: in a combat phase, or in a phase where units both move
  // and fight (activation games) once the player ticks "pick an attack".
  active() {
    const p = this.S.pos;
    return this.S.board.combat && p.combat && (!p.movement || this.attackMode);
  }

  after() { return this.S.pos.after_combat; }

  show() {
    const after = this.after();
    const due = after && (after.retreats.length || after.advance);
    $("combat-panel").hidden = !(this.S.board.combat && this.S.pos.combat) && !this.rolled && !due;
    const ends = {};
    for (const r of (after && after.retreats) || []) for (const h of Object.keys(r.ends)) ends[h] = "#c8102e";
    for (const g of ((after && after.advance) || { groups: [] }).groups) for (const h of g.to) ends[h] = "#1f5fd0";
    this.S.view.overlay("after", Object.keys(ends).length ? { outlines: ends } : null);
    if (!this.S.pos.combat) this.attackMode = false;
    if (!this.active()) { this.attackers = []; this.defender = null; this.assessment = null; }
    this.draw();
  }

  // A click on the map in a combat phase: own units join or leave the attack, an enemy hex is the target.
  async click(hex, unitId) {
    const S = this.S;
    const here = S.pos.units.filter((u) => u.hex === hex && !u.marker);
    const own = here.filter((u) => u.side === S.pos.stage.side);
    if (unitId && own.some((u) => u.id === unitId)) {
      this.attackers = this.attackers.includes(unitId) ? this.attackers.filter((a) => a !== unitId) : [...this.attackers, unitId];
      this.rolled = null;
      S.view.highlight(this.attackers);
    } else if (here.length && !own.length) {
      this.defender = hex;
      this.rolled = null;
    } else return;
    await this.assess();
  }

  // The supports the player ticked or counted (kind, side, points, unit, via).
  supports() {
    const out = [];
    for (const box of $("combat").querySelectorAll("input[data-support-unit]:checked")) {
      out.push({ kind: box.dataset.kind, side: box.dataset.side, points: 1, unit: box.dataset.supportUnit });
    }
    for (const n of $("combat").querySelectorAll("input[data-support-points]")) {
      const points = Number(n.value);
      if (points > 0) {
        const via = $("combat").querySelector(`select[data-via="${n.dataset.kind}-${n.dataset.side}"]`);
        out.push({ kind: n.dataset.kind, side: n.dataset.side, points, via: via && via.value ? via.value : null });
      }
    }
    return out;
  }

  supportsHtml() {
    const S = this.S;
    const kinds = S.board.supports || [];
    if (!kinds.length || !this.defender) return "";
    const mine = S.pos.stage.side;
    const theirs = (S.pos.units.find((u) => u.hex === this.defender && !u.marker) || {}).side;
    const keep = this.kept || [];
    const ticked = (k, side, unit) => keep.some((x) => x.kind === k && x.side === side && x.unit === unit);
    const rows = [];
    for (const k of kinds) {
      for (const role of k.sides) {
        const owner = role === "attacker" ? mine : theirs;
        const label = `${esc(k.kind)} for the ${role}${k.rule ? ` <span class="rule">[rule ${esc(k.rule)}]</span>` : ""}`;
        if (k.unit_types.length) {
          const units = S.pos.units.filter((u) => (u.hex || (k.off_map && u.box)) && u.side === owner && k.unit_types.includes(u.type) && !(k.spent && u.status.includes(k.spent)));
          if (!units.length) continue;
          rows.push(`<div>${label}: ${units.map((u) => `<label><input type="checkbox" data-support-unit="${esc(u.id)}" data-kind="${esc(k.kind)}" data-side="${role}" ${ticked(k.kind, role, u.id) ? "checked" : ""}> ${esc(u.id)}</label>`).join(" ")}</div>`);
        } else {
          const old = keep.find((x) => x.kind === k.kind && x.side === role && !x.unit);
          const hqs = S.pos.units.filter((u) => u.hex && u.side === owner && u.type === "hq");
          const via = hqs.length ? ` via <select data-via="${esc(k.kind)}-${role}"><option value="">-</option>${hqs.map((u) => `<option ${old && old.via === u.id ? "selected" : ""}>${esc(u.id)}</option>`).join("")}</select>` : "";
          rows.push(`<div>${label}: <input type="number" min="0" max="${k.max_points ?? 9}" value="${old ? old.points : 0}" data-support-points="1" data-kind="${esc(k.kind)}" data-side="${role}" style="width:3.5em">${via}</div>`);
        }
      }
    }
    return rows.length ? `<div class="supports"><b>Supports</b>${rows.join("")}</div>` : "";
  }

  async assess() {
    this.choice = null;
    delete document.body.dataset.specialChoice;
    this.kept = $("combat").querySelector(".supports") ? this.supports() : (this.kept || []);
    this.assessment = null;
    this.S.view.overlay("target", this.defender ? { rings: { [this.defender]: "#c8102e" } } : null);
    if (this.attackers.length && this.defender) {
      try {
        this.assessment = await get("/api/combat/assess", { attackers: this.attackers.join(","), defender: this.defender, supports: JSON.stringify(this.kept) });
      } catch (err) { showRefusal(err); }
    }
    this.draw();
    // how many assessments have been drawn (the browser test waits on it before the next click)
    document.body.dataset.assessed = String(Number(document.body.dataset.assessed || 0) + 1);
  }

  // Roll; a special result that leaves its owner a choice (Demyansk 12.23) comes back as a
  // refusal carrying the choice: the panel asks it and rolls again with the answer (the same
  // seed rolls the same dice, and nothing is recorded until the choice is made).
  async roll(special = null) {
    const body = { attackers: this.attackers, defender: this.defender, supports: this.kept || [] };
    if (special) body.special = special;
    try {
      const r = await post("/api/combat/roll", body);
      this.choice = null;
      delete document.body.dataset.specialChoice;
      this.rolled = r.event;
      showMessage("ok", `${esc(r.event.log || "")}${(r.event.supports_spent || []).map((t) => `<br>${esc(t)}`).join("")}`);
      this.attackers = []; this.defender = null; this.assessment = null; this.kept = [];
      this.S.view.highlight([]);
      this.S.view.overlay("target", null);
      await this.refresh(r.position);
    } catch (err) {
      if (err.body && err.body.choice) {
        this.choice = { ...err.body.choice, picked: { ...(special || {}) } };
        document.body.dataset.specialChoice = Object.keys(this.choice.roles).join(",");
        showMessage("ask", `<b>Special result ${esc(this.choice.result)}</b>: choose its effect in the combat panel${this.choice.rule ? ` <span class="rule">[rule ${esc(this.choice.rule)}]</span>` : ""}.`);
        this.draw();
        const box = $("combat").querySelector(".choice");
        if (box) box.scrollIntoView({ block: "nearest" });
      } else showRefusal(err);
    }
  }

  // The owner's answer to a special result: once every role asked has picked, roll with it.
  pick(role, kind) {
    this.choice.picked[role] = kind;
    if (Object.keys(this.choice.roles).every((r) => this.choice.picked[r])) this.roll(this.choice.picked);
    else this.draw();
  }

  choiceHtml() {
    const c = this.choice;
    const dice = Object.entries(c.dice || {}).map(([k, v]) => (k === "crt" ? `${v}` : `${k} ${v}`)).join(", ");
    const rule = (r) => (r ? ` <span class="rule">[rule ${esc(r)}]</span>` : "");
    const rows = Object.entries(c.roles).map(([role, ask]) => {
      const buttons = ask.options.map((o) => {
        const label = o.text.charAt(0).toUpperCase() + o.text.slice(1);
        const on = c.picked[role] === o.kind ? " class=\"picked\"" : "";
        return `<button data-special-role="${esc(role)}" data-kind="${esc(o.kind)}"${on}>${esc(label)}: ${esc(o.units.join(", "))}${rule(o.rule)}</button>`;
      });
      return `<div>The ${esc(role)}${ask.side ? ` (${esc(ask.side)})` : ""} chooses which effect takes place:</div><div class="options">${buttons.join("<br>")}</div>`;
    });
    return `<div class="choice"><div class="rolled">Rolled ${esc(dice)} on ${esc(c.column)}: <b>${esc(c.result)}</b> <span class="note">(seed ${c.seed})</span></div>`
      + `<div><b>Special result</b>${rule(c.rule)}</div>${rows.join("")}`
      + `<div class="note">The roll is recorded with the choice.</div></div>`;
  }

  async loss(unit) {
    try {
      const r = await post("/api/loss", { unit, steps: 1 });
      await this.refresh(r.position);
    } catch (err) { showRefusal(err); }
  }

  async act(path, body) {
    try {
      const r = await post(path, body);
      await this.refresh(r.position);
    } catch (err) { showRefusal(err); }
  }

  drawAfter(parts) {
    const after = this.after();
    if (!after) return;
    for (const r of after.retreats) {
      const who = `${r.units.join(", ")} (${r.role}) at ${r.hex}`;
      if (r.eliminated) {
        parts.push(`<div class="after">${esc(who)}: ${reasonHtml(r.reason)} <button data-retreat="${esc(r.units.join(","))}" data-to="">Eliminate</button></div>`);
        continue;
      }
      const ends = Object.entries(r.ends).map(([h, e]) => `<button data-retreat="${esc(r.units.join(","))}" data-to="${esc(h)}">${esc(h)}${e.losses ? ` (&minus;${e.losses} step in ZOC)` : ""}</button>`)
        .concat((r.boxes || []).map((b) => `<button data-retreat="${esc(r.units.join(","))}" data-box="${esc(b.id)}" title="straight from ${esc(r.hex)}, crossing no hex">into the ${esc(b.name)} box${b.rule ? ` [rule ${esc(b.rule)}]` : ""}</button>`));
      const choice = r.requirements ? ` <span class="note">(${r.requirements} requirement(s): each is one more hex or a step lost, the owner's choice)</span>` : "";
      parts.push(`<div class="after">Retreat ${esc(who)} ${r.lengths.join(" or ")} hex(es) to: ${ends.join(" ")}${choice}</div>`);
    }
    if (after.advance) {
      for (const g of after.advance.groups) {
        if (!g.to.length) continue;
        parts.push(`<div class="after">Advance ${esc(g.units.join(", "))} from ${esc(g.hex)} into: ${g.to.map((h) => `<button data-advance="${esc(g.units.join(","))}" data-to="${esc(h)}">${esc(h)}</button>`).join(" ")} <span class="note">(or not)</span></div>`);
      }
    }
  }

  draw() {
    const a = this.assessment;
    const parts = [];
    if (this.S.pos.movement && this.S.pos.combat) {
      parts.push(`<label><input type="checkbox" id="attack-mode" ${this.attackMode ? "checked" : ""}> Pick an attack (clicks choose the attackers and the target, not moves)</label>`);
    }
    this.drawAfter(parts);
    if (this.active()) parts.push(`<div class="note">Attackers: <b>${esc(this.attackers.join(", ") || "click your units")}</b>; defender: <b>${esc(this.defender || "click an enemy hex")}</b></div>`);
    parts.push(this.supportsHtml());
    if (a) {
      if (!a.legal) parts.push(`<div class="refusals">${a.refusals.map(reasonHtml).join("<br>")}</div>`);
      parts.push(`<div>Attack <b>${esc(a.attack)}</b> vs defence <b>${esc(a.defence)}</b> = ${esc(a.ratio || "")} &rarr; odds <b>${esc(a.odds ?? "-")}</b>, column <b>${esc(a.column ?? "-")}</b>${a.drm ? `, DRM ${a.drm > 0 ? "+" : ""}${a.drm}` : ""}</div>`);
      if (a.modifiers.length) parts.push(`<ul class="mods">${a.modifiers.map((m) => `<li>${esc(m.kind)} ${esc(m.value)}: ${esc(m.text)}${m.rule ? ` <span class="rule">[rule ${esc(m.rule)}]</span>` : ""}</li>`).join("")}</ul>`);
      const rows = Object.entries(a.distribution);
      if (rows.length) {
        parts.push(`<table class="info dist"><tr><td><b>result</b></td><td><b>chance</b></td><td></td></tr>${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${pct(v)}%</td><td class="note">${esc(a.results && a.results[k] ? `attacker ${describe(a.results[k].attacker)}; defender ${describe(a.results[k].defender)}` : "")}</td></tr>`).join("")}</table>`);
        parts.push(`<div class="note">Expected steps lost: ${Object.entries(a.expected_steps).map(([k, v]) => `${esc(k)} ${(Number(pct(v)) / 100).toFixed(2)}`).join(", ")}${a.crt ? `; ${esc(a.crt.name || "CRT")} ${a.crt.rule ? "rule " + esc(a.crt.rule) : ""}` : ""}</div>`);
      }
      if (this.choice) parts.push(this.choiceHtml());
      else parts.push(`<button id="combat-roll" ${a.legal ? "" : "disabled"}>Roll</button>`);
    }
    if (this.rolled) {
      const e = this.rolled;
      const hit = this.S.pos.units.filter((u) => (e.attackers.includes(u.id) || (e.defenders || []).includes(u.id)) && !u.eliminated);
      const dice = Object.entries(e.dice || {}).map(([k, v]) => (k === "crt" ? `${v}` : `${k} ${v}`)).join(", ");
      parts.push(`<div class="rolled">Rolled ${esc(dice)} on ${esc(e.column)}: <b>${esc(e.result)}</b> <span class="note">(seed ${e.seed})</span></div>`);
      if ((e.supports_spent || []).length) parts.push(`<ul class="mods">${e.supports_spent.map((t) => `<li>${esc(t)}</li>`).join("")}</ul>`);
      if (hit.length) parts.push(`<div class="note">Apply step losses:</div>${hit.map((u) => `<div class="unitrow"><button data-loss="${esc(u.id)}">&minus;1 step</button> ${esc(u.name)} <span class="note">${esc(u.id)}, ${u.steps}/${u.full} steps</span></div>`).join("")}`);
    }
    $("combat").innerHTML = parts.join("");
    for (const input of $("combat").querySelectorAll(".supports input, .supports select")) input.onchange = () => this.assess();
    const mode = $("attack-mode");
    if (mode) mode.onchange = () => { this.attackMode = mode.checked; this.attackers = []; this.defender = null; this.assessment = null; this.S.view.highlight([]); this.draw(); };
    const btn = $("combat-roll");
    if (btn) btn.onclick = () => this.roll();
    for (const b of $("combat").querySelectorAll("button[data-special-role]")) {
      b.onclick = () => this.pick(b.getAttribute("data-special-role"), b.getAttribute("data-kind"));
    }
    for (const b of $("combat").querySelectorAll("button[data-loss]")) b.onclick = () => this.loss(b.getAttribute("data-loss"));
    for (const b of $("combat").querySelectorAll("button[data-retreat]")) {
      b.onclick = () => this.act("/api/combat/retreat", { units: b.getAttribute("data-retreat").split(","), to: b.getAttribute("data-to") || null, box: b.getAttribute("data-box") || null });
    }
    for (const b of $("combat").querySelectorAll("button[data-advance]")) {
      b.onclick = () => this.act("/api/combat/advance", { units: b.getAttribute("data-advance").split(","), to: b.getAttribute("data-to") });
    }
  }
}
