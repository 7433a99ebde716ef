/* jogak web page: ask with cited answers, evidence highlighted in its clause, documents and uploads.
   Plain browser JavaScript, no build step and no external resources. */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const S = window.sessionStorage;

  const T = {
    ko: {
      skip: "본문으로 건너뛰기", collection: "컬렉션", apiKey: "API 키", apiKeyHint: "키가 필요할 때만",
      apply: "적용", tabAsk: "질문", tabDocs: "문서", question: "질문",
      questionHint: "예: 단순 변심인데 반품 배송비 얼마예요?", ask: "질문하기", answer: "답변", sources: "근거",
      warnings: "경고", evidence: "근거 조항", openInDoc: "문서에서 보기",
      uploadLabel: "문서 올리기 (PDF, DOCX, HTML, Markdown, 텍스트)", upload: "올리기", documents: "문서 목록",
      tree: "조항 구조", clause: "조항", thinking: "답변을 찾는 중…", noCollections: "컬렉션이 없습니다",
      needKey: "API 키가 필요합니다. 위의 입력란에 키를 넣고 ‘적용’을 누르세요.",
      unsupported: "일부 문장은 근거로 확인되지 않았습니다.", noSources: "인용된 근거가 없습니다.",
      cite: "근거", page: "p.", pages: "pp.", support: "지지도", chunks: "조각", uploading: "올리는 중",
      queued: "대기 중", running: "처리 중", succeeded: "완료", failed: "실패", interrupted: "중단됨",
      stage: { validate: "확인", load: "읽기", tokenize: "형태소 분석", embed: "임베딩", index: "색인", commit: "저장" },
      added: "추가", updated: "갱신", unchanged: "변경 없음", pickFiles: "올릴 파일을 고르세요.",
      noDocs: "문서가 없습니다.", loading: "불러오는 중…", keySaved: "API 키를 적용했습니다.",
      collectionsLoaded: "컬렉션 {n}개", error: "오류", expand: "펼치기", collapse: "접기",
      noTree: "이 문서에는 조항 구조가 없습니다.", empty: "(빈 컬렉션)",
    },
    en: {
      skip: "Skip to content", collection: "Collection", apiKey: "API key", apiKeyHint: "only if required",
      apply: "Apply", tabAsk: "Ask", tabDocs: "Documents", question: "Question",
      questionHint: "e.g. What does a change-of-mind return cost?", ask: "Ask", answer: "Answer", sources: "Sources",
      warnings: "Warnings", evidence: "Cited clause", openInDoc: "Show in document",
      uploadLabel: "Upload documents (PDF, DOCX, HTML, Markdown, text)", upload: "Upload", documents: "Documents",
      tree: "Clause tree", clause: "Clause", thinking: "Finding the answer…", noCollections: "No collections",
      needKey: "This server needs an API key: enter it above and press ‘Apply’.",
      unsupported: "Some statements could not be confirmed by their sources.", noSources: "No sources cited.",
      cite: "Source", page: "p.", pages: "pp.", support: "support", chunks: "chunks", uploading: "Uploading",
      queued: "queued", running: "running", succeeded: "done", failed: "failed", interrupted: "interrupted",
      stage: { validate: "checking", load: "reading", tokenize: "tokenising", embed: "embedding", index: "indexing",
               commit: "saving" },
      added: "added", updated: "updated", unchanged: "unchanged", pickFiles: "Choose files to upload.",
      noDocs: "No documents.", loading: "Loading…", keySaved: "API key applied.",
      collectionsLoaded: "{n} collection(s)", error: "Error", expand: "Expand", collapse: "Collapse",
      noTree: "This document has no clause tree.", empty: "(empty collection)",
    },
  };

  let lang = S.getItem("jogak.lang") || ((navigator.language || "ko").toLowerCase().startsWith("ko") ? "ko" : "en");
  const t = (k) => (T[lang] && T[lang][k]) || T.en[k] || k;
  const state = { answer: null, activeRef: null, docs: [], tree: null, treeDoc: null, pendingPath: null };

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

  function status(msg, isError) {
    const el = $("status");
    el.textContent = msg || "";
    el.classList.toggle("error", !!isError);
  }

  function showError(e) {
    if (e && e.status === 401) status(t("needKey"), true);
    else status(t("error") + ": " + ((e && e.message) || e), true);
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
    if (tab.id === "tab-docs" && !state.docs.length) loadDocs();
  }

  // ── collections and key ─────────────────────────────────────────────────────────────────────
  async function loadCollections() {
    const sel = $("collection");
    try {
      const data = await api("/v1/collections");
      const keep = S.getItem("jogak.collection");
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
      if (!$("panel-docs").hidden) loadDocs();
    } catch (e) { showError(e); }
  }

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
      type: "button", class: "cite-marker", "data-ref": c.ref, "data-chunk": c.chunk_id,
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
    const flag = $("answer-flag");
    flag.hidden = !!a.supported || !(a.citations && a.citations.length);
    flag.textContent = t("unsupported");
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
        el("span", { class: "support", text: t("support") + " " + Number(c.support).toFixed(2) }),
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
    box.dataset.chunk = c.chunk_id;
    box.dataset.path = c.path || "";
    try {
      const q = a && a.collection ? "?collection=" + encodeURIComponent(a.collection) : "";
      const chunk = await api("/v1/chunks/" + encodeURIComponent(c.chunk_id) + q);
      if (state.activeRef !== c.ref) return;
      const h = c.highlight || {};
      const quote = h.quote || findQuote(chunk.text, c.quote);
      renderMarked($("evidence-text"), chunk.text, h.clause || null, quote);
      box.dataset.doc = chunk.metadata.doc_id;
      $("evidence-source").textContent = chunk.metadata.source + " · " + chunk.id;
      box.focus();
      const m = box.querySelector("mark.quote");
      if (m && m.scrollIntoView) m.scrollIntoView({ block: "nearest" });
    } catch (e) {
      $("evidence-text").textContent = "";
      showError(e);
    }
  }

  // ── documents, trees ────────────────────────────────────────────────────────────────────────
  async function loadDocs() {
    const c = collection();
    const list = $("doc-list");
    if (!c) { list.textContent = ""; return; }
    list.textContent = "";
    list.appendChild(el("li", { text: t("loading") }));
    try {
      const data = await api("/v1/collections/" + encodeURIComponent(c) + "/documents");
      state.docs = data.documents;
      list.textContent = "";
      if (!data.documents.length) list.appendChild(el("li", { text: t("noDocs") }));
      for (const d of data.documents) {
        list.appendChild(el("li", {}, el("button", {
          type: "button", class: "doc", "data-doc": d.doc_id, onclick: () => loadTree(d.doc_id),
        }, [el("strong", { text: d.doc_title || d.source }), el("span", { class: "meta",
          text: d.source + " · " + d.n_chunks + " " + t("chunks") + (d.n_pages ? " · " + d.n_pages + " p" : "") })])));
      }
    } catch (e) {
      list.textContent = "";
      if (e.status === 404) list.appendChild(el("li", { text: t("noDocs") }));
      else showError(e);
    }
  }

  function heading(n) {
    if (n.kind === "document") return n.title || n.label || (state.treeDoc && state.treeDoc.doc_title) || "";
    if (n.label && n.title) return n.title.includes(n.label) ? n.title : n.label + " (" + n.title + ")";
    return n.label || n.title || n.kind;
  }

  // "제2조 (반품 배송비) ①": the clause as a citation names it (chapters and the document left out)
  function clauseName(trail) {
    const parts = trail.filter((x) => x.kind !== "document" && x.kind !== "chapter" && x.kind !== "parties");
    return parts.map((x, i) => (i === 0 ? heading(x) : (x.label || heading(x)))).join(" ");
  }

  function snippet(n) {
    if (n.title || !n.text) return "";
    let s = n.text.replace(/\s+/g, " ").trim();
    if (n.label && s.startsWith(n.label)) s = s.slice(n.label.length).trim();
    return s.length > 28 ? s.slice(0, 28) + "…" : s;
  }

  function treeNode(n, depth, trail) {
    trail = trail.concat([n]);
    const li = el("li", { class: "node", "data-path": n.path || "" });
    const row = el("div", { class: "row" });
    const kids = n.children || [];
    let sub = null;
    if (kids.length) {
      const open = depth < 1;
      const tog = el("button", { type: "button", class: "toggle", "aria-expanded": open ? "true" : "false",
                                 "aria-label": (open ? t("collapse") : t("expand")) + ": " + heading(n) }, open ? "▾" : "▸");
      tog.addEventListener("click", () => {
        const now = tog.getAttribute("aria-expanded") !== "true";
        tog.setAttribute("aria-expanded", now ? "true" : "false");
        tog.textContent = now ? "▾" : "▸";
        tog.setAttribute("aria-label", (now ? t("collapse") : t("expand")) + ": " + heading(n));
        sub.hidden = !now;
      });
      row.appendChild(tog);
    } else {
      row.appendChild(el("span", { class: "toggle-space", "aria-hidden": "true" }));
    }
    const pg = pageLabel(n.page_start, n.page_end);
    const snip = snippet(n);
    row.appendChild(el("button", { type: "button", class: "select", "data-path": n.path || "",
                                   onclick: () => selectNode(n, li, trail) },
                       [heading(n), snip ? el("span", { class: "snippet", text: " " + snip }) : null,
                        pg ? el("span", { class: "page", text: " · " + pg }) : null]));
    li.appendChild(row);
    if (kids.length) {
      sub = el("ul", { class: "children" });
      sub.hidden = depth >= 1;
      for (const k of kids) sub.appendChild(treeNode(k, depth + 1, trail));
      li.appendChild(sub);
    }
    return li;
  }

  function selectNode(n, li, trail) {
    document.querySelectorAll("#tree .select").forEach((b) => {
      b.classList.remove("active");
      b.removeAttribute("aria-current");
    });
    const b = li.querySelector(":scope > .row > .select");
    if (b) { b.classList.add("active"); b.setAttribute("aria-current", "true"); }
    const title = state.treeDoc ? state.treeDoc.doc_title : "";
    const name = clauseName(trail);
    $("node-path").textContent = name ? (title ? title + " · " : "") + name : title;
    $("node-page").textContent = pageLabel(n.page_start, n.page_end);
    $("node-text").textContent = n.text || "";
  }

  async function loadTree(docId, path) {
    const box = $("tree");
    box.textContent = t("loading");
    document.querySelectorAll("#doc-list .doc").forEach((b) => b.classList.toggle("active", b.dataset.doc === docId));
    try {
      const c = collection();
      const data = await api("/v1/documents/" + encodeURIComponent(docId) + "/tree?text=true" +
                             (c ? "&collection=" + encodeURIComponent(c) : ""));
      state.tree = data.tree;
      state.treeDoc = data.document;
      box.textContent = "";
      const ul = el("ul", { class: "root" });
      ul.appendChild(treeNode(data.tree, 0, []));
      box.appendChild(ul);
      if (path) revealPath(path);
    } catch (e) {
      box.textContent = e.code === "no_tree" ? t("noTree") : "";
      if (e.code !== "no_tree") showError(e);
    }
  }

  function revealPath(path) {
    let found = null;
    document.querySelectorAll("#tree li.node").forEach((li) => { if (li.dataset.path === path) found = li; });
    if (!found) return;
    for (let p = found.parentElement; p && p.id !== "tree"; p = p.parentElement) {
      if (p.classList.contains("children")) {
        p.hidden = false;
        const tog = p.parentElement.querySelector(":scope > .row > .toggle");
        if (tog) { tog.setAttribute("aria-expanded", "true"); tog.textContent = "▾"; }
      }
    }
    const btn = found.querySelector(":scope > .row > .select");
    if (btn) { btn.click(); btn.focus(); }
  }

  // ── uploads: XHR for upload progress, then the job is polled ────────────────────────────────
  function upload(ev) {
    ev.preventDefault();
    const files = $("upload-files").files;
    const st = $("upload-status");
    const bar = $("upload-progress");
    if (!files || !files.length) { st.textContent = t("pickFiles"); return; }
    const fd = new FormData();
    for (const f of files) fd.append("file", f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/collections/" + encodeURIComponent(collection()) + "/documents");
    const h = headers();
    for (const k of Object.keys(h)) xhr.setRequestHeader(k, h[k]);
    bar.hidden = false;
    bar.value = 0;
    bar.max = 100;
    $("upload-button").disabled = true;
    st.textContent = t("uploading") + " 0%";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) {
        const pct = Math.round((e.loaded / e.total) * 100);
        bar.value = pct;
        st.textContent = t("uploading") + " " + pct + "%";
      }
    };
    xhr.onerror = () => { st.textContent = t("error"); $("upload-button").disabled = false; };
    xhr.onload = () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch (e) { body = null; }
      if (xhr.status !== 202) {
        st.textContent = t("error") + " (" + xhr.status + "): " + ((body && body.message) || xhr.statusText);
        st.classList.add("error");
        bar.hidden = true;
        $("upload-button").disabled = false;
        return;
      }
      st.classList.remove("error");
      bar.value = 100;
      pollJob(body.id);
    };
    xhr.send(fd);
  }

  async function pollJob(id) {
    const st = $("upload-status");
    const bar = $("upload-progress");
    try {
      const job = await api("/v1/jobs/" + encodeURIComponent(id));
      const stage = job.stage ? (t("stage")[job.stage] || job.stage) : "";
      if (job.status === "queued" || job.status === "running") {
        bar.max = Math.max(job.total, 1);
        bar.value = Math.min(job.done, bar.max);
        st.textContent = t(job.status) + (stage ? " · " + stage + " " + job.done + "/" + job.total : "");
        setTimeout(() => pollJob(id), 600);
        return;
      }
      $("upload-button").disabled = false;
      bar.hidden = true;
      st.dataset.job = job.status;
      if (job.status === "succeeded") {
        const r = job.report || {};
        st.classList.remove("error");
        st.textContent = t("succeeded") + ": " + (r.added || []).length + " " + t("added") + ", " +
          (r.updated || []).length + " " + t("updated") + ", " + (r.unchanged || []).length + " " + t("unchanged");
        $("upload-files").value = "";
        state.docs = [];
        await loadCollections();
        await loadDocs();
      } else {
        st.classList.add("error");
        st.textContent = t(job.status) + ": " + ((job.error && job.error.message) || "");
      }
    } catch (e) {
      $("upload-button").disabled = false;
      showError(e);
    }
  }

  // ── start ───────────────────────────────────────────────────────────────────────────────────
  function init() {
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
      if (!$("panel-docs").hidden) loadDocs();
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
    $("upload-form").addEventListener("submit", upload);
    $("evidence-open").addEventListener("click", () => {
      const box = $("evidence");
      if (!box.dataset.doc) return;
      selectTab($("tab-docs"), false);
      loadTree(box.dataset.doc, box.dataset.path || null);
    });
    loadCollections();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
