// The scoreboard in the browser: live updates of the board, and the penalty of the leftover cards worked out
// as they are tapped into the card picker (static/picker.js). Everything here is an aid: the forms work without it.
(function () {
  "use strict";

  // --- live board: ask every few seconds while the page is visible; 304 while nothing changed
  // The board carries the tag of the version it shows, so the first poll after a page load or an htmx swap is
  // a 304 too, and the board is only re-drawn when the game changed.
  var board = document.getElementById("board");
  var etag = board && board.dataset.etag || null;
  document.body.addEventListener("htmx:configRequest", function (e) {
    if (etag && e.detail.verb === "get" && e.detail.path.slice(-6) === "/board") {
      e.detail.headers["If-None-Match"] = etag;
    }
  });
  document.body.addEventListener("htmx:beforeSwap", function (e) {
    // An unchanged board (304) has no body: keep the board as it is rather than swap in nothing.
    if (e.detail.xhr && e.detail.xhr.status === 304) { e.detail.shouldSwap = false; }
  });
  document.body.addEventListener("htmx:afterRequest", function (e) {
    var tag = e.detail.xhr && e.detail.xhr.status === 200 && e.detail.xhr.getResponseHeader("ETag");
    if (tag) { etag = tag; }
  });
  document.body.addEventListener("htmx:afterSwap", function (e) {
    var b = document.getElementById("board"), zone = document.getElementById("record-zone");
    if (b && b.dataset.etag) { etag = b.dataset.etag; }
    if (!b || !zone || e.detail.target !== b && e.detail.elt !== b) { return; }
    // The end-of-hand form says which version of the game this phone last showed: a save is refused only if
    // the game changed after that (another phone's undo a moment ago), never for a change the board shows.
    var form = document.getElementById("record");
    var seen = form && form.querySelector("input[name=version]");
    if (seen && b.dataset.version && b.dataset.hand === zone.dataset.hand) { seen.value = b.dataset.version; }
    // Another phone moved the game on to a new hand: bring the end-of-hand form along, unless this phone has
    // started filling it in (then its save is answered with what happened, and nothing typed is lost).
    if (b.dataset.hand !== zone.dataset.hand && !(form && form.dataset.touched)) {
      window.htmx.ajax("GET", window.location.pathname + window.location.search,
                       { target: "#record-zone", select: "#record-zone", swap: "outerHTML" });
    }
  });
  document.body.addEventListener("htmx:afterSettle", function (e) {
    if (e.detail.target && e.detail.target.id === "record-zone") { initRecord(); }
  });
  if (board && window.htmx) {
    setInterval(function () {
      var b = document.getElementById("board");
      if (b && document.visibilityState === "visible") { window.htmx.trigger(b, "poll"); }
    }, 3000);
  }

  // --- the setup form: a new family re-draws the form
  document.querySelectorAll("select.autosubmit").forEach(function (sel) {
    sel.addEventListener("change", function () {
      var b = sel.form.querySelector("button[value=update]");
      if (b) { b.click(); }
    });
  });
  document.querySelectorAll(".js-hide").forEach(function (el) { el.classList.add("hidden-by-js"); });

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
