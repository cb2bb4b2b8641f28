// On every page: register the service worker, and keep the rules page being read for offline reading.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) { return; }
  navigator.serviceWorker.register("/sw.js").then(function () {
    return navigator.serviceWorker.ready;
  }).then(function () {
    if (window.caches && document.body.dataset.offline === "keep") {
      caches.open("rules-pages-v1").then(function (c) { return c.add(location.href); }).catch(function () {});
    }
  }).catch(function () {});
})();
