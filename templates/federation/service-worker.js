/* The site's service worker (served at the site's root by federation.pwa, so that its scope is the
 * whole site). It keeps what the entry page needs to open without a network, and nothing else:
 *
 * - the site's static files: cached when installed (the list below) or when first fetched, then
 *   served from the cache (their names change with their content in production);
 * - the pages asked to be kept (offline-entry.js reads the entry page of a round once more with
 *   the header X-Keep-Page, on the first visit and when it reads it again in place): afterwards
 *   fetched from the network first, the cached copy refreshed with each answer; without a
 *   network (or no answer within a few seconds), the cached copy is served.
 *
 * Every other request (other pages, every POST, htmx) goes to the network as if there were no
 * service worker: a deal is never sent or answered from here (offline-entry.js keeps it).
 * Generated file: {{ version }}.
 */
"use strict";

const CACHE = "tarot-{{ version }}";
const STATIC_URL = {{ static_url|safe }};
const PRECACHE = {{ precache|safe }};
const SLOW_NETWORK_MS = 4000;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE).then(function (cache) {
      return cache.addAll(PRECACHE);
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.startsWith("tarot-") && name !== CACHE;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

function pageKey(url) {
  const address = new URL(url, self.location.origin);
  return address.origin + address.pathname; // ?donne=3 and #saisie: the same page
}

function fromNetworkFirst(request, cache, cached) {
  const key = pageKey(request.url);
  const network = fetch(request).then(function (response) {
    if (response.ok && !response.redirected) {
      cache.put(key, response.clone());
    }
    return response;
  });
  const slow = new Promise(function (resolve) {
    setTimeout(function () { resolve(cached); }, SLOW_NETWORK_MS);
  });
  return Promise.race([network, slow]).then(function (answer) {
    return answer || network;
  }).catch(function () {
    return cached || Response.error();
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.startsWith(STATIC_URL)) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (cached) {
        return cached || fetch(request).then(function (response) {
          if (response.ok) {
            cache.put(request, response.clone());
          }
          return response;
        });
      });
    }));
    return;
  }
  if (request.headers.get("X-Keep-Page")) {
    event.respondWith(caches.open(CACHE).then(function (cache) {
      return fetch(request).then(function (response) {
        if (response.ok && !response.redirected) {
          cache.put(pageKey(request.url), response.clone());
        }
        return response;
      });
    }));
    return;
  }
  if (request.mode !== "navigate" || request.headers.get("HX-Request")) {
    return;
  }
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(pageKey(request.url)).then(function (cached) {
      if (!cached) {
        return fetch(request); // not a page kept for offline use
      }
      return fromNetworkFirst(request, cache, cached);
    });
  }));
});
