// What this phone types and taps on a game page, kept on the phone until the server has it
// (docs/architecture.md, "What the phone keeps"). Today: the entry of the hand being played.
//
// The end-of-hand form (form[data-entry]: who went out, each player's leftover cards, tapped or typed, and the
// totals) is written to localStorage under "rummy-entry:<game>:<hand>" on every change, and put back when the
// page opens again: after a reload, Back, a closed tab or a browser restart. localStorage works on a plain http
// address too (nothing here needs a secure context). This script runs before the card picker and the
// scoreboard (the order of the <script> tags), so the chips and the penalties are drawn from the entry put back.
//
// An entry is dropped when its hand is recorded: a game page (its edit link) whose form is for another hand,
// or that has no form (the game over), drops every entry of that game but the form's own. So another phone's
// save of the hand never leaves this phone's entry in the next hand's form, and another game never sees it.
// Without JavaScript, or without storage, the form works as before.
(function () {
  "use strict";
  var PREFIX = "rummy-entry:";
  var KEEP_DAYS = 30;  // an entry for a game never opened again is dropped after this
  var SKIP = { csrf_token: 1, hand: 1, version: 1 };  // what the server draws afresh every time

  function store() {
    try { return window.localStorage; } catch (e) { return null; }  // (blocked by the browser's settings)
  }
  function read(key) {
    var s = store();
    if (!s) { return null; }
    try { return JSON.parse(s.getItem(key) || "null"); } catch (e) { return null; }
  }
  function put(key, value) {
    var s = store();
    if (!s) { return; }
    try {
      if (value === null) { s.removeItem(key); } else { s.setItem(key, JSON.stringify(value)); }
    } catch (e) { /* storage full: the form still works, only a reload would lose it */ }
  }
  function keys() {
    var s = store(), out = [];
    if (!s) { return out; }
    for (var i = 0; i < s.length; i += 1) {
      var k = s.key(i);
      if (k && k.indexOf(PREFIX) === 0) { out.push(k); }
    }
    return out;
  }

  function fields(form) {  // the form's fields as typed now (disabled ones too: a seat that went out keeps its cards)
    var got = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || SKIP[el.name]) { return; }
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked) { got[el.name] = el.value; }
      } else if (el.value) {
        got[el.name] = el.value;
      }
    });
    return got;
  }
  function keep(form) {
    var got = fields(form);
    put(form.dataset.entry, Object.keys(got).length ? { fields: got, at: Date.now() } : null);
  }
  function putBack(form, kept) {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || SKIP[el.name]) { return; }
      var value = Object.prototype.hasOwnProperty.call(kept, el.name) ? kept[el.name] : null;
      if (el.type === "radio" || el.type === "checkbox") { el.checked = value !== null && el.value === value; }
      else if (el.type !== "submit" && el.type !== "button") { el.value = value === null ? "" : value; }
    });
    form.dataset.touched = "1";  // (the scoreboard then leaves the form alone when another phone moves the game on)
  }

  // Entries of this game for other hands are recorded (or undone and typed again elsewhere); entries of any game
  // older than KEEP_DAYS were never sent.
  function tidy(game, current) {
    var old = Date.now() - KEEP_DAYS * 24 * 3600 * 1000;
    keys().forEach(function (k) {
      var kept = read(k);
      var ours = game && k.indexOf(PREFIX + game + ":") === 0;
      if ((ours && k !== current) || !kept || !(kept.at > old)) { put(k, null); }
    });
  }

  function watch(root) {
    var zone = root.querySelector("[data-entry-game]");
    var form = root.querySelector("form[data-entry]");
    if (zone) { tidy(zone.dataset.entryGame, form ? form.dataset.entry : null); }
    if (!form || form.dataset.entryWatched) { return; }
    form.dataset.entryWatched = "1";
    var kept = read(form.dataset.entry);
    // A form the server drew with entries (a refusal; a hand just undone) shows what it drew unless this phone
    // has an entry of its own for the hand: that is what this phone typed last.
    if (kept && kept.fields) { putBack(form, kept.fields); } else { keep(form); }
    var save = function () { keep(form); };
    // typed text and totals (input), who went out and the exact cut (change), the pad, a chip taken off, the
    // pad's undo (cards-changed, static/picker.js)
    ["input", "change", "cards-changed"].forEach(function (name) { form.addEventListener(name, save); });
  }

  watch(document);
  // the end-of-hand form drawn again in place (another phone moved the game on: static/scoreboard.js)
  document.body.addEventListener("htmx:afterSwap", function () { watch(document); });
})();
