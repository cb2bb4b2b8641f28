// On every page: register the service worker (static/sw.js), and keep the page being read for offline use when
// it asks to be kept (a game, the rules). Where the browser has no service worker (a plain http address on a
// LAN), pages work as before, and a game's page still keeps what is typed and tapped (static/outbox.js).
(function () {
  "use strict";
  // htmx (17 KB compressed, a third of a first visit on a weak signal) is fetched when a form that uses it is
  // first touched (data-htmx names its file), not with the page: the form posts as a plain form until then
  var form = document.querySelector("form[data-htmx]");
  function loadHtmx() {
    document.removeEventListener("focusin", touched, true);
    document.removeEventListener("pointerdown", touched, true);
    var s = document.createElement("script");
    s.src = form.dataset.htmx;
    s.onload = function () { if (window.htmx) { window.htmx.process(document.body); } };
    document.head.appendChild(s);
  }
  function touched(e) { if (form.contains(e.target)) { loadHtmx(); } }
  if (form) {
    document.addEventListener("focusin", touched, true);
    document.addEventListener("pointerdown", touched, true);
  }
  // a player's name cut with … in a narrow column reads whole while it is tapped; a tap elsewhere cuts it again
  document.addEventListener("click", function (e) {
    var tapped = e.target.closest ? e.target.closest(".pname[data-reveal]") : null;
    document.querySelectorAll(".pname.whole").forEach(function (n) { if (n !== tapped) { n.classList.remove("whole"); } });
    if (tapped) { tapped.classList.toggle("whole"); }
  });
  if (!("serviceWorker" in navigator)) { return; }
  var controlled = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.register("/sw.js").then(function () {
    return navigator.serviceWorker.ready;
  }).then(function () {
    // a page opened before the service worker took charge of it is kept now (afterwards the worker keeps it)
    if (window.caches && !controlled && document.body.dataset.offline === "keep") {
      caches.open("pages-v1").then(function (c) { return c.add(location.href); }).catch(function () {});
    }
  }).catch(function () {});
})();
