// The service worker: pages a phone has opened stay usable offline, with the styles and scripts they need.
// A game's page and the rules pages: the network first (an online phone always gets the current board and
// text), the copy kept from the last visit when the network fails. What the phone typed or tapped meanwhile is
// kept and sent by static/outbox.js, not here. Everything else (a poll of the board, a save, the referee, the
// API) always goes to the network.
//
// The app serves this file at /sw.js behind two lines it writes (referee/web/assets.py): STATIC, a cache name
// made of the static files' versions, and SHELL, their versioned URLs. A changed style sheet or script changes
// this script, so the browser installs it and the old cache is dropped; a versioned URL never changes content,
// so it is served from the cache first.
"use strict";
const PAGES = "pages-v1";

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

function kept(url) {  // the pages kept for offline use: a game's page, the list of games, the rules
  return url.pathname === "/games" || /^\/g\/[^/]+$/.test(url.pathname) || url.pathname === "/rules" ||
    url.pathname.startsWith("/rules/");
}

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") { return; }
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) { return; }
  if (url.pathname.startsWith("/static/")) {
    // a versioned URL: the cache first; offline, a page kept from before an update takes any version it has
    event.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((resp) => {
      if (resp.ok && url.searchParams.has("v")) { const copy = resp.clone(); caches.open(STATIC).then((c) => c.put(req, copy)); }
      return resp;
    }).catch(() => caches.match(req, { ignoreSearch: true }).then((old) => old || Response.error()))));
    return;
  }
  if (req.mode === "navigate" && kept(url)) {
    // network first; the copy kept from the last visit when the network fails (the same page with another
    // ?lang= before none; for a rules page never opened, the rules' index if kept); else the browser's error, as
    // without a service worker
    const rules = url.pathname.startsWith("/rules");
    event.respondWith(fetch(req).then((resp) => {
      if (resp.ok) { const copy = resp.clone(); caches.open(PAGES).then((c) => c.put(req, copy)); }
      return resp;
    }).catch(() => caches.match(req, { ignoreVary: true })
      .then((hit) => hit || caches.match(req, { ignoreVary: true, ignoreSearch: true }))
      .then((hit) => hit || (rules ? caches.match("/rules", { ignoreVary: true }) : undefined))
      .then((hit) => hit || Response.error())));
  }
});
