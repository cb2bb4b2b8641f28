// Aids for a phone left on the table: keep the screen awake while a game is open, and share its links.
// Each is offered only where the browser has what it needs; without them the pages work as before.
(function () {
  "use strict";

  // --- keep the screen awake (Screen Wake Lock): on by default, a toggle to turn it off, released when the
  // page is hidden (the browser drops it then anyway) and asked for again when the page is shown
  var wake = document.getElementById("wake-toggle");
  if (wake && navigator.wakeLock && typeof navigator.wakeLock.request === "function") {
    var KEY = "rummy-keep-awake";
    var lock = null;
    var wanted = true;
    try { wanted = window.localStorage.getItem(KEY) !== "off"; } catch (e) { /* storage blocked: default */ }
    var show = function () {
      wake.setAttribute("aria-pressed", lock ? "true" : "false");
    };
    var acquire = function () {
      if (!wanted || lock || document.visibilityState !== "visible") { show(); return; }
      navigator.wakeLock.request("screen").then(function (l) {
        if (!wanted || document.visibilityState !== "visible") { l.release(); return; }
        lock = l;
        l.addEventListener("release", function () { if (lock === l) { lock = null; show(); } });
        show();
      }).catch(function () { lock = null; show(); });
    };
    var release = function () {
      var l = lock;
      lock = null;
      if (l) { l.release(); }
      show();
    };
    wake.hidden = false;
    wake.addEventListener("click", function () {
      wanted = !lock;
      try { window.localStorage.setItem(KEY, wanted ? "on" : "off"); } catch (e) { /* not remembered */ }
      if (wanted) { acquire(); } else { release(); }
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { acquire(); } else { release(); }
    });
    acquire();
  }

  // --- share a link: copy it, or hand it to the phone's share sheet (Web Share API)
  document.querySelectorAll(".share-link").forEach(function (box) {
    var text = box.querySelector(".link-text");
    var copy = box.querySelector("button.copy-link");
    var send = box.querySelector("button.send-link");
    var said = box.querySelector(".copied");
    if (copy && navigator.clipboard && window.isSecureContext) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        navigator.clipboard.writeText(text.value).then(function () {
          said.textContent = copy.dataset.done;
        }).catch(function () {
          text.focus(); text.select(); said.textContent = copy.dataset.failed;
        });
      });
    }
    if (send && typeof navigator.share === "function") {
      send.hidden = false;
      send.addEventListener("click", function () {
        navigator.share({ title: send.dataset.title, text: send.dataset.text, url: text.value }).catch(function () {});
      });
    }
  });
})();
