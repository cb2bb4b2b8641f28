// The scoreboard in the browser: live updates of the board, and the penalty of the leftover cards worked out
// as they are tapped into the card picker (static/picker.js). Everything here is an aid: the forms work without it.
(function () {
  "use strict";

  // --- live board: ask every few seconds while the page is visible; 304 while nothing changed
  // The board carries the tag of the version it shows, so the first poll after a page load or a redraw is a 304
  // too, and the board is only drawn again when the game changed. A poll that gets no answer (offline, the server
  // restarting) is tried again later and later, up to half a minute, and the page says since when the board has
  // not been checked; the first answer clears that.
  var board = document.getElementById("board");
  var etag = board && board.dataset.etag || null;
  var POLL = 3000, checkedAt = Date.now(), failures = 0, pollTimer = null, drawn = 0;
  var lang = document.documentElement.lang || "en";

  function swap(html, ids) {
    // What the server drew (a board fragment, or a whole game page) put in place of the elements of the same
    // ids; #flashes takes the messages only. Then the board's followers are told (the outbox, the end-of-hand
    // form).
    var doc = new DOMParser().parseFromString(html, "text/html");
    ids.forEach(function (id) {
      var now = document.getElementById(id), next = doc.getElementById(id);
      if (!now || !next) { return; }
      if (id === "flashes") { now.innerHTML = next.innerHTML; return; }
      next.removeAttribute("hx-swap-oob");
      now.replaceWith(document.adoptNode(next));
      if (id === "record-zone") { initZone(); }
    });
    if (ids.indexOf("board") >= 0) { drawn += 1; afterBoard(); }
  }
  window.rummyBoard = { swap: swap };

  function initZone() {
    var zone = document.getElementById("record-zone");
    if (!zone) { return; }
    zone.dispatchEvent(new CustomEvent("rummy:swapped", { bubbles: true }));
    initRecord();
  }

  function afterBoard() {
    var b = document.getElementById("board"), zone = document.getElementById("record-zone");
    if (!b) { return; }
    if (b.dataset.etag) { etag = b.dataset.etag; }
    document.dispatchEvent(new CustomEvent("rummy:board"));
    if (!zone) { return; }
    // The end-of-hand form says which version of the game this phone last showed: a save is refused only if
    // the game changed after that (another phone's undo a moment ago), never for a change the board shows.
    var form = document.getElementById("record");
    var seen = form && form.querySelector("input[name=version]");
    if (seen && b.dataset.version && b.dataset.hand === zone.dataset.hand) { seen.value = b.dataset.version; }
    // Another phone moved the game on to a new hand: bring the end-of-hand form along, unless this phone has
    // started filling it in (then its save is answered with what happened, and nothing typed is lost).
    if (b.dataset.hand !== zone.dataset.hand && !(form && form.dataset.touched)) {
      fetch(window.location.pathname + window.location.search, { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html) { swap(html, ["record-zone"]); } })
        .catch(function () { /* the next change of hand tries again */ });
    }
  }

  var staleNote = document.getElementById("board-stale");
  function ago() {
    var s = Math.round((Date.now() - checkedAt) / 1000);
    var rtf = window.Intl && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat(lang, { numeric: "always" }) : null;
    if (!rtf) { return new Date(checkedAt).toLocaleTimeString(lang); }
    // ("1 second ago" rather than "now": the scores were checked before, and the note says so)
    return s < 60 ? rtf.format(-Math.max(1, s), "second") : s < 3600 ? rtf.format(-Math.floor(s / 60), "minute")
      : rtf.format(-Math.floor(s / 3600), "hour");
  }
  function stale(on) {
    var b = document.getElementById("board");
    if (b) { b.classList.toggle("stale", on); }
    if (!staleNote) { return; }
    staleNote.hidden = !on;
    var words = navigator.onLine === false ? staleNote.dataset.offline : staleNote.dataset.text;  // (why, too)
    if (on) { staleNote.textContent = words.replace("{ago}", ago()); }
  }
  function later(ms) { clearTimeout(pollTimer); pollTimer = setTimeout(poll, ms); }
  function poll() {
    var b = document.getElementById("board");
    if (!b || !b.dataset.poll) { return; }
    if (navigator.onLine === false) { stale(true); later(POLL); return; }  // (no request the browser would fail)
    if (document.visibilityState !== "visible") { later(POLL); return; }
    var headers = etag ? { "If-None-Match": etag } : {}, asked = drawn;
    fetch(b.dataset.poll, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (r) {
        if (r.headers.get("X-Unreached")) { throw new Error("unreached"); }  // (said by static/sw.js)
        // A save's answer drew the board while this poll was on its way: that board is as new as this answer or
        // newer, so this answer is dropped rather than drawn over it.
        if (r.status === 304 || drawn !== asked) { return; }
        if (!r.ok) { throw new Error("poll " + r.status); }
        var tag = r.headers.get("ETag");
        return r.text().then(function (html) {
          swap(html, ["board", "game-foot"]);
          if (tag) { etag = tag; }
        });
      })
      .then(function () {
        failures = 0;
        checkedAt = Date.now();
        stale(false);
        document.dispatchEvent(new CustomEvent("rummy:reached"));
        later(POLL);
      })
      .catch(function () {
        failures += 1;
        stale(failures >= 2);
        later(Math.min(30000, POLL * Math.pow(2, failures - 1)));
      });
  }
  if (board && board.dataset.poll) {
    later(POLL);
    window.addEventListener("offline", function () { stale(true); });
    window.addEventListener("online", function () { later(0); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { later(0); }
    });
  }

  // --- after a hand is saved (static/outbox.js opens the game again), the new totals are in view: the page
  // scrolls as little as it takes to show the whole scores table (or its top, if it is taller than the screen)
  var shown = null;
  try {
    shown = window.sessionStorage.getItem("rummy-show-scores");
    window.sessionStorage.removeItem("rummy-show-scores");
  } catch (e) { shown = null; }
  var scores = shown && document.querySelector("#scores table.scores");
  if (scores) {
    if ("scrollRestoration" in history) { history.scrollRestoration = "manual"; }  // (the same URL opened again)
    var inView = function () {  // (the last player's row fully in view, the least scroll that does it)
      var rows = scores.querySelectorAll("tbody tr");
      if (rows.length) { rows[rows.length - 1].scrollIntoView({ block: "nearest" }); }
    };
    var settled = function () { inView(); setTimeout(inView, 150); };  // (and once the page has settled)
    if (document.readyState === "complete") { settled(); } else { window.addEventListener("load", settled); }
  }

  // --- the setup form: a new family re-draws the form
  document.querySelectorAll("select.autosubmit").forEach(function (sel) {
    sel.addEventListener("change", function () {
      var b = sel.form.querySelector("button[value=update]");
      if (b) { b.click(); }
    });
  });
  document.querySelectorAll(".js-hide").forEach(function (el) { el.classList.add("hidden-by-js"); });

  // --- the setup form: "who deals first" lists the names as they are typed (a seat left empty keeps its
  // "Player n" until then)
  var dealer = document.getElementById("first_dealer");
  if (dealer && dealer.form) {
    var seats = dealer.form.querySelectorAll("input[name=name]");
    var named = function () {
      seats.forEach(function (input, i) {
        var option = dealer.options[i];
        if (!option) { return; }
        option.dataset.seat = option.dataset.seat || option.textContent;
        option.textContent = input.value.trim() || input.getAttribute("aria-label") || option.dataset.seat;
      });
    };
    seats.forEach(function (input) { input.addEventListener("input", named); });
    named();
  }

  // --- leftover cards
  function initRecord() {
  var form = document.getElementById("record");
  if (!form) { return; }
  form.addEventListener("input", function () { form.dataset.touched = "1"; });
  form.addEventListener("click", function (e) { if (e.target.closest("button[data-rank], input")) { form.dataset.touched = "1"; } });
  var points = JSON.parse(form.dataset.points || "{}");
  // The card picker (static/picker.js) draws the chips and writes each field's cards, read, into its
  // data-cards (ranks in the notation, "?" for what is not a card): the penalty is worked out from those.
  function draw(fs) {
    var input = fs.querySelector("input[name^=cards_]");
    var out = fs.querySelector("output.penalty");
    var list = (input.dataset.cards || "").split(" ").filter(function (x) { return x; });
    var sum = 0, known = true;
    list.forEach(function (r) {
      if (points[r] === undefined) { known = false; } else { sum += points[r]; }
    });
    out.textContent = list.length ? (known ? "= " + sum : "?") : "";
  }
  function syncOut() {
    var chosen = form.querySelector("input[name=out]:checked");
    form.querySelectorAll("fieldset.leftovers").forEach(function (fs) {
      var isOut = chosen && chosen.value === fs.dataset.seat;
      fs.disabled = !!isOut;
      fs.classList.toggle("went-out", !!isOut);
    });
    var picker = form.querySelector(".picker");
    if (picker && picker.rummyPicker) { picker.rummyPicker.choose(); }  // the pad leaves who went out
  }
  form.querySelectorAll("fieldset.leftovers").forEach(function (fs) {
    fs.addEventListener("cards-changed", function () { draw(fs); });
    draw(fs);
  });
  form.querySelectorAll("input[name=out]").forEach(function (r) { r.addEventListener("change", syncOut); });
  syncOut();
  }
  initRecord();
})();
