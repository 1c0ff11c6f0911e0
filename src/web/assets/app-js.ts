/**
 * The web client's one script, served at `/app/assets/app.js` (no
 * framework, no bundler). It loads the panel's gated fragment with the
 * bearer (asked once, kept in sessionStorage for the tab), and performs
 * every action through the JSON API with `Content-Type: application/json`
 * and the bearer — never a cookie. Keyboard: j/k move, a approves, r
 * rejects, ? shows help. Written without backticks or `${` so it can live
 * in this raw string.
 */
export const APP_JS = String.raw`(function () {
  "use strict";
  var KEY = "cairn.token";
  var panel = document.getElementById("panel");
  var statusEl = document.getElementById("status");
  var tokenDialog = document.getElementById("token-dialog");
  var help = document.getElementById("help");
  var signout = document.getElementById("signout");
  var pendingRetry = null;

  function token() { try { return sessionStorage.getItem(KEY) || ""; } catch (e) { return ""; } }
  function headers(json) {
    var h = { "Accept": "text/html, application/json" };
    if (json) h["Content-Type"] = "application/json";
    var t = token();
    if (t) h["Authorization"] = "Bearer " + t;
    return h;
  }
  function say(msg, kind) {
    statusEl.textContent = msg;
    statusEl.className = "status" + (kind ? " " + kind : "");
  }
  async function errorText(res) {
    try { var b = await res.json(); if (b && b.error && b.error.message) return b.error.message; } catch (e) { /* not JSON */ }
    return "Request failed with status " + res.status;
  }
  function askToken(retry) {
    pendingRetry = retry;
    document.getElementById("token-error").textContent = token() ? "That token was refused. Try again." : "";
    if (!tokenDialog.open) tokenDialog.showModal();
    document.getElementById("token-input").focus();
  }
  document.getElementById("token-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var v = document.getElementById("token-input").value.trim();
    if (!v) return;
    sessionStorage.setItem(KEY, v);
    document.getElementById("token-input").value = "";
    tokenDialog.close();
    signout.hidden = false;
    var r = pendingRetry; pendingRetry = null;
    if (r) r();
  });
  signout.hidden = !token();
  signout.addEventListener("click", function () { sessionStorage.removeItem(KEY); signout.hidden = true; say("Token forgotten for this tab."); });

  async function load(url, into, after) {
    into.setAttribute("aria-busy", "true");
    try {
      var res = await fetch(url, { headers: headers(false), credentials: "omit" });
      if (res.status === 401) { askToken(function () { load(url, into, after); }); return false; }
      if (!res.ok) { say(await errorText(res), "err"); return false; }
      into.innerHTML = await res.text();
      if (after) after();
      return true;
    } catch (e) {
      say("The server could not be reached.", "err");
      return false;
    } finally {
      into.setAttribute("aria-busy", "false");
    }
  }
  async function call(method, url, body) {
    var res = await fetch(url, { method: method, headers: headers(true), body: JSON.stringify(body || {}), credentials: "omit" });
    if (res.status === 401) return { status: 401, retry: true };
    var data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    return { status: res.status, ok: res.ok, data: data };
  }
  function code(r) { return r.data && r.data.error ? r.data.error.code : ""; }
  function message(r) { return r.data && r.data.error ? r.data.error.message : "Request failed with status " + r.status; }

  // --- review ---
  function cards() { return Array.prototype.slice.call(panel.querySelectorAll("article.card")); }
  function current() {
    var a = document.activeElement && document.activeElement.closest ? document.activeElement.closest("article.card") : null;
    return a || panel.querySelector("article.card[aria-current=true]");
  }
  function select(card) {
    cards().forEach(function (c) { c.removeAttribute("aria-current"); });
    if (!card) return;
    card.setAttribute("aria-current", "true");
    card.focus();
  }
  function removeCard(card) {
    var list = cards();
    var i = list.indexOf(card);
    card.remove();
    var rest = cards();
    var count = panel.querySelector(".count");
    if (count) count.textContent = rest.length === 0 ? "Nothing left here." : rest.length + " remaining.";
    if (rest.length) select(rest[Math.min(i, rest.length - 1)]);
    else document.getElementById("main").focus();
  }
  function busy(card, on) { card.querySelectorAll("button").forEach(function (b) { b.disabled = on; }); }
  async function approve(card) {
    var id = card.dataset.id;
    var sel = card.querySelector("select[name=supersedes]");
    var url = "/proposals/" + id + "/approve?digest=" + encodeURIComponent(card.dataset.digest);
    if (sel && sel.value) url += "&supersedes=" + encodeURIComponent(sel.value);
    busy(card, true);
    var r = await call("POST", url, {});
    if (r.retry) { busy(card, false); askToken(function () { approve(card); }); return; }
    if (r.ok) {
      say("Approved proposal #" + id + (r.data.promoted_chunk_id ? "; it is now memory #" + r.data.promoted_chunk_id : "; it matched an existing memory #" + r.data.chunk_id) + ".", "ok");
      removeCard(card);
      return;
    }
    if (r.status === 409 && code(r) === "digest_mismatch") {
      say("Proposal #" + id + ": this changed since you opened it. The row is reloaded; review it again.", "err");
      var holder = document.createElement("div");
      var ok = await load("/app/fragments/review/" + id, holder);
      var fresh = holder.querySelector("article.card");
      if (ok && fresh) { card.replaceWith(fresh); select(fresh); } else busy(card, false);
      return;
    }
    if (r.status === 409) { say("Proposal #" + id + " was already decided elsewhere.", "err"); removeCard(card); return; }
    busy(card, false);
    say(message(r), "err");
  }
  async function reject(card) {
    var id = card.dataset.id;
    var reason = card.querySelector("input[name=reason]");
    busy(card, true);
    var r = await call("POST", "/proposals/" + id + "/reject", reason && reason.value ? { reason: reason.value } : {});
    if (r.retry) { busy(card, false); askToken(function () { reject(card); }); return; }
    if (r.ok || r.status === 409) { say(r.ok ? "Rejected proposal #" + id + "." : "Proposal #" + id + " was already decided elsewhere.", r.ok ? "ok" : "err"); removeCard(card); return; }
    busy(card, false);
    say(message(r), "err");
  }

  // --- quarantine ---
  async function release(card) {
    var id = card.dataset.id;
    busy(card, true);
    var r = await call("POST", "/quarantine/" + id + "/release", {});
    if (r.retry) { busy(card, false); askToken(function () { release(card); }); return; }
    if (r.ok) { say("Released #" + id + " into recall.", "ok"); removeCard(card); return; }
    busy(card, false);
    say(message(r), "err");
  }
  async function del(card, button) {
    var id = card.dataset.id;
    if (!button.hasAttribute("data-armed")) {
      button.setAttribute("data-armed", "");
      button.textContent = "Confirm delete #" + id;
      say("Press the delete button again to delete #" + id + " for good.");
      return;
    }
    busy(card, true);
    var r = await call("DELETE", "/quarantine/" + id);
    if (r.retry) { busy(card, false); askToken(function () { del(card, button); }); return; }
    if (r.ok) { say("Deleted #" + id + ".", "ok"); removeCard(card); return; }
    busy(card, false);
    say(message(r), "err");
  }

  panel.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button[data-act]") : null;
    if (!b) return;
    var card = b.closest("article.card");
    var act = b.getAttribute("data-act");
    if (act === "approve") approve(card);
    else if (act === "reject") reject(card);
    else if (act === "release") release(card);
    else if (act === "delete") del(card, b);
  });
  panel.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (!d.classList || !d.classList.contains("suggest") || !d.open || d.dataset.loaded) return;
    d.dataset.loaded = "1";
    load(d.dataset.src, d.querySelector(".suggest-body"));
  }, true);

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    if (tokenDialog.open) return;
    if (ev.key === "?") { ev.preventDefault(); if (help.open) help.close(); else help.showModal(); return; }
    if (help.open) return;
    var list = cards();
    if (!list.length) return;
    var cur = current();
    var i = cur ? list.indexOf(cur) : -1;
    if (ev.key === "j") { ev.preventDefault(); select(list[Math.min(i + 1, list.length - 1)]); }
    else if (ev.key === "k") { ev.preventDefault(); select(list[Math.max(i - 1, 0)]); }
    else if (document.body.dataset.panel === "review" && cur && ev.key === "a") { ev.preventDefault(); approve(cur); }
    else if (document.body.dataset.panel === "review" && cur && ev.key === "r") { ev.preventDefault(); reject(cur); }
  });

  // --- panel loading ---
  var sort = document.getElementById("sort");
  function reviewUrl() { return panel.dataset.src + (sort ? "?sort=" + encodeURIComponent(sort.value) : ""); }
  if (sort) sort.addEventListener("change", function () { load(reviewUrl(), panel); });
  var recallForm = document.getElementById("recall-form");
  if (recallForm) {
    var q = document.getElementById("recall-q");
    var run = function () {
      if (!q.value.trim()) return;
      history.replaceState(null, "", "/app/recall?q=" + encodeURIComponent(q.value));
      say("");
      load("/app/fragments/recall?q=" + encodeURIComponent(q.value), panel, function () { say("Recall done.", "ok"); });
    };
    recallForm.addEventListener("submit", function (ev) { ev.preventDefault(); run(); });
    var initial = new URLSearchParams(location.search).get("q");
    if (initial) { q.value = initial; run(); }
  }
  if (panel.dataset.src) load(document.body.dataset.panel === "review" ? reviewUrl() : panel.dataset.src, panel);
})();
`;
