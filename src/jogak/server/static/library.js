/* jogak web page, part 2: the document list (delete), the clause tree with references and footnotes,
   uploads with a step-by-step progress, new collections. Uses the helpers of app.js (window.jogak). */
"use strict";

(function () {
  const J = window.jogak;
  const { $, t, state, api, el } = J;
  const STEPS = ["upload", "validate", "load", "embed", "index", "commit"];

  // ── documents ───────────────────────────────────────────────────────────────────────────────
  async function loadDocs() {
    const c = J.collection();
    const list = $("doc-list");
    if (!c) { list.textContent = ""; return; }
    list.textContent = "";
    list.appendChild(el("li", { text: t("loading") }));
    try {
      const data = await api("/v1/collections/" + encodeURIComponent(c) + "/documents");
      state.docs = data.documents;
      list.textContent = "";
      if (!data.documents.length) list.appendChild(el("li", { text: t("noDocs") }));
      for (const d of data.documents) list.appendChild(docItem(d));
    } catch (e) {
      list.textContent = "";
      if (e.status === 404) list.appendChild(el("li", { text: t("noDocs") }));
      else J.showError(e);
    }
  }

  function docItem(d) {
    const pages = d.n_pages ? " · " + t("pageCount").replace("{n}", d.n_pages) : "";
    const del = el("button", { type: "button", class: "doc-delete", "data-doc": d.doc_id,
                               "aria-label": t("remove") + ": " + (d.doc_title || d.source) }, t("remove"));
    del.addEventListener("click", () => removeDoc(d, del));
    return el("li", { class: "doc-row" }, [
      el("button", { type: "button", class: "doc", "data-doc": d.doc_id, onclick: () => loadTree(d.doc_id) },
         [el("strong", { text: d.doc_title || d.source }), el("span", { class: "meta", text: d.source + pages })]),
      del]);
  }

  // two clicks: the first arms the button ("정말 삭제"), the second deletes
  async function removeDoc(d, btn) {
    if (!btn.classList.contains("armed")) {
      btn.classList.add("armed");
      btn.textContent = t("removeConfirm");
      setTimeout(() => { btn.classList.remove("armed"); btn.textContent = t("remove"); }, 5000);
      return;
    }
    btn.disabled = true;
    try {
      await api("/v1/collections/" + encodeURIComponent(J.collection()) + "/documents/" + encodeURIComponent(d.doc_id),
                { method: "DELETE" });
      if (state.treeDoc && state.treeDoc.doc_id === d.doc_id) { $("tree").textContent = ""; state.treeDoc = null; }
      state.trees = {};
      await J.loadCollections(J.collection());
      J.status(t("removed").replace("{name}", d.doc_title || d.source));
    } catch (e) {
      btn.disabled = false;
      J.showError(e);
    }
  }

  // ── the clause tree ─────────────────────────────────────────────────────────────────────────
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
    let s = n.text;
    const kids = n.children || [];
    if (kids.length) s = s.slice(0, Math.max(0, kids[0].char_start - n.char_start));  // its own words
    s = s.replace(/\s+/g, " ").trim();
    if (n.label && s.startsWith(n.label)) s = s.slice(n.label.length).trim();
    return s.length > 48 ? s.slice(0, 48) + "…" : s;
  }

  // "본문/제2조/제2항" → "제2조 제2항" (as the document says it)
  function readablePath(p) {
    const parts = (p || "").split("/").filter(Boolean);
    if (parts[0] === "본문" && parts.length > 1) parts.shift();
    return parts.join(" ");
  }

  function uniqueRefs(n) {
    const seen = new Set();
    return (n.refs || []).filter((r) => {
      const k = r.target_path || r.text;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }

  function treeNode(n, depth, trail, parentPage) {
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
    const pg = J.pageLabel(n.page_start, n.page_end);
    const snip = snippet(n);
    const refs = uniqueRefs(n);
    row.appendChild(el("button", { type: "button", class: "select", "data-path": n.path || "",
                                   onclick: () => selectNode(n, li, trail) },
                       [heading(n), snip ? el("span", { class: "snippet", text: " " + snip }) : null,
                        pg && pg !== parentPage ? el("span", { class: "page", text: " · " + pg }) : null,
                        refs.length ? el("span", { class: "ref-mark", title: refs.map(refName).join(", "),
                                                   text: " → " + refs.map(refName).join(", ") }) : null]));
    li.appendChild(row);
    if (kids.length) {
      sub = el("ul", { class: "children" });
      sub.hidden = depth >= 1;
      for (const k of kids) sub.appendChild(treeNode(k, depth + 1, trail, pg || parentPage));
      li.appendChild(sub);
    }
    return li;
  }

  function refName(r) {
    return r.target_path ? readablePath(r.target_path) : r.text.replace(/\s+/g, " ");
  }

  function renderRefs(n) {
    const box = $("node-refs");
    const refs = uniqueRefs(n);
    box.textContent = "";
    box.hidden = !refs.length;
    if (!refs.length) return;
    box.appendChild(el("h3", { text: t("refs") }));
    const ul = el("ul", { class: "plain" });
    for (const r of refs) {
      if (r.target_path) {
        ul.appendChild(el("li", {}, el("button", { type: "button", class: "ref-link", "data-path": r.target_path,
                                                   onclick: () => revealPath(r.target_path) }, "→ " + refName(r))));
      } else {
        const why = (r.reason === "other law" || r.reason === "other document") ? t("refOther") : t("refMissing");
        ul.appendChild(el("li", { class: "ref-out" }, ["↗ " + refName(r) + " ", el("span", { class: "meta", text: "(" + why + ")" })]));
      }
    }
    box.appendChild(ul);
  }

  // footnotes cited from this clause or anything inside it, with their text
  function notesFor(n) {
    if (!state.tree || !n.path) return [];
    return J.footnoteNodes(state.tree).filter((f) => ((f.attrs || {}).cited_from || [])
      .some((p) => p === n.path || p.startsWith(n.path + "/")));
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
    $("node-page").textContent = J.pageLabel(n.page_start, n.page_end);
    $("node-text").textContent = n.text || "";
    renderRefs(n);
    J.renderNotes($("node-notes"), n.kind === "footnote" ? [] : notesFor(n));
  }

  async function loadTree(docId, path) {
    const box = $("tree");
    box.textContent = t("loading");
    document.querySelectorAll("#doc-list .doc").forEach((b) => b.classList.toggle("active", b.dataset.doc === docId));
    try {
      const data = await J.treeOf(docId, J.collection());
      state.tree = data.tree;
      state.treeDoc = data.document;
      box.textContent = "";
      const ul = el("ul", { class: "root" });
      ul.appendChild(treeNode(data.tree, 0, [], ""));
      box.appendChild(ul);
      if (path) revealPath(path);
    } catch (e) {
      delete state.trees[J.collection() + "/" + docId];
      box.textContent = e.code === "no_tree" ? t("noTree") : "";
      if (e.code !== "no_tree") J.showError(e);
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

  // ── uploads: XHR for upload progress, then the job is polled; the steps show where it is ────
  function showSteps(current, failed) {
    const ol = $("upload-steps");
    ol.hidden = false;
    ol.textContent = "";
    const at = current === "starting" ? 1 : current === "tokenize" ? STEPS.indexOf("load") : STEPS.indexOf(current);
    STEPS.forEach((s, i) => {
      const cls = i < at || current === "done" ? "done" : i === at ? (failed ? "failed" : "current") : "todo";
      ol.appendChild(el("li", { class: "step " + cls, "data-step": s, "aria-current": i === at ? "step" : null },
                        t("stage")[s] || s));
    });
  }

  function uploadFailed(code, message, file) {
    const st = $("upload-status");
    st.classList.add("error");
    st.dataset.job = "failed";
    st.textContent = t("error") + ": " + J.errorText(code, message, file);
    $("upload-button").disabled = false;
    $("upload-progress").hidden = true;
  }

  function upload(ev) {
    ev.preventDefault();
    const files = $("upload-files").files;
    const st = $("upload-status");
    const bar = $("upload-progress");
    if (!files || !files.length) { st.textContent = t("pickFiles"); return; }
    const fd = new FormData();
    for (const f of files) fd.append("file", f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/collections/" + encodeURIComponent(J.collection()) + "/documents");
    const h = J.headers();
    for (const k of Object.keys(h)) xhr.setRequestHeader(k, h[k]);
    bar.hidden = false;
    bar.value = 0;
    bar.max = 100;
    delete st.dataset.job;
    st.classList.remove("error");
    $("upload-button").disabled = true;
    st.textContent = t("uploading") + " 0%";
    showSteps("upload", false);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) {
        const pct = Math.round((e.loaded / e.total) * 100);
        bar.value = pct;
        st.textContent = t("uploading") + " " + pct + "%";
      }
    };
    xhr.onerror = () => uploadFailed("", t("error"), "");
    xhr.onload = () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch (e) { body = null; }
      if (xhr.status !== 202) {
        showSteps("upload", true);
        uploadFailed(body && body.error, (body && body.message) || xhr.statusText, body && body.file);
        return;
      }
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
        showSteps(job.status === "queued" ? "validate" : job.stage || "starting", false);
        bar.max = Math.max(job.total, 1);
        bar.value = Math.min(job.done, bar.max);
        st.textContent = t(job.status) + (stage ? " · " + stage + (job.total ? " " + job.done + "/" + job.total : "") : "");
        setTimeout(() => pollJob(id), 400);
        return;
      }
      $("upload-button").disabled = false;
      bar.hidden = true;
      if (job.status === "succeeded") {
        showSteps("done", false);
        const r = job.report || {};
        st.classList.remove("error");
        st.dataset.job = job.status;
        st.textContent = t("succeeded") + ": " + (r.added || []).length + " " + t("added") + ", " +
          (r.updated || []).length + " " + t("updated") + ", " + (r.unchanged || []).length + " " + t("unchanged");
        $("upload-files").value = "";
        state.docs = [];
        await J.loadCollections(J.collection());
        await loadDocs();
      } else {
        showSteps(job.stage || "validate", true);
        const err = job.error || {};
        const file = (err.files && err.files[0] && err.files[0].source) || "";
        uploadFailed(err.error || job.status, err.message || "", file);
        st.dataset.job = job.status;
      }
    } catch (e) {
      $("upload-button").disabled = false;
      J.showError(e);
    }
  }

  // ── new collection ──────────────────────────────────────────────────────────────────────────
  async function createCollection(ev) {
    ev.preventDefault();
    const name = $("new-collection").value.trim();
    const st = $("collection-status");
    if (!name) return;
    try {
      await api("/v1/collections", { method: "POST", json: { name } });
      st.classList.remove("error");
      st.textContent = t("created").replace("{name}", name);
      $("new-collection").value = "";
      J.S.setItem("jogak.collection", name);
      await J.loadCollections(name);
    } catch (e) {
      st.classList.add("error");
      st.textContent = t("error") + ": " + J.errorText(e.code, e.message, "");
    }
  }

  J.loadDocs = loadDocs;
  J.loadTree = loadTree;
  J.initLibrary = function () {
    $("upload-form").addEventListener("submit", upload);
    $("collection-form").addEventListener("submit", createCollection);
  };
})();
