/* A small offline reader of /openapi.json (the stock Swagger UI loads its scripts from a CDN). */
"use strict";
(async function () {
  const spec = await (await fetch("/openapi.json")).json();
  const $ = (id) => document.getElementById(id);
  $("intro").textContent = spec.info.title + " " + spec.info.version + " — " + (spec.info.description || "");
  const resolve = (s) => {
    if (s && s.$ref) return spec.components.schemas[s.$ref.split("/").pop()] || s;
    return s;
  };
  const pretty = (s, depth) => {
    s = resolve(s);
    if (!s || depth > 3) return s;
    if (s.properties) {
      const o = {};
      for (const [k, v] of Object.entries(s.properties)) {
        const r = resolve(v);
        o[k] = r.properties ? pretty(r, depth + 1) : (r.type || (r.anyOf ? r.anyOf.map((x) => resolve(x).type || "object").join(" | ") : "object"));
      }
      return o;
    }
    return s.type || s;
  };
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const d = document.createElement("details");
      d.className = "op";
      const sum = document.createElement("summary");
      const m = document.createElement("span");
      m.className = "method";
      m.textContent = method.toUpperCase();
      sum.append(m, " ", path, " — ", op.summary || "");
      d.appendChild(sum);
      if (op.description) { const p = document.createElement("p"); p.textContent = op.description; d.appendChild(p); }
      if (op.parameters && op.parameters.length) {
        const tb = document.createElement("table");
        tb.innerHTML = "<tr><th>parameter</th><th>in</th><th>required</th><th>description</th></tr>";
        for (const p of op.parameters) {
          const tr = document.createElement("tr");
          for (const v of [p.name, p.in, p.required ? "yes" : "no", p.description || ""]) {
            const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
          }
          tb.appendChild(tr);
        }
        d.appendChild(tb);
      }
      if (op.requestBody) {
        for (const [ct, body] of Object.entries(op.requestBody.content || {})) {
          const h = document.createElement("h4"); h.textContent = "Request body (" + ct + ")"; d.appendChild(h);
          const pre = document.createElement("pre"); pre.textContent = JSON.stringify(pretty(body.schema, 0), null, 2);
          d.appendChild(pre);
        }
      }
      const h = document.createElement("h4"); h.textContent = "Responses"; d.appendChild(h);
      const ul = document.createElement("ul");
      for (const [code, r] of Object.entries(op.responses || {})) {
        const li = document.createElement("li"); li.textContent = code + " " + (r.description || ""); ul.appendChild(li);
      }
      d.appendChild(ul);
      $("ops").appendChild(d);
    }
  }
})();
