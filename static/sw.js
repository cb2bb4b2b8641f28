// The service worker: pages a phone has opened stay usable offline, with the styles and scripts they need.
// A game's page and the rules pages: the network first (an online phone always gets the current board and
// text), the copy kept from the last visit when the network fails. A kept board is safe because the page says
// how old it is (static/scoreboard.js, #board-stale). Any other page asked for without a connection is the
// app's own offline page, kept in each language at install. What the phone typed or tapped meanwhile is
// kept and sent by static/outbox.js, not here. Everything else (a poll of the board, a save, the referee, the
// API) always goes to the network; a poll that cannot reach it is answered "unreached" (see below).
//
// The app serves this file at /sw.js behind two lines it writes (referee/web/assets.py): STATIC, a cache name
// made of the static files' versions, and SHELL, their versioned URLs. A changed style sheet or script changes
// this script, so the browser installs it and the old cache is dropped; a versioned URL never changes content,
// so it is served from the cache first.
"use strict";
const PAGES = "pages-v1";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(STATIC).then((c) => c.addAll(SHELL.concat(Object.values(OFFLINE))))
    .then(() => self.skipWaiting()));
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
  if (/^\/g\/[^/]+\/board$/.test(url.pathname)) {
    // a poll of the board: always the network. When it cannot be reached, an answer that says so (X-Unreached)
    // instead of a network error, which the browser would print on the page's console at every poll of an
    // outage; static/scoreboard.js takes it as a failed poll.
    event.respondWith(fetch(req).catch(() => new Response(null, {
      status: 204, headers: { "X-Unreached": "1", "Cache-Control": "no-store" } })));
    return;
  }
  if (req.mode === "navigate") {
    // network first; a page kept from the last visit when the network fails (the same page with another ?lang=
    // before none; for a rules page never opened, the rules' index if kept); else the app's offline page
    const keep = kept(url), rules = url.pathname.startsWith("/rules");
    event.respondWith(fetch(req).then((resp) => {
      remember(resp.headers.get("Content-Language"));
      if (keep && resp.ok) { const copy = resp.clone(); caches.open(PAGES).then((c) => c.put(req, copy)); }
      return resp;
    }).catch(() => (keep ? caches.match(req, { ignoreVary: true }) : Promise.resolve(undefined))
      .then((hit) => hit || (keep ? caches.match(req, { ignoreVary: true, ignoreSearch: true }) : undefined))
      .then((hit) => hit || (rules ? caches.match("/rules", { ignoreVary: true }) : undefined))
      .then((hit) => hit || offlinePage(url))));
  }
});

// The offline page in the reader's language: the one the address asks for (?lang=), else the language of the
// last page the app sent (its Content-Language, remembered across restarts of the worker), else the browser's.
let lastLanguage = null;
function remember(language) {
  if (!language || !OFFLINE[language] || language === lastLanguage) { return; }
  lastLanguage = language;
  caches.open(PAGES).then((c) => c.put("/offline-language", new Response(language)));
}
function remembered() {
  if (lastLanguage) { return Promise.resolve(lastLanguage); }
  return caches.open(PAGES).then((c) => c.match("/offline-language")).then((r) => (r ? r.text() : null))
    .catch(() => null);
}
function offlinePage(url) {
  const asked = url.searchParams.get("lang");
  return (OFFLINE[asked] ? Promise.resolve(asked) : remembered()).then((language) => {
    if (!OFFLINE[language]) {
      language = (self.navigator.languages || []).map((l) => l.slice(0, 2).toLowerCase())
        .find((l) => OFFLINE[l]) || "en";
    }
    return caches.match(OFFLINE[language], { ignoreVary: true });
  }).then((hit) => hit || Response.error());
}
