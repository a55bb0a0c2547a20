/* The site's service worker (served at the site's root by federation.pwa, so that its scope is the
 * whole site). It keeps what the entry page needs to open without a network, and nothing else:
 *
 * - the site's static files (cache CACHE): cached when installed (the list below) or when first
 *   fetched, then served from the cache (their names change with their content in production);
 * - the pages asked to be kept (cache PAGES; offline-entry.js reads the entry page of a round once
 *   more with the header X-Keep-Page, on the first visit and when it reads it again in place):
 *   afterwards fetched from the network first, the cached copy refreshed with each answer; without
 *   a network (or no answer within a few seconds), the cached copy is served. The server marks
 *   these pages `Cache-Control: private, no-store`: that keeps them out of the browser's HTTP
 *   cache, not out of this cache, which the worker fills itself.
 *
 * A page is one account's (its name, its forms, their CSRF token): when someone logs in or out on
 * the phone (a POST to one of ACCOUNT_CHANGES), every kept page is forgotten, and an answer still
 * on its way then is not kept. The static files stay, and so do the deals kept on the phone (in
 * IndexedDB, never touched here: each is sent only in the session of the account that kept it).
 *
 * Every other request (other pages, every POST, htmx) goes to the network as if there were no
 * service worker: a deal is never sent or answered from here (offline-entry.js keeps it).
 *
 * The member's news (docs/calendrier.md, « Les nouvelles sur le téléphone »): a push carries a
 * title, a text and a link of the site, shown as a notification; tapped, it opens that page (a
 * window already on it is brought forward). A link elsewhere than the site opens the home page.
 * When someone logs in or out on the phone, its push subscription is dropped too: a shared phone
 * never shows the news of the member who used it before (he subscribes again from « Moi »).
 * Generated file: {{ version }}.
 */
"use strict";

const CACHE = "tarot-{{ version }}";
const PAGES = "tarot-pages-{{ version }}";
const STATIC_URL = {{ static_url|safe }};
const ACCOUNT_CHANGES = {{ account_changes|safe }};
const PRECACHE = {{ precache|safe }};
const SLOW_NETWORK_MS = 4000;
const NEWS_ICON = {{ icon|safe }};

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
        return name.startsWith("tarot-") && name !== CACHE && name !== PAGES;
      }).map(function (name) {
        return caches.delete(name);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

/* Bumped when someone logs in or out: a page asked for before is not kept when it arrives. */
let account = 0;

function forgetPages() {
  account += 1;
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.startsWith("tarot-pages-");
    }).map(function (name) {
      return caches.delete(name);
    }));
  });
}

function keepPage(request, response, asked) {
  if (!response.ok || response.redirected) {
    return Promise.resolve();
  }
  return caches.open(PAGES).then(function (cache) {
    return asked === account ? cache.put(pageKey(request.url), response) : undefined;
  });
}

function pageKey(url) {
  const address = new URL(url, self.location.origin);
  return address.origin + address.pathname; // ?donne=3 and #saisie: the same page
}

function fromNetworkFirst(request, cached) {
  const asked = account;
  const network = fetch(request).then(function (response) {
    keepPage(request, response.clone(), asked).catch(function () { return undefined; });
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
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.method === "POST" && ACCOUNT_CHANGES.includes(url.pathname)) {
    event.waitUntil(Promise.all([forgetPages(), forgetNews()])); // and the request goes on to the network
    return;
  }
  if (request.method !== "GET") {
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
    const asked = account;
    event.respondWith(fetch(request).then(function (response) {
      return keepPage(request, response.clone(), asked).catch(function () {
        return undefined; // not kept (storage full): the page is still answered
      }).then(function () {
        return response;
      });
    }));
    return;
  }
  if (request.mode !== "navigate" || request.headers.get("HX-Request")) {
    return;
  }
  event.respondWith(caches.match(pageKey(request.url), { cacheName: PAGES }).then(function (cached) {
    if (!cached) {
      return fetch(request); // not a page kept for offline use
    }
    return fromNetworkFirst(request, cached);
  }));
});

/* The member's news. */

function forgetNews() {
  if (!self.registration.pushManager) {
    return Promise.resolve();
  }
  return self.registration.pushManager.getSubscription().then(function (subscription) {
    return subscription ? subscription.unsubscribe() : undefined;
  }).catch(function () { return undefined; });
}

function siteLink(link) {
  try {
    const address = new URL(link || "/", self.location.origin);
    return address.origin === self.location.origin ? address.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", function (event) {
  let news = {};
  try {
    news = event.data ? event.data.json() : {};
  } catch (error) {
    news = {};
  }
  event.waitUntil(self.registration.showNotification(news.title || "Tarot-Bière", {
    body: news.text || "",
    icon: NEWS_ICON,
    badge: NEWS_ICON,
    data: { url: siteLink(news.url) },
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  const link = siteLink(event.notification.data && event.notification.data.url);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    const open = windows.find(function (client) { return client.url === link && "focus" in client; });
    return open ? open.focus() : self.clients.openWindow(link);
  }));
});
