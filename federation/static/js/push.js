/* « Recevoir les nouvelles sur ce téléphone » on « Moi » (templates/federation/_moi_push.html;
 * docs/calendrier.md, « Les nouvelles sur le téléphone »).
 *
 * Shows the one paragraph this phone needs: the button (push possible, not yet subscribed), « ce
 * téléphone reçoit vos nouvelles » (subscribed: the subscription is posted again, so that the site
 * knows it still), notifications blocked, how to add the app to the home screen (an iPhone or iPad
 * in Safari: push reaches only the home-screen app, iOS 16.4 and later), or that this browser
 * cannot. The button asks for the permission (within the tap, as Safari requires), subscribes with
 * the site's VAPID public key and posts the subscription (its address and keys) to the site.
 */
(function () {
  "use strict";

  const box = document.querySelector("[data-push-key]");
  if (!box) {
    return;
  }
  const button = box.querySelector("[data-push-subscribe]");

  function show() {
    const wanted = Array.prototype.slice.call(arguments);
    box.querySelectorAll("[class*='push-']").forEach(function (part) {
      part.hidden = !wanted.some(function (name) { return part.classList.contains("push-" + name); });
    });
  }

  function appleMobile() {
    return /iPhone|iPad|iPod/.test(navigator.userAgent) ||
      (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  }

  function standalone() {
    return window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
  }

  function serverKey() {
    const text = box.dataset.pushKey.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(text + "=".repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(raw, function (character) { return character.charCodeAt(0); });
  }

  function csrfToken() {
    const field = box.querySelector('input[name="csrfmiddlewaretoken"]');
    return field ? field.value : "";
  }

  function keep(subscription) {
    return fetch(box.dataset.subscribe, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(subscription.toJSON()),
    }).then(function (response) {
      if (!response.ok) {
        throw new Error("HTTP " + response.status);
      }
    });
  }

  function registration() {
    return navigator.serviceWorker.register(box.dataset.sw, { scope: "/" }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function subscribe() {
    return registration().then(function (ready) {
      return ready.pushManager.getSubscription().then(function (old) {
        return old ? old.unsubscribe() : undefined; // made with another key, perhaps
      }).then(function () {
        return ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey() });
      });
    }).then(keep);
  }

  const possible = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  if (!possible) {
    show(appleMobile() && !standalone() ? "ios" : "unsupported");
    return;
  }
  if (Notification.permission === "denied") {
    show("denied");
    return;
  }
  registration().then(function (ready) {
    return ready.pushManager.getSubscription();
  }).then(function (current) {
    if (current && Notification.permission === "granted") {
      return keep(current).then(function () { show("on"); });
    }
    show("offer");
    return undefined;
  }).catch(function () {
    show("offer");
  });

  button.addEventListener("click", function () {
    button.disabled = true;
    Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") {
        show(permission === "denied" ? "denied" : "offer");
        return undefined;
      }
      return subscribe().then(function () { show("on"); });
    }).catch(function () {
      show("offer", "failed");
    }).then(function () {
      button.disabled = false;
    });
  });
})();
