// The JSON API of the play server. A refused action rejects with {refused: [...], error}.

export class Refused extends Error {
  constructor(body) {
    super(body.error || "refused");
    this.refused = body.refused || [];
    this.body = body;
  }
}

async function answer(response) {
  const text = await response.text();
  let body = {};
  try { body = text ? JSON.parse(text) : {}; } catch (e) { body = { error: text }; }
  if (response.status === 409) throw new Refused(body);
  if (!response.ok) throw new Error(body.error || `${response.status} ${response.statusText}`);
  return body;
}

export async function get(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== null && v !== undefined && v !== ""));
  const q = query.toString();
  return answer(await fetch(q ? `${path}?${q}` : path, { cache: "no-store" }));
}

export async function post(path, body = {}, params = {}) {
  const q = new URLSearchParams(params).toString();
  return answer(await fetch(q ? `${path}?${q}` : path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  }));
}
