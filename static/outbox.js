// What this phone types and taps on a game page, kept on the phone until the server has it
// (docs/architecture.md, "What the phone keeps"). Two stores in localStorage, which outlives a reload, a closed
// tab and a browser restart, and works on a plain http address too (nothing here needs a secure context):
//
// - The entry of the hand being played (form[data-entry]: who went out, each player's leftover cards, tapped or
//   typed, and the totals), under "rummy-entry:<game>:<hand>", written on every change and put back when the
//   page opens again. This script runs before the card picker and the scoreboard (the order of the <script>
//   tags), so the chips and the penalties are drawn from the entry put back. An entry is dropped when its hand
//   is recorded: a game page (its edit link) whose form is for another hand, or that has no form (the game
//   over), drops every entry of that game but the form's own; another game has other keys.
// - The outbox, "rummy-outbox": every write sent from a form[data-outbox] (a hand saved, a buy, a player going
//   down, a correction), each with an id made here that the server keeps with the change it makes, so that a
//   write sent twice is applied once. Writes go out one at a time, in the order tapped. One that meets no server
//   (offline, or the server restarting) stays, is shown as waiting, and is sent again by itself: when the
//   browser says it is online, when a poll of the board gets through, on a timer (2 s, doubling up to 30 s), and
//   when the page opens again.
//
// Without JavaScript, or without storage, the forms post as before.
(function () {
  "use strict";
  var PREFIX = "rummy-entry:";
  var KEEP_DAYS = 30;  // an entry for a game never opened again is dropped after this
  var SKIP = { csrf_token: 1, hand: 1, version: 1, request_id: 1 };  // what the server draws afresh every time

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
    put(PREFIX + form.dataset.entry, Object.keys(got).length ? { fields: got, at: Date.now() } : null);
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
    if (zone) { tidy(zone.dataset.entryGame, form && form.dataset.entry ? PREFIX + form.dataset.entry : null); }
    if (!form || form.dataset.entryWatched) { return; }
    form.dataset.entryWatched = "1";
    var kept = read(PREFIX + form.dataset.entry);
    // A form the server drew with entries (a refusal; a hand just undone) shows what it drew unless this phone
    // has an entry of its own for the hand: that is what this phone typed last.
    if (kept && kept.fields) { putBack(form, kept.fields); } else { keep(form); }
    var save = function () { keep(form); };
    // typed text and totals (input), who went out and the exact cut (change), the pad, a chip taken off, the
    // pad's undo (cards-changed, static/picker.js)
    ["input", "change", "cards-changed"].forEach(function (name) { form.addEventListener(name, save); });
  }

  // ------------------------------------------------------------------ the outbox: writes not yet acknowledged
  var OUTBOX = "rummy-outbox";
  var page = location.pathname;  // a game's page: its writes are sent from here only (the link they were typed on)
  var status = document.getElementById("outbox-status");
  var busy = false, timer = null, wait = 2000, tokenTries = 0;

  function all() { return read(OUTBOX) || []; }
  function here() { return all().filter(function (i) { return i.page === page; }); }
  function drop(id) { put(OUTBOX, all().filter(function (i) { return i.id !== id; })); }
  function newId() {  // (crypto.randomUUID needs a secure context; getRandomValues does not)
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }
  function currentToken() {
    var t = document.querySelector("input[name=csrf_token]");
    return t ? t.value : "";
  }

  // ------------------------------------------------------------------ what waits, shown
  function say(text) {
    if (!status) { return; }
    status.textContent = text;
    status.hidden = !text;
    // the end-of-hand form's docked pad sits above this bar, not under it (static/style.css, .pad-dock)
    document.documentElement.style.setProperty("--outbox-h", text ? status.offsetHeight + "px" : "0px");
  }
  function show() {
    var items = here();
    if (!status) { return; }
    if (!items.length) { say(""); return; }
    var list = items.map(function (i) { return i.label; }).join(", ");
    say((busy ? status.dataset.sending : status.dataset.waiting).replace("{list}", list));
  }

  // A buy or a player going down that waits is shown on the board as if made (marked as waiting), and again after
  // every redraw of the board, until the server's board shows it.
  // a "gone down" toggle's visible words (its name goes on with the player's, for a screen reader)
  function stateOf(button) { return button.querySelector(".state") || button; }
  function marks() {
    var board = document.getElementById("board");
    if (!board) { return; }
    var hand = (board.dataset.hand || "").split("-")[0];
    board.querySelectorAll("form[data-kind=buy], form[data-kind=down]").forEach(function (form) {
      var cell = form.closest("td"), count = cell.querySelector(".count"), button = form.querySelector("button");
      var down = form.querySelector("input[name=down]");
      if (form.dataset.kind === "buy" && count) {  // as the server drew it, before any waiting tap
        count.dataset.drawn = count.dataset.drawn || count.textContent;
        count.textContent = count.dataset.drawn;
      } else if (form.dataset.kind === "down" && button && down) {
        form.dataset.drawn = form.dataset.drawn || down.value;
        var isDown = form.dataset.drawn !== "1";
        button.setAttribute("aria-pressed", isDown ? "true" : "false");
        stateOf(button).textContent = isDown ? button.dataset.on : button.dataset.off;
        down.value = form.dataset.drawn;
      }
      cell.classList.remove("waiting");
    });
    here().forEach(function (i) {
      if (String(i.hand) !== hand || (i.kind !== "buy" && i.kind !== "down")) { return; }
      var form = board.querySelector("form[data-kind=" + i.kind + "][data-seat='" + i.seat + "']");
      if (!form) { return; }
      form.closest("td").classList.add("waiting");
      if (i.kind === "buy") {
        var count = form.closest("td").querySelector(".count");
        var m = count && /^(\d+)(.*)$/.exec(count.textContent.trim());
        if (m) { count.textContent = Math.max(0, Number(m[1]) + (i.undo ? -1 : 1)) + m[2]; }
      } else {
        var button = form.querySelector("button");
        var down = form.querySelector("input[name=down]");
        button.setAttribute("aria-pressed", i.undo ? "false" : "true");
        stateOf(button).textContent = i.undo ? button.dataset.off : button.dataset.on;
        if (down) { down.value = i.undo ? "1" : "0"; }
      }
    });
  }

  // ------------------------------------------------------------------ sending
  function later() {
    clearTimeout(timer);
    if (!here().length) { return; }
    timer = setTimeout(flush, wait);
    wait = Math.min(wait * 2, 30000);
  }
  function body(item) {
    var params = new URLSearchParams(item.body);
    params.set("csrf_token", currentToken() || params.get("csrf_token") || "");
    params.set("request_id", item.id);
    return params;
  }
  function swap(html, ids) {
    if (window.rummyBoard) { window.rummyBoard.swap(html, ids); }
  }
  function fresh(html) {  // a form token from a page drawn for this phone's session now
    var m = /name="csrf_token" value="([^"]+)"/.exec(html);
    if (m) { document.querySelectorAll("input[name=csrf_token]").forEach(function (i) { i.value = m[1]; }); }
  }
  function answered(item, resp) {
    var go = resp.headers.get("HX-Redirect");
    if (resp.status === 204 || go) {  // a hand recorded (or recorded already by this same request)
      drop(item.id);
      if (item.entry) { put(PREFIX + item.entry, null); }
      try { window.sessionStorage.setItem("rummy-show-scores", "1"); } catch (e) { /* the page opens at its top */ }
      location.assign(go || page);
      return Promise.resolve(false);
    }
    return resp.text().then(function (html) {
      if (resp.status === 400 && tokenTries < 1) {  // the form token of another session (a browser restart)
        tokenTries += 1;
        return fetch(page, { credentials: "same-origin", cache: "no-store" })
          .then(function (r) { return r.text(); }).then(function (p) { fresh(p); return true; });
      }
      tokenTries = 0;
      drop(item.id);
      if (resp.ok) {  // a buy or a player going down: the board as the server has it now, and what it said
        swap(html, ["board", "game-foot", "flashes"]);
        if (item.kind === "buy") {  // a refusal's one-tap buy (templates/games/game.html) has done its work
          document.querySelectorAll(".buy-hint[data-seat='" + item.seat + "']").forEach(function (h) { h.remove(); });
        }
        var board = document.getElementById("board");
        if (board && board.dataset.version) { rebase(Number(board.dataset.version)); }
      } else if (/id="record-zone"/.test(html)) {  // refused, or another phone's save came first: said in the form
        if (item.entry && resp.status === 409) { put(PREFIX + item.entry, null); }
        swap(html, ["board", "record-zone", "game-foot"]);
        var zone = document.getElementById("record-zone");
        if (zone) { zone.scrollIntoView({ block: "start" }); }
      } else {  // the link no longer opens the game, or the request was refused as a whole: said as the page says it
        var doc = new DOMParser().parseFromString(html, "text/html");
        var said = doc.querySelector("main .verdict, main p, main h1");
        var flashes = document.getElementById("flashes");
        if (flashes && said) {
          flashes.textContent = "";
          var div = document.createElement("div");
          div.className = "flash warning";
          div.textContent = item.label + ": " + said.textContent.trim();
          flashes.appendChild(div);
        }
      }
      return true;
    });
  }
  // A hand waiting behind this phone's own buy or "gone down" was typed on the game as it was before that write,
  // which moved the game's version on by one: it goes with the version the write left, so that only another
  // phone's change (which this phone has not shown) stops it.
  function rebase(version) {
    put(OUTBOX, all().map(function (i) {
      if (i.page !== page || i.kind !== "hand") { return i; }
      var params = new URLSearchParams(i.body);
      if (Number(params.get("version")) === version - 1) { params.set("version", String(version)); }
      i.body = params.toString();
      return i;
    }));
  }

  function flush() {
    clearTimeout(timer);
    var item = here()[0];
    if (busy || !item) { show(); return; }
    if (navigator.onLine === false) { show(); later(); return; }
    busy = true;
    show();
    fetch(item.action, { method: "POST", body: body(item), credentials: "same-origin", cache: "no-store",
                         headers: { "HX-Request": "true" } })
      .then(function (resp) {
        if (resp.status >= 500 || resp.status === 0) { throw new Error("server " + resp.status); }
        return answered(item, resp);
      })
      .then(function (more) {
        busy = false;
        wait = 2000;
        if (more) { flush(); }
      })
      .catch(function () {  // not answered: kept, and sent again
        busy = false;
        show();
        marks();
        later();
      });
  }

  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-outbox]")) { return; }
    e.preventDefault();
    e.stopPropagation();
    var data = new FormData(form);
    if (e.submitter && e.submitter.name) { data.append(e.submitter.name, e.submitter.value); }
    if (e.submitter && e.submitter.getAttribute("aria-disabled") === "true") { return; }
    var undo = data.get("action") === "remove" || (form.dataset.kind === "down" && data.get("down") !== "1");
    // the address from the attribute: a form holding a button named "action" answers form.action with the button
    var item = { id: newId(), page: page, action: new URL(form.getAttribute("action") || "", location.href).href,
                 body: new URLSearchParams(data).toString(),
                 kind: form.dataset.kind, label: undo ? form.dataset.undo : form.dataset.outbox, undo: undo,
                 seat: form.dataset.seat, hand: data.get("hand"), entry: form.dataset.entry || null, at: Date.now() };
    if (form.dataset.entry) { keep(form); }
    put(OUTBOX, all().concat([item]));
    marks();
    wait = 2000;
    flush();
  }, true);

  window.addEventListener("online", function () { wait = 2000; flush(); });
  document.addEventListener("rummy:board", function () { marks(); });
  document.addEventListener("rummy:reached", function () { if (here().length && !busy) { wait = 2000; flush(); } });
  document.addEventListener("rummy:swapped", function () { watch(document); });
  window.rummyOutbox = { pending: function () { return here().length; } };

  watch(document);
  marks();
  flush();
})();
