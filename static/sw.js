// The service worker: the rules pages a phone has opened stay readable offline, with the styles and scripts
// they need. Everything else (scores, the referee, the API) always goes to the network: a stale scoreboard
// would be worse than an offline message.
"use strict";
const STATIC = "static-v1";
const PAGES = "rules-pages-v1";
const SHELL = ["/static/style.css", "/static/app.js", "/static/htmx-2.0.11.min.js", "/static/icons/icon-192.png"];

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
    event.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((resp) => {
      if (resp.ok) { const copy = resp.clone(); caches.open(STATIC).then((c) => c.put(req, copy)); }
      return resp;
    })));
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
