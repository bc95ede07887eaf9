// The scorekeeper's service worker. It keeps the app's own static files, so that the app
// opens from the home screen, and the offline page. Pages, fragments and scores always come
// from the server: when it cannot be reached the offline page says so, and no score that
// may be out of date is ever shown as if it were current.
"use strict";

const PREFIX = "scorekeeper-static-";
const CACHE = PREFIX + {{ version }};
const OFFLINE_URL = {{ offline_url }};
const STATIC_PREFIX = {{ static_prefix }};
const KEPT = {{ kept }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith(PREFIX) && name !== CACHE)
    .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    // Static files change their name when they change: a kept copy is the current one.
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request)
      .then((kept) => kept || fetch(request))));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.open(CACHE)
      .then((cache) => cache.match(OFFLINE_URL))));
  }
  // Everything else (fragments, the scoreboard's questions) goes to the network only.
});
