// Aids for a phone left on the table: keep the screen awake while a game is open, and share its links.
// Where the browser lacks what one needs (a plain http address has no wake lock and no clipboard API), the page
// says so or does it the old way; without scripts the pages work as before.
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
  } else if (wake) {  // said, rather than a toggle that is not there
    var note = document.getElementById("wake-note");
    if (note) {
      note.textContent = window.isSecureContext ? note.dataset.unsupported : note.dataset.insecure;
      note.hidden = false;
    }
  }

  // --- share a link: copy it, or hand it to the phone's share sheet (Web Share API)
  document.querySelectorAll(".share-link").forEach(function (box) {
    var text = box.querySelector(".link-text");
    var copy = box.querySelector("button.copy-link");
    var send = box.querySelector("button.send-link");
    var said = box.querySelector(".copied");
    // The clipboard API needs a secure context; on a plain http address (a laptop on the LAN) the link is
    // selected and copied the old way, and where even that fails it stays selected for a copy by hand.
    var byHand = function () {
      text.focus();
      text.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (e) { done = false; }
      said.textContent = done ? copy.dataset.done : copy.dataset.failed;
    };
    if (copy) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(text.value).then(function () {
            said.textContent = copy.dataset.done;
          }).catch(byHand);
        } else {
          byHand();
        }
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
