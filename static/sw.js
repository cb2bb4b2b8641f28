// The service worker: the rules pages a phone has opened stay readable offline, with the styles and scripts
// they need. Everything else (scores, the referee, the API) always goes to the network: a stale scoreboard
// would be worse than an offline message.
//
// The app serves this file at /sw.js behind two lines it writes (referee/web/assets.py): STATIC, a cache name
// made of the static files' versions, and SHELL, their versioned URLs. A changed style sheet or script changes
// this script, so the browser installs it and the old cache is dropped; a versioned URL never changes content,
// so it is served from the cache first.
"use strict";
const PAGES = "rules-pages-v1";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== STATIC && k !== PAGES).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

function isRules(url) {
  return url.origin === self.location.origin && (url.pathname === "/rules" || url.pathname.startsWith("/rules/"));
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") { return; }
  const url = new URL(req.url);
  if (url.origin === self.location.origin && url.pathname.startsWith("/static/")) {
    // a versioned URL: the cache first; offline, a page kept from before an update takes any version it has
    event.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((resp) => {
      if (resp.ok && url.searchParams.has("v")) { const copy = resp.clone(); caches.open(STATIC).then((c) => c.put(req, copy)); }
      return resp;
    }).catch(() => caches.match(req, { ignoreSearch: true }).then((old) => old || Response.error()))));
    return;
  }
  if (isRules(url)) {
    // network first, so an online reader always gets the current text; the copy serves when offline
    event.respondWith(fetch(req).then((resp) => {
      if (resp.ok) { const copy = resp.clone(); caches.open(PAGES).then((c) => c.put(req, copy)); }
      return resp;
    }).catch(() => caches.match(req, { ignoreVary: true }).then((hit) => hit || caches.match("/rules", { ignoreVary: true }))));
  }
});
