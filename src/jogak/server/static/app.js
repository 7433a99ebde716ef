/* jogak web page, part 1: shared helpers, the landing view, asking with cited answers, the evidence panel.
   Part 2 (library.js) holds documents, the clause tree, uploads and collections. Plain browser
   JavaScript, no build step and no external resources. */
"use strict";

(function () {
  const J = (window.jogak = window.jogak || {});
  const $ = (id) => document.getElementById(id);
  const S = window.sessionStorage;

  const T = J.T;
  const ERR_KO = J.ERR_KO;

  let lang = S.getItem("jogak.lang") || ((navigator.language || "ko").toLowerCase().startsWith("ko") ? "ko" : "en");
  const t = (k) => (T[lang] && T[lang][k]) || T.en[k] || k;
  const state = { answer: null, activeRef: null, docs: [], tree: null, treeDoc: null, mode: null, trees: {} };

  // ── helpers ─────────────────────────────────────────────────────────────────────────────────
  function headers(extra) {
    const h = Object.assign({}, extra || {});
    const key = S.getItem("jogak.key");
    if (key) h["Authorization"] = "Bearer " + key;
    return h;
  }

  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.message) || ("HTTP " + status));
      this.status = status;
      this.code = body && body.error;
      this.file = body && body.file;
    }
  }

  async function api(path, opts) {
    opts = opts || {};
    const init = { method: opts.method || "GET", headers: headers(opts.headers) };
    if (opts.json !== undefined) {
      init.body = JSON.stringify(opts.json);
      init.headers["Content-Type"] = "application/json";
    }
    const r = await fetch(path, init);
    let body = null;
    try { body = await r.json(); } catch (e) { body = null; }
    if (!r.ok) throw new ApiError(r.status, body);
    return body;
  }

  // "가짜.pdf: 파일 이름이 말하는 형식과 실제 내용이 다릅니다" — never the server's English in a Korean page
  function errorText(code, message, file) {
    if (lang !== "ko") return message || code || t("error");
    const ko = ERR_KO[code] || "처리하지 못했습니다";
    return (file ? file + ": " : "") + ko;
  }

  function status(msg, isError) {
    const el = $("status");
    el.textContent = msg || "";
    el.classList.toggle("error", !!isError);
  }

  function showError(e) {
    if (e && e.status === 401) status(t("needKey"), true);
    else status(t("error") + ": " + errorText(e && e.code, (e && e.message) || String(e), e && e.file), true);
  }

  function pageLabel(a, b) {
    if (a === null || a === undefined) return "";
    if (b !== null && b !== undefined && b !== a) return t("pages") + " " + a + "–" + b;
    return t("page") + " " + a;
  }

  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of [].concat(children || [])) {
      if (c === null || c === undefined) continue;
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return e;
  }

  function collection() { return $("collection").value; }

  async function treeOf(docId, coll) {  // cached per document (footnotes of cited chunks)
    const key = coll + "/" + docId;
    if (!state.trees[key]) {
      state.trees[key] = api("/v1/documents/" + encodeURIComponent(docId) + "/tree?text=true" +
                             (coll ? "&collection=" + encodeURIComponent(coll) : ""));
    }
    return state.trees[key];
  }

  function footnoteNodes(tree) {
    const out = [];
    const walk = (n) => { if (n.kind === "footnote") out.push(n); (n.children || []).forEach(walk); };
    walk(tree);
    return out;
  }

  function renderNotes(box, notes) {
    box.textContent = "";
    box.hidden = !notes.length;
    if (!notes.length) return;
    box.appendChild(el("h3", { text: t("notes") }));
    const ul = el("ul", { class: "plain" });
    for (const n of notes) {
      let text = (n.text || "").replace(/\s+/g, " ").trim();
      if (n.label && text.startsWith(n.label)) text = text.slice(n.label.length).trim();
      ul.appendChild(el("li", { class: "note" }, [el("span", { class: "note-label", text: n.label }), " " + text]));
    }
    box.appendChild(ul);
  }

  Object.assign(J, { $, S, t, state, api, ApiError, el, status, showError, errorText, pageLabel, collection,
                     headers, treeOf, footnoteNodes, renderNotes, lang: () => lang });

  // ── language ────────────────────────────────────────────────────────────────────────────────
  function applyLang() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
    document.querySelectorAll("[data-i18n-placeholder]").forEach((n) => {
      n.setAttribute("placeholder", t(n.dataset.i18nPlaceholder));
    });
    $("lang").textContent = lang === "ko" ? "English" : "한국어";
    if (state.answer) renderAnswer(state.answer);
  }

  // ── tabs (WAI-ARIA tabs: arrows move between tabs) ──────────────────────────────────────────
  const tabs = () => [$("tab-ask"), $("tab-docs")];
  function selectTab(tab, focus) {
    for (const x of tabs()) {
      const on = x === tab;
      x.setAttribute("aria-selected", on ? "true" : "false");
      x.tabIndex = on ? 0 : -1;
      $(x.getAttribute("aria-controls")).hidden = !on;
    }
    if (focus) tab.focus();
    if (tab.id === "tab-docs" && !state.docs.length) J.loadDocs();
  }
  J.selectTab = selectTab;

  // ── collections, key, landing view ──────────────────────────────────────────────────────────
  async function loadCollections(select) {
    const sel = $("collection");
    try {
      const data = await api("/v1/collections");
      const keep = select || S.getItem("jogak.collection");
      sel.textContent = "";
      for (const c of data.collections) {
        sel.appendChild(el("option", { value: c.name, text: c.name + (c.exists ? " (" + c.documents + ")" : " " + t("empty")) }));
      }
      const names = data.collections.map((c) => c.name);
      if (keep && names.includes(keep)) sel.value = keep;
      else if (data.default && names.includes(data.default)) sel.value = data.default;
      if (!names.length) status(t("noCollections"));
      else status(t("collectionsLoaded").replace("{n}", names.length));
      state.docs = [];
      loadOverview();
      if (!$("panel-docs").hidden) J.loadDocs();
    } catch (e) { showError(e); }
  }
  J.loadCollections = loadCollections;

  // Overlapping loads (the page loading its collections while someone picks one) must not both fill the
  // lists: only the latest call writes, and it clears right before writing.
  let overviewCall = 0;
  async function loadOverview() {
    const call = ++overviewCall;
    const c = collection();
    const docs = $("welcome-docs");
    const samples = $("samples");
    docs.textContent = "";
    samples.textContent = "";
    if (!c) return;
    try {
      const o = await api("/v1/collections/" + encodeURIComponent(c) + "/overview");
      if (call !== overviewCall) return;
      docs.textContent = "";
      samples.textContent = "";
      if (!o.documents.length) docs.appendChild(el("li", { text: t("welcomeEmpty") }));
      for (const d of o.documents) {
        docs.appendChild(el("li", { class: "welcome-doc" }, [el("strong", { text: d.doc_title || d.source }),
          el("span", { class: "meta", text: " " + d.source + (d.n_pages ? " · " + t("pageCount").replace("{n}", d.n_pages) : "") })]));
      }
      for (const q of o.samples) {
        samples.appendChild(el("button", { type: "button", class: "sample", onclick: () => {
          $("question").value = q;
          $("ask-form").requestSubmit();
        } }, q));
      }
    } catch (e) {
      if (call !== overviewCall) return;
      if (e.status === 404) docs.appendChild(el("li", { text: t("welcomeEmpty") }));
      else if (e.status !== 401) showError(e);
    }
  }
  J.loadOverview = loadOverview;

  // ── asking (server-sent events over fetch: EventSource cannot send the API key) ─────────────
  async function ask(ev) {
    ev.preventDefault();
    const q = $("question").value.trim();
    if (!q) return;
    const box = $("answer-box");
    box.hidden = false;
    box.setAttribute("aria-busy", "true");
    $("ask-button").disabled = true;
    $("answer").textContent = "";
    $("answer").classList.add("streaming");
    $("sources").textContent = "";
    $("answer-flag").hidden = true;
    $("warnings-box").hidden = true;
    $("evidence").hidden = true;
    state.answer = null;
    status(t("thinking"));
    try {
      const r = await fetch("/v1/ask", {
        method: "POST",
        headers: headers({ "Content-Type": "application/json", "Accept": "text/event-stream" }),
        body: JSON.stringify({ question: q, collection: collection() || null, stream: true }),
      });
      if (!r.ok) {
        let body = null;
        try { body = await r.json(); } catch (e) { body = null; }
        throw new ApiError(r.status, body);
      }
      await readEvents(r, (event, data) => {
        if (event === "delta") $("answer").append(data.text);
        else if (event === "answer") { state.answer = data; renderAnswer(data); }
        else if (event === "error") throw new ApiError(500, data);
      });
      status("");
    } catch (e) {
      showError(e);
    } finally {
      box.setAttribute("aria-busy", "false");
      $("answer").classList.remove("streaming");
      $("ask-button").disabled = false;
    }
  }

  async function readEvents(response, onEvent) {
    const reader = response.body.getReader();
    const dec = new TextDecoder("utf-8");
    let buf = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const raw = buf.slice(0, i);
        buf = buf.slice(i + 2);
        let event = "message";
        const data = [];
        for (const line of raw.split("\n")) {
          if (line.startsWith("event:")) event = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) onEvent(event, JSON.parse(data.join("\n")));
      }
      if (done) break;
    }
  }

  function citeLabel(c) {
    return c.article ? c.doc_title + " · " + c.article : c.doc_title;
  }

  function marker(c) {
    return el("button", {
      type: "button", class: "cite-marker", "data-ref": c.ref,
      "aria-label": t("cite") + " " + c.ref + ": " + citeLabel(c) + " " + pageLabel(c.page_start, c.page_end),
      title: citeLabel(c), onclick: () => showEvidence(c),
    }, "[" + c.ref + "]");
  }

  function renderAnswer(a) {
    const out = $("answer");
    out.textContent = "";
    const byRef = new Map((a.citations || []).map((c) => [c.ref, c]));
    const parts = a.answer_parts && a.answer_parts.length ? a.answer_parts : [{ text: a.answer }];
    let placed = 0;
    for (const p of parts) {
      if (p.text !== undefined) out.append(p.text);
      else if (p.cite) {
        out.append(" ");
        const group = el("span", { class: "cites", title: p.note || "" });
        for (const ref of p.cite) {
          const c = byRef.get(ref);
          if (c) { group.appendChild(marker(c)); placed++; }
        }
        out.appendChild(group);
      }
    }
    if (!placed && a.citations && a.citations.length) {  // notes not recognised: markers at the end
      out.append(" ");
      for (const c of a.citations) out.appendChild(marker(c));
    }
    // the outcome (answer / related clauses / no evidence) and its confidence, distinctly
    const outcome = a.outcome || "answer";
    $("answer-box").dataset.outcome = outcome;
    $("answer-head").textContent = t("outcome")[outcome] || t("answer");
    $("answer-confidence").textContent = t("confidence") + " " + Math.round(100 * Number(a.confidence || 0)) + "%";
    const flag = $("answer-flag");
    const unconfirmed = outcome === "answer" && !a.supported && a.citations && a.citations.length;
    flag.hidden = !(unconfirmed || outcome === "related");
    flag.textContent = outcome === "related" ? t("relatedNote") : t("unsupported");
    const list = $("sources");
    list.textContent = "";
    if (!a.citations || !a.citations.length) {
      list.appendChild(el("li", { class: "none", text: t("noSources") }));
    }
    for (const c of a.citations || []) {
      const pg = pageLabel(c.page_start, c.page_end);
      list.appendChild(el("li", { "data-ref": c.ref }, [
        el("button", { type: "button", class: "source-link", "data-ref": c.ref, onclick: () => showEvidence(c) },
           ["[" + c.ref + "] ", el("span", { class: "path", text: citeLabel(c) }), pg ? " · " + pg : ""]),
        el("blockquote", { class: "quote-preview", text: c.quote }),
        // how well the clause answers the question, as a word (the number in the tooltip) — never the
        // support score, which a verbatim quote always tops
        el("span", { class: "relevance", title: Number(c.relevance || 0).toFixed(2),
                     text: t("relevance") + ": " + (c.relevance_label || "") }),
      ]));
    }
    const w = a.warnings || [];
    $("warnings-box").hidden = !w.length;
    $("warnings").textContent = "";
    for (const x of w) $("warnings").appendChild(el("li", { text: x }));
  }

  function findQuote(text, quote) {
    if (!quote) return null;
    const i = text.indexOf(quote);
    if (i >= 0) return [i, i + quote.length];
    const words = quote.trim().split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const m = new RegExp(words.join("\\s*")).exec(text);
    return m ? [m.index, m.index + m[0].length] : null;
  }

  function renderMarked(target, text, clause, quote) {
    target.textContent = "";
    if (!clause) clause = quote;
    if (!clause) { target.textContent = text; return; }
    const [c0, c1] = clause;
    target.append(text.slice(0, c0));
    const span = el("span", { class: "clause" });
    if (quote && quote[0] >= c0 && quote[1] <= c1) {
      span.append(text.slice(c0, quote[0]));
      span.appendChild(el("mark", { class: "quote", text: text.slice(quote[0], quote[1]) }));
      span.append(text.slice(quote[1], c1));
    } else {
      span.append(text.slice(c0, c1));
    }
    target.appendChild(span);
    target.append(text.slice(c1));
  }

  async function showEvidence(c) {
    const a = state.answer;
    state.activeRef = c.ref;
    document.querySelectorAll(".cite-marker, .source-link").forEach((b) => {
      const on = Number(b.dataset.ref) === c.ref;
      b.classList.toggle("active", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    const box = $("evidence");
    box.hidden = false;
    $("evidence-path").textContent = citeLabel(c);
    $("evidence-page").textContent = pageLabel(c.page_start, c.page_end);
    $("evidence-text").textContent = t("loading");
    $("evidence-source").textContent = c.source;
    $("evidence-notes").hidden = true;
    box.dataset.path = c.path || "";
    try {
      const coll = a && a.collection ? a.collection : "";
      const q = coll ? "?collection=" + encodeURIComponent(coll) : "";
      const chunk = await api("/v1/chunks/" + encodeURIComponent(c.chunk_id) + q);
      if (state.activeRef !== c.ref) return;
      const h = c.highlight || {};
      const quote = h.quote || findQuote(chunk.text, c.quote);
      renderMarked($("evidence-text"), chunk.text, h.clause || null, quote);
      box.dataset.doc = chunk.metadata.doc_id;
      $("evidence-source").textContent = chunk.metadata.source;
      box.focus();
      const m = box.querySelector("mark.quote");
      if (m && m.scrollIntoView) m.scrollIntoView({ block: "nearest" });
      const labels = chunk.metadata.footnotes || [];
      if (labels.length) {  // the chunk's footnote marks, with the footnotes' text
        const tree = await treeOf(chunk.metadata.doc_id, coll);
        if (state.activeRef !== c.ref) return;
        renderNotes($("evidence-notes"), footnoteNodes(tree.tree).filter((n) => labels.includes(n.label)));
      }
    } catch (e) {
      if (state.activeRef === c.ref && $("evidence-text").textContent === t("loading")) $("evidence-text").textContent = "";
      if (e.code !== "no_tree") showError(e);
    }
  }

  // ── start ───────────────────────────────────────────────────────────────────────────────────
  async function detectMode() {
    try {
      const h = await api("/healthz");
      state.mode = h.mode;
    } catch (e) { state.mode = "keys"; }
    $("key-controls").hidden = state.mode === "local";  // local mode: no key to give
  }

  async function init() {
    $("api-key").value = S.getItem("jogak.key") || "";
    applyLang();
    $("lang").addEventListener("click", () => {
      lang = lang === "ko" ? "en" : "ko";
      S.setItem("jogak.lang", lang);
      applyLang();
    });
    const saveKey = () => {
      const v = $("api-key").value.trim();
      if (v) S.setItem("jogak.key", v); else S.removeItem("jogak.key");
      status(t("keySaved"));
      loadCollections();
    };
    $("key-save").addEventListener("click", saveKey);
    $("api-key").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); saveKey(); } });
    $("collection").addEventListener("change", () => {
      S.setItem("jogak.collection", collection());
      state.docs = [];
      $("tree").textContent = "";
      for (const id of ["node-path", "node-page", "node-text"]) $(id).textContent = "";
      $("node-refs").hidden = true;
      $("node-notes").hidden = true;
      loadOverview();
      if (!$("panel-docs").hidden) J.loadDocs();
    });
    for (const tab of tabs()) {
      tab.addEventListener("click", () => selectTab(tab, false));
      tab.addEventListener("keydown", (e) => {
        const all = tabs();
        const i = all.indexOf(tab);
        if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
          e.preventDefault();
          selectTab(all[(i + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length], true);
        }
      });
    }
    $("ask-form").addEventListener("submit", ask);
    $("question").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("ask-form").requestSubmit(); }
    });
    $("evidence-open").addEventListener("click", () => {
      const box = $("evidence");
      if (!box.dataset.doc) return;
      selectTab($("tab-docs"), false);
      J.loadTree(box.dataset.doc, box.dataset.path || null);
    });
    J.initLibrary();
    await detectMode();
    loadCollections();
  }

  document.addEventListener("DOMContentLoaded", init);
})();
