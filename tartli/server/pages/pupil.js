// A pupil in a class (issue 37), on every page the course's server serves: the course map shows a box
// to join the class (the code from the teacher, or from a link ?class=CODE, and a first name) or to
// leave it; every page then reports the pupil's progress (the course's keys in this browser, the page
// and the step) to the server when it changes, and once a minute while the page is shown. A report the
// server cannot take now (busy, offline) is sent again later: the progress stays in this browser.
// The server fills in WORDS (the page's language) and BASE (its address).
(function () {
  "use strict";
  var WORDS = __WORDS__;
  var BASE = __BASE__;
  var CLASSES = __CLASSES__;  // has this server any class? (else the map shows no box, unless a link names one)
  var KEY = "tartli-class";  // {"token", "name", "className"}: not a progress key (those start "tartli.")
  var GONE_KEY = "tartli-class-gone";  // set when the server said this pupil is gone: the map says so until a join
  var HEARTBEAT_MS = 60000, CHECK_MS = 2000, RETRY_MS = 10000;

  function load() {
    try {
      var kept = JSON.parse(window.localStorage.getItem(KEY) || "null");
      return kept && typeof kept.token === "string" ? kept : null;
    } catch (e) { return null; }
  }
  function save(value) {
    try {
      if (value) { window.localStorage.setItem(KEY, JSON.stringify(value)); } else { window.localStorage.removeItem(KEY); }
    } catch (e) { /* storage blocked: the class lasts as long as this page */ }
  }
  function gone(value) {  // did a page of this browser learn that the teacher removed this pupil (or closed the class)?
    try {
      if (value === undefined) { return window.localStorage.getItem(GONE_KEY) === "1"; }
      if (value) { window.localStorage.setItem(GONE_KEY, "1"); } else { window.localStorage.removeItem(GONE_KEY); }
    } catch (e) { /* storage blocked */ }
    return false;
  }
  function post(action, body) {
    return fetch(BASE + "tartli/class/" + action, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
      credentials: "same-origin", cache: "no-store"
    });
  }

  // ------------------------------------------------------------------ a seat at a table for two browsers
  // (issue 38: table.ipynb?duel=CODE) The page tells the server its player is here, every 20 s while it is
  // shown and at once when it is shown again; a player whose page went quiet for 2 minutes is away, and the
  // other may let the computer play for them. The seat's cookie goes with it (same site).
  var duel = (new URL(window.location.href)).searchParams.get("duel");
  if (duel) {
    var seen = function () {
      if (document.visibilityState !== "visible") { return; }
      fetch(BASE + "tartli/duel/seen", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code: duel }),
        credentials: "same-origin", cache: "no-store"
      }).catch(function () { /* offline for a moment: the next one tells */ });
    };
    seen();
    window.setInterval(seen, 20000);
    document.addEventListener("visibilitychange", seen);
  }

  // ------------------------------------------------------------------ the reports
  var page = (window.location.pathname.match(/([^/]+\.ipynb)$/) || [])[1] || null;
  function lessonStep() {
    var found = /^#step-(\d+)$/.exec(window.location.hash || "");
    if (found) { return parseInt(found[1], 10); }
    try { return parseInt(window.localStorage.getItem("tartli.steps." + page.replace(/\.ipynb$/, "")) || "0", 10) || 0; }
    catch (e) { return 0; }
  }
  function progress() {
    var have = {};
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var key = window.localStorage.key(i);
        if (key && key.indexOf("tartli.") === 0 && key.indexOf("tartli.table.") !== 0) {
          have[key] = window.localStorage.getItem(key);
        }
      }
    } catch (e) { /* blocked */ }
    return have;
  }
  var sent = null, sentAt = 0, waitUntil = 0, busy = false;
  function report(force) {
    var pupil = load();
    if (!pupil || !page || busy || Date.now() < waitUntil) { return; }
    var body = { token: pupil.token, progress: progress(), page: page, step: lessonStep() };
    var print = JSON.stringify([body.progress, body.step]);
    var due = document.visibilityState === "visible" && Date.now() - sentAt > HEARTBEAT_MS;
    if (print === sent && !due && !force) { return; }
    busy = true;
    post("report", body).then(function (response) {
      busy = false;
      if (response.status === 204) { sent = print; sentAt = Date.now(); return; }
      if (response.status === 403) {  // removed, or the class closed (not: left meanwhile, by this very page)
        var still = load();
        if (still && still.token === pupil.token) { save(null); gone(true); notice(WORDS.gone); draw(); }
        return;
      }
      waitUntil = Date.now() + RETRY_MS;  // busy, or refused: the progress stays here, sent again later
    }).catch(function () { busy = false; waitUntil = Date.now() + RETRY_MS; });
  }
  window.setTimeout(function () { report(true); }, 1500);
  window.setInterval(function () { report(false); }, CHECK_MS);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { report(true); } });

  // ------------------------------------------------------------------ the course map's box
  var onMap = /00_index\.ipynb$/.test(window.location.pathname);
  var box = null, said = null;
  function notice(text) { if (said) { said.textContent = text; } }
  function element(tag, attrs, text) {
    var made = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { made.setAttribute(name, attrs[name]); });
    if (text) { made.textContent = text; }
    return made;
  }
  function draw() {
    if (!box) { return; }
    // a page that learnt the pupil is gone (perhaps a lesson's, which has no box) told this browser: the map says why
    var keep = said ? said.textContent : (gone() && !load() ? WORDS.gone : "");
    box.textContent = "";
    box.appendChild(element("h2", { id: "tartli-class-title" }, WORDS.title));
    var pupil = load();
    if (pupil) {
      box.appendChild(element("p", {}, WORDS.inClass.replace("{class}", pupil.className || "").replace("{name}", pupil.name)));
      box.appendChild(element("p", { "class": "tartli-class-small" }, WORDS.whatIsSent));
      var leave = element("button", { type: "button", id: "tartli-class-leave" }, WORDS.leave);
      leave.addEventListener("click", function () {
        if (!window.confirm(WORDS.leaveAsk)) { return; }
        leave.disabled = true;
        post("leave", { token: pupil.token }).then(function (response) {
          if (response.status === 204 || response.status === 403) { save(null); gone(false); keep = WORDS.left; }
          else { keep = WORDS.busy; }
          draw(); notice(keep);
        }).catch(function () { leave.disabled = false; notice(WORDS.busy); });
      });
      box.appendChild(leave);
      // the class's tables for two (issue 38): how many wait for a player, and the way to them
      var tables = element("p", { id: "tartli-class-tables" }, "");
      box.appendChild(tables);
      fetch(BASE + "tartli/duel/lobby", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pupil: pupil.token }),
        credentials: "same-origin", cache: "no-store"
      }).then(function (response) { return response.ok ? response.json() : { tables: [] }; }).then(function (answer) {
        var open = (answer.tables || []).filter(function (t) { return t.status === "waiting"; }).length;
        var link = element("a", { href: BASE + "tartli/duel" }, WORDS.playClassmate);
        if (open) { tables.appendChild(document.createTextNode(WORDS.tablesOpen.replace("{n}", String(open)) + " ")); }
        tables.appendChild(link);
      }).catch(function () { /* no lobby now: the link comes with the next look */ });
    } else {
      box.appendChild(element("p", {}, WORDS.invite));
      var form = element("form", { "class": "tartli-class-form", novalidate: "" });
      var asked = (new URL(window.location.href)).searchParams.get("class") || "";
      var code = element("input", { id: "tartli-class-code", name: "code", autocomplete: "off", autocapitalize: "characters",
                                    spellcheck: "false", maxlength: "12", value: asked.slice(0, 12) });
      var name = element("input", { id: "tartli-class-name", name: "name", autocomplete: "given-name", maxlength: "40" });
      var codeLabel = element("label", { "for": "tartli-class-code" }, WORDS.code);
      var nameLabel = element("label", { "for": "tartli-class-name" }, WORDS.name);
      var join = element("button", { type: "submit", id: "tartli-class-join" }, WORDS.join);
      [codeLabel, code, nameLabel, name, join].forEach(function (part) { form.appendChild(part); });
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        if (!code.value.trim()) { notice(WORDS.noCode); code.focus(); return; }
        if (!name.value.trim()) { notice(WORDS.noName); name.focus(); return; }
        join.disabled = true;
        post("join", { code: code.value, name: name.value }).then(function (response) {
          return response.json().catch(function () { return {}; }).then(function (answer) {
            join.disabled = false;
            if (response.status === 200 && answer.token) {
              save({ token: answer.token, name: answer.name, className: answer["class"] || "" }); gone(false);
              sent = null; draw(); notice(WORDS.joined); report(true);
            } else if (response.status === 403) { notice(WORDS.wrongCode); code.focus(); }
            else if (response.status === 429) { notice(WORDS.tooMany); }
            else if (response.status === 400) { notice(WORDS.noName); name.focus(); }
            else { notice(WORDS.busy); }
          });
        }).catch(function () { join.disabled = false; notice(WORDS.busy); });
      });
      box.appendChild(form);
      if (asked) { window.setTimeout(function () { name.focus(); }, 0); }
    }
    said = element("p", { "class": "tartli-class-said", role: "status", "aria-live": "polite" }, keep);
    box.appendChild(said);
  }
  var named = Boolean((new URL(window.location.href)).searchParams.get("class"));
  var told = gone() && !load();  // the map tells it once, also when the class is closed (no class left on the server)
  if (onMap && (CLASSES || named || load() || told)) {
    var style = element("style", {});
    style.textContent =
      ".tartli-class{max-width:1076px;margin:8px auto 0;padding:8px 12px;border:1px solid #cfd8d2;border-radius:8px;" +
      "background:#f6faf7;font:16px/1.45 'Segoe UI','Helvetica Neue',Arial,'DejaVu Sans',sans-serif;color:#1f2d24}" +
      ".tartli-class h2{font-size:18px;margin:0 0 4px}.tartli-class p{margin:4px 0}" +
      ".tartli-class-small{color:#4a5a50;font-size:14px}" +
      ".tartli-class-form{display:flex;flex-wrap:wrap;gap:6px 10px;align-items:center}" +
      ".tartli-class input{font:inherit;min-height:44px;padding:4px 8px;border:1px solid #6b7a70;border-radius:4px;width:10em}" +
      ".tartli-class button{font:inherit;min-height:44px;min-width:44px;padding:6px 14px;cursor:pointer;border-radius:4px;" +
      "border:1px solid #1d4ed8;background:#1d4ed8;color:#fff}" +
      "#tartli-class-leave{background:#fff;color:#b42318;border-color:#b42318}" +
      ".tartli-class-said:empty{display:none}.tartli-class-said{font-weight:600}" +
      "@media print{.tartli-class{display:none}}";
    document.head.appendChild(style);
    box = element("section", { "class": "tartli-class", "aria-labelledby": "tartli-class-title" });
    var nav = document.querySelector("nav.tartli-languages");
    if (nav && nav.parentNode) { nav.parentNode.insertBefore(box, nav.nextSibling); } else { document.body.insertBefore(box, document.body.firstChild); }
    draw();
    if (told) { gone(false); }
  }
})();
