/* jogak web page, versions (issue 15): a cited clause of a document that has other versions in the
   collection offers "다른 시점 보기" — the clause in the other version side by side as the 신구조문대비표
   (현행 | 개정, changed words marked), from GET /v1/collections/{c}/versions and …/diff. */
(function () {
  "use strict";
  const J = (window.jogak = window.jogak || {});
  const cache = new Map();  // collection → versions response
  const words = {
    ko: { other: "다른 시점 보기", hide: "닫기", older: "현행", newer: "개정", same: "두 시점의 이 조문은 같습니다.",
          added: "이 조문은 개정으로 신설되었습니다.", removed: "이 조문은 개정으로 삭제되었습니다.", from: "시행",
          until: "전까지", current: "현행", pick: "비교할 시점", table: "신구조문대비표" },
    en: { other: "Other versions", hide: "Close", older: "Before", newer: "After", same: "This article is the same in both versions.",
          added: "This article was added.", removed: "This article was removed.", from: "in force from",
          until: "until", current: "current", pick: "Compare with", table: "Old and new text" },
  };
  const w = (k) => (words[document.documentElement.lang === "en" ? "en" : "ko"] || words.ko)[k];

  async function versionsOf(coll) {
    if (!cache.has(coll)) cache.set(coll, J.api("/v1/collections/" + encodeURIComponent(coll) + "/versions"));
    return cache.get(coll);
  }

  function articleOf(path) {
    const m = /(?:^|\/)(제\d+조(?:의\d+)?)(?:\/|$)/.exec(path || "");
    return m ? m[1] : null;
  }

  function span(v) {
    return v.effective_from + " " + w("from") + (v.effective_to ? " ~ " + v.effective_to + " " + w("until") : "")
      + (v.current ? " (" + w("current") + ")" : "");
  }

  function marked(runs) {
    const cell = J.el("td", {});
    runs.forEach((r, i) => {
      if (i) cell.append(" ");
      cell.appendChild(r.op === "del" ? J.el("del", { text: r.text }) : r.op === "ins" ? J.el("ins", { text: r.text })
        : document.createTextNode(r.text));
    });
    return cell;
  }

  function table(d, label) {
    const box = J.el("div", { class: "version-diff" });
    const arts = d.articles.filter((a) => !label || a.label === label);
    if (!arts.length) { box.appendChild(J.el("p", { text: w("same") })); return box; }
    const t = J.el("table", { class: "sin-gu" }, [
      J.el("caption", { text: w("table") + " · " + d.work }),
      J.el("thead", {}, J.el("tr", {}, [J.el("th", { scope: "col", text: w("older") + " (" + span(d.from) + ")" }),
                                         J.el("th", { scope: "col", text: w("newer") + " (" + span(d.to) + ")" })])),
    ]);
    const body = J.el("tbody", {});
    for (const a of arts) {
      body.appendChild(J.el("tr", { class: "article" }, J.el("th", { colspan: "2", scope: "rowgroup",
        text: a.label + (a.title ? " (" + a.title + ")" : "") + (a.status === "added" ? " — " + w("added")
          : a.status === "removed" ? " — " + w("removed") : "") })));
      for (const s of a.sentences) body.appendChild(J.el("tr", {}, [marked(s.old_marks), marked(s.new_marks)]));
    }
    t.appendChild(body);
    box.appendChild(t);
    return box;
  }

  async function show(holder, coll, mine, other, label) {
    const [older, newer] = mine.effective_from <= other.effective_from ? [mine, other] : [other, mine];
    // a promulgation date names one text exactly; a start date names the text in force then
    const day = (v) => v.promulgated || v.effective_from;
    const q = "?work=" + encodeURIComponent(mine.work) + "&from=" + day(older) + "&to=" + day(newer);
    const out = holder.querySelector(".version-out");
    out.textContent = "";
    try {
      out.appendChild(table(await J.api("/v1/collections/" + encodeURIComponent(coll) + "/diff" + q), label));
    } catch (e) { J.showError(e); }
  }

  async function offer() {
    const box = document.getElementById("evidence");
    if (!box) return;
    let holder = document.getElementById("evidence-versions");
    if (!holder) {
      holder = J.el("div", { id: "evidence-versions", class: "versions" });
      const notes = document.getElementById("evidence-notes");
      (notes ? notes.parentNode : box).insertBefore(holder, notes ? notes.nextSibling : null);
    }
    holder.textContent = "";
    const doc = box.dataset.doc, coll = J.collection();
    if (!doc || !coll) return;
    let data;
    try { data = await versionsOf(coll); } catch (e) { return; }
    const work = (data.works || []).find((x) => x.versions.some((v) => v.doc_id === doc));
    if (!work || work.versions.length < 2 || box.dataset.doc !== doc) return;
    const mine = work.versions.find((v) => v.doc_id === doc);
    // a superseded text (a later-promulgated one already holds it) is never the text in force: not offered
    const others = work.versions.filter((v) => v.doc_id !== doc && !v.superseded_by);
    if (!others.length) return;
    const label = articleOf(box.dataset.path);
    const pick = J.el("select", { "aria-label": w("pick") },
      others.map((v, i) => J.el("option", { value: String(i), text: span(v) })));
    const out = J.el("div", { class: "version-out" });
    const btn = J.el("button", { type: "button", class: "other-versions", "aria-expanded": "false",
      onclick: () => {
        const open = btn.getAttribute("aria-expanded") !== "true";
        btn.setAttribute("aria-expanded", open ? "true" : "false");
        btn.textContent = open ? w("hide") : w("other");
        pick.hidden = !open;
        if (open) show(holder, coll, mine, others[Number(pick.value)], label); else out.textContent = "";
      } }, w("other"));
    pick.hidden = true;
    pick.addEventListener("change", () => show(holder, coll, mine, others[Number(pick.value)], label));
    holder.append(J.el("p", { class: "version-of", text: span(mine) }), btn, " ", pick, out);
  }

  function init() {
    const box = document.getElementById("evidence");
    if (!box || !window.MutationObserver) return;
    new MutationObserver(() => offer()).observe(box, { attributes: true, attributeFilter: ["data-doc", "data-path"] });
    const sel = document.getElementById("collection");
    if (sel) sel.addEventListener("change", () => cache.clear());
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
