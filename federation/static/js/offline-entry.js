/* The entry page of a round without a network (after htmx.min.js, idb-keyval.min.js and
 * rounds-entry.js; docs/utiliser.md). Works on the page's deal form as a whole (its FormData),
 * whatever its fields:
 *
 * - registers the site's service worker (/sw.js) and asks it to keep this page, so that it opens
 *   again offline;
 * - a save in flight shows it (« Envoi… », aria-busy); a save that cannot reach the server (no
 *   network, or the answer lost) keeps the deal on this phone (IndexedDB: its fields, its one-time
 *   key, the round's version it was entered at, the account that kept it), lists it « en attente
 *   d'envoi » and empties the form for the next deal, its dealer the next by rotation after the
 *   kept deal; with deals kept, the next ones are kept behind them, in order; while offline, the
 *   notice « Hors ligne » shows at the top of the form;
 * - each kept deal shows the number it will have: the round's next number as the server last
 *   told it (the page, or its answer to a deal sent), then one more for each kept deal before it;
 * - when the network returns (or « Réessayer »), the kept deals are sent one by one, in order, to
 *   the server's queue URL (championship.views.offline): stored (or stored already: the one-time
 *   key) → dropped from the phone; refused (the round changed meanwhile, was submitted, a field is
 *   wrong) → kept with the server's message, and the following ones wait, until the secretary
 *   corrects it (« Modifier » puts it back in the form, in its place), sends it again as the round
 *   now is (« Renvoyer ») or deletes it (« Supprimer »);
 * - a phone passed from hand to hand: a kept deal belongs to the account that kept it and is sent
 *   only from a page of that account's session (the server refuses it in another's); another
 *   account's kept deals are listed « gardée par … », neither sent, corrected nor deleted. A
 *   logout never erases them (docs/exploitation.md, « Comptes et sécurité »).
 * - « Annuler la donne N », for 10 seconds after a deal is kept, takes it out of the queue.
 * Nothing is scored here: offline, no preview; the server scores each deal when it arrives.
 */
(function () {
  "use strict";

  const keyval = window.idbKeyval;
  if (!keyval || !document.getElementById("offline-entry")) {
    return;
  }
  const deals = keyval.createStore("tarot-offline-deals", "deals");
  const versions = keyval.createStore("tarot-offline-versions", "versions");
  const SKIPPED = ["csrfmiddlewaretoken", "key", "version"];
  const MISDEAL = "misdeal"; // the kind whose dealer deals again (scoring/vocabulary.py)
  let editing = null; // the kept deal put back in the form by « Modifier »
  let kept = 0; // this account's deals kept for this round (read before each save: htmx asks synchronously)
  let flushing = false;
  let lastStatus = { message: "", options: {} };
  const confirming = new Set(); // kept deals whose « Supprimer » was tapped once
  let flushAgain = false; // false, "yes" (when online) or true (asked: try even if the phone says offline)
  let toRefresh = false; // deals stored or refused by a turn that another one follows: refresh after it

  function root() { return document.getElementById("offline-entry"); }
  function roundId() { return root() ? root().dataset.round : null; }
  function text(name, values) {
    const template = (root() && root().dataset["text" + name]) || "";
    return template.replace(/%\((\w+)\)s/g, function (_all, key) { return String((values || {})[key]); });
  }
  function dealForm() { return document.querySelector("#saisie form.deal-form"); }
  function account() { return root() ? root().dataset.account : ""; }
  function mine(deal) { return Boolean(deal.account) && deal.account === account(); }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) {
      return window.crypto.randomUUID();
    }
    const bytes = window.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, function (byte) { return byte.toString(16).padStart(2, "0"); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function freshKey(form) {
    const field = form && form.querySelector('input[name="key"]');
    if (field) {
      field.value = newKey(); // this page may be a copy kept by the service worker: its key used already
    }
  }

  /* The round as the server last told it: its version and the number of its next deal, read
   * together (this page as served, or an answer to a kept deal), the latest version winning (a
   * page kept offline may be older). The next number may go down: a deal deleted meanwhile. */
  async function remember(seen) {
    const stored = (await keyval.get(roundId(), versions)) || { version: 0, next: 0 };
    const page = seen || { version: Number(root().dataset.version || 0), next: Number(root().dataset.next || 0) };
    let known = stored;
    if (page.version > stored.version || (page.version === stored.version && page.next > stored.next)) {
      known = { version: page.version, next: page.next || stored.next }; // a submitted round's page has no next
    }
    await keyval.set(roundId(), known, versions);
    return known;
  }

  async function knownVersion() {
    return (await remember()).version;
  }

  /* This round's kept deals, in order; this account's numbered as they will be stored. */
  async function allKept() {
    const round = roundId();
    const known = await remember();
    const all = (await keyval.values(deals)).filter(function (deal) { return deal.round === round; });
    all.sort(function (a, b) { return a.order - b.order; });
    let number = known.next;
    all.forEach(function (deal) {
      if (mine(deal)) {
        deal.number = number;
        number += 1;
      }
    });
    return all;
  }

  async function keptDeals() {
    return (await allKept()).filter(mine);
  }

  function csrfToken(form) {
    const cookie = document.cookie.split("; ").find(function (item) { return item.startsWith("csrftoken="); });
    if (cookie) {
      return decodeURIComponent(cookie.slice("csrftoken=".length));
    }
    const field = (form || document).querySelector('input[name="csrfmiddlewaretoken"]');
    return field ? field.value : "";
  }

  function labelOf(input) {
    const label = input.closest("label") || (input.id && document.querySelector('label[for="' + input.id + '"]'));
    if (!label) {
      return input.value;
    }
    const copy = label.cloneNode(true); // its text as read aloud: without what is aria-hidden (key hints)
    copy.querySelectorAll('[aria-hidden="true"], input, select').forEach(function (hidden) { hidden.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  /* What the deal says, read from the form as the secretary sees it: « Donneur : Alice · … ». */
  function summary(form) {
    const parts = [];
    const kind = form.querySelector('input[name="kind"]:checked');
    const played = !kind || kind.value === "played";
    form.querySelectorAll("input, select").forEach(function (input) {
      if (!input.name || SKIPPED.includes(input.name) || input.type === "hidden" || input.type === "submit") {
        return;
      }
      if (!played && input.closest(".played-only")) {
        return; // hidden for a passe (« Prise », lit by default, is no choice of the secretary's)
      }
      const group = input.closest("fieldset");
      const legend = group && group.querySelector("legend");
      const what = legend ? legend.textContent.trim() : "";
      if ((input.type === "radio" || input.type === "checkbox") && input.checked && input.value) {
        const part = (what ? what + " : " : "") + labelOf(input);
        if (input.name === "kind") {
          parts.unshift(part); // the kind first (« Donne : Passe »), though the dealer's line tops the form
        } else {
          parts.push(part);
        }
      } else if (input.tagName === "SELECT" && input.value) {
        parts.push(labelOf(input) + " : " + input.options[input.selectedIndex].text.trim());
      } else if (input.type !== "radio" && input.type !== "checkbox" && input.tagName !== "SELECT" && input.value) {
        parts.push(labelOf(input) + " : " + input.value);
      }
    });
    return parts.join(" · ");
  }

  function fieldOf(deal, name) {
    const pair = deal.fields.find(function (item) { return item[0] === name; });
    return pair ? pair[1] : "";
  }

  /* The dealer after the last kept deal, as the server's rotation has it (scoring.round.next_dealer):
   * the same after a misdeal, else the next seat (the dealer buttons are in seat order). Only on a
   * form the secretary has not touched. */
  function followRotation(form, entries) {
    const last = entries[entries.length - 1];
    if (!form || !last || editing || form.dataset.touched) {
      return;
    }
    const radios = Array.from(form.querySelectorAll('input[type="radio"][name="dealer"]'));
    const seats = radios.map(function (radio) { return radio.value; });
    const dealer = fieldOf(last, "dealer");
    const at = seats.indexOf(dealer);
    const next = at < 0 || fieldOf(last, "kind") === MISDEAL ? dealer : seats[(at + 1) % seats.length];
    const radio = radios.find(function (item) { return item.value === next; });
    if (radio && !radio.checked) {
      radio.checked = true;
      radio.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  /* The form's heading: the number the next deal will have, after this account's kept deals. */
  function numberHeading(form, entries, known) {
    const heading = form && form.closest("#saisie").querySelector("h2");
    if (heading && !editing && known.next) {
      heading.textContent = heading.textContent.replace(/\d+/, String(known.next + entries.length));
    }
  }

  /* Keep the form's deal on this phone (in the place of the deal being corrected, if any). */
  async function keep(form) {
    const entries = await keptDeals();
    const known = await remember();
    const data = new FormData(form);
    const fields = Array.from(data.entries()).filter(function (pair) { return !SKIPPED.includes(pair[0]); });
    const last = entries[entries.length - 1];
    const previous = editing && entries.find(function (deal) { return deal.id === editing; });
    const deal = previous || {
      id: roundId() + ":" + Date.now() + ":" + Math.random().toString(36).slice(2),
      round: roundId(),
      order: Math.max(Date.now(), last ? last.order + 1 : 0),
      key: data.get("key") || newKey(),
      account: account(),
      accountName: root().dataset.accountName || "",
      number: last ? last.number + 1 : known.next,
    };
    Object.assign(deal, { fields: fields, summary: summary(form), version: known.version, status: "pending", errors: [] });
    await store(deal);
    editing = null;
    form.reset();
    delete form.dataset.touched;
    freshKey(form);
    form.dispatchEvent(new Event("change", { bubbles: true })); // the preview of the emptied form (or none offline)
    const now = await keptDeals();
    followRotation(form, now);
    numberHeading(form, now, known);
    return deal;
  }

  /* A kept deal written to the phone's store (its number is not: it follows from its place). */
  function store(deal) {
    const copy = Object.assign({}, deal);
    delete copy.number;
    return keyval.set(deal.id, copy, deals);
  }

  function status(message, options) {
    const { error = false, retry = false, undo = null } = options || {};
    lastStatus = { message: message, options: options };
    const box = root() && root().querySelector(".save-status");
    if (!box) {
      return;
    }
    box.replaceChildren();
    box.classList.toggle("error", error);
    if (!message) {
      return;
    }
    const line = document.createElement("p");
    line.className = "message" + (error ? " error" : " success");
    line.textContent = message;
    if (retry) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary retry";
      button.textContent = text("Retry");
      button.addEventListener("click", function () { flush(true); });
      line.append(" ", button);
    }
    if (undo) {
      options.until = options.until || Date.now() + 10000; // shown again elsewhere: not for longer
      const left = Math.round((options.until - Date.now()) / 1000);
      if (left > 0) {
        line.append(" ", undoButton(undo, left));
      }
    }
    box.append(line);
  }

  /* « Annuler la donne N » for 10 seconds after a deal is kept: it leaves the phone's queue, as
   * if never saved (the next deal is dealt by its dealer again, and has its number). */
  function undoButton(deal, seconds) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary undo-kept";
    button.textContent = text("Undo", { number: deal.number });
    let left = seconds;
    const counter = document.createElement("span");
    counter.setAttribute("aria-hidden", "true");
    counter.textContent = " (" + left + " s)";
    button.append(counter);
    const timer = window.setInterval(function () {
      left -= 1;
      counter.textContent = " (" + left + " s)";
      if (left <= 0) {
        window.clearInterval(timer);
        button.remove();
      }
    }, 1000);
    button.addEventListener("click", function () {
      window.clearInterval(timer);
      button.remove();
      undoKept(deal);
    });
    return button;
  }

  async function undoKept(deal) {
    const still = await keyval.get(deal.id, deals);
    if (!still || still.status !== "pending" || flushing) {
      return; // sent meanwhile: the grid has it, corrected or deleted as any stored deal
    }
    await keyval.del(deal.id, deals);
    const form = dealForm();
    const entries = await keptDeals();
    if (form && !editing) {
      const radio = form.querySelector('input[type="radio"][name="dealer"][value="' + fieldOf(deal, "dealer") + '"]');
      if (radio && !form.dataset.touched && !entries.length) {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
      }
      followRotation(form, entries);
      numberHeading(form, entries, await remember());
    }
    status(text("Undone", { number: deal.number }));
    render();
  }

  function busy(form, on) {
    const button = form.querySelector("button.save") || form.querySelector('button[type="submit"]');
    form.classList.toggle("is-sending", on);
    form.setAttribute("aria-busy", on ? "true" : "false");
    if (button) {
      if (on) {
        button.dataset.label = button.dataset.label || button.textContent;
        button.textContent = text("Sending");
      } else if (button.dataset.label) {
        button.textContent = button.dataset.label;
      }
    }
  }

  function actionButton(label, onClick) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary small";
    button.textContent = label;
    button.addEventListener("click", onClick);
    return button;
  }

  /* Another account's kept deal: listed, neither sent, corrected nor deleted from this session. */
  function othersItem(deal) {
    const item = document.createElement("li");
    item.className = "pending-deal others";
    const title = document.createElement("strong");
    title.textContent = text("KeptBy", { name: deal.accountName || text("AnotherAccount") });
    const what = document.createElement("p");
    what.className = "muted";
    what.textContent = deal.summary;
    item.append(title, what);
    return item;
  }

  let renders = 0;
  async function render() {
    const turn = ++renders;
    const all = await allKept();
    const known = await remember();
    const box = root();
    if (!box || turn !== renders) {
      return; // a later call draws what the store holds by then
    }
    const banner = document.querySelector("#saisie .offline-banner");
    if (banner) {
      banner.hidden = navigator.onLine;
    }
    const entries = all.filter(mine);
    kept = entries.length;
    followRotation(dealForm(), entries);
    numberHeading(dealForm(), entries, known);
    const section = box.querySelector(".pending-deals");
    const list = box.querySelector(".pending-list");
    list.replaceChildren();
    section.hidden = !all.length;
    all.forEach(function (deal) {
      if (!mine(deal)) {
        list.append(othersItem(deal));
        return;
      }
      const item = document.createElement("li");
      item.className = "pending-deal " + deal.status;
      item.dataset.key = deal.key;
      const title = document.createElement("strong");
      const state = deal.id === editing ? text("Editing") : deal.status === "refused" ? text("RefusedLabel") : text("Pending");
      title.textContent = text("Deal", { number: deal.number }) + " — " + state;
      const what = document.createElement("p");
      what.className = "muted";
      what.textContent = deal.summary;
      item.append(title, what);
      deal.errors.forEach(function (message) {
        const error = document.createElement("p");
        error.className = "message error";
        error.textContent = message;
        item.append(error);
      });
      const actions = document.createElement("p");
      actions.className = "actions";
      actions.append(actionButton(text("Edit"), function () { edit(deal); }));
      if (deal.status === "refused") {
        actions.append(actionButton(text("Resend"), function () { resend(deal); }));
      }
      const asking = confirming.has(deal.id);
      const remove = actionButton(text(asking ? "ConfirmDelete" : "Delete"), function () {
        if (confirming.has(deal.id)) {
          confirming.delete(deal.id);
          drop(deal);
        } else {
          confirming.add(deal.id);
          render();
        }
      });
      remove.classList.toggle("danger", asking);
      actions.append(remove);
      item.append(actions);
      list.append(item);
    });
  }

  /* « Modifier »: the kept deal back in the form (saving it again keeps its place in the queue). */
  function edit(deal) {
    const form = dealForm();
    if (!form) {
      return;
    }
    form.reset();
    const values = {};
    deal.fields.forEach(function (pair) { (values[pair[0]] = values[pair[0]] || []).push(pair[1]); });
    Array.from(form.elements).forEach(function (input) {
      if (!input.name || SKIPPED.includes(input.name)) {
        return;
      }
      const given = values[input.name] || [];
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = given.includes(input.value);
      } else if (input.tagName === "SELECT" && input.multiple) {
        Array.from(input.options).forEach(function (option) { option.selected = given.includes(option.value); });
      } else if (input.type !== "submit" && input.type !== "button") {
        input.value = given.length ? given[0] : "";
      }
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const key = form.querySelector('input[name="key"]');
    if (key) {
      key.value = deal.key;
    }
    editing = deal.id;
    render();
    form.scrollIntoView({ block: "start" });
  }

  async function resend(deal) {
    deal.status = "pending";
    deal.version = Math.max(deal.serverVersion || 0, await knownVersion());
    deal.errors = [];
    await store(deal);
    flush(true);
  }

  async function drop(deal) {
    await keyval.del(deal.id, deals);
    if (editing === deal.id) {
      editing = null;
    }
    render();
  }

  /* One kept deal to the server: "stored", "refused", or why it stays ("network", "session",
   * "account": the session is another account's, "server"). */
  async function send(deal) {
    const body = new URLSearchParams(deal.fields);
    body.set("key", deal.key);
    body.set("version", String(deal.version));
    body.set("account", deal.account);
    let response;
    try {
      response = await serial(function () { return fetch(root().dataset.send, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        redirect: "manual",
        headers: { "X-CSRFToken": csrfToken(dealForm()), Accept: "application/json" },
      }); });
    } catch (_error) {
      return { outcome: "network" };
    }
    if (response.type === "opaqueredirect" || response.status === 401 || response.status === 403) {
      return { outcome: "session" };
    }
    let answer = null;
    try {
      answer = await response.json();
    } catch (_error) {
      answer = null;
    }
    if (!answer) {
      return { outcome: "server", status: response.status };
    }
    if (answer.code === "account") { // logged in as someone else since this page was read
      return { outcome: "account", answer: answer };
    }
    return { outcome: answer.stored ? "stored" : "refused", answer: answer };
  }

  /* The kept deals of this round sent in order, until one stays. */
  async function flush(asked) {
    if (flushing) {
      flushAgain = flushAgain || asked || "yes"; // asked meanwhile: once this turn is over
      return;
    }
    if (!roundId() || editing) {
      return;
    }
    flushing = true;
    let sent = 0;
    let refused = false;
    try {
      for (;;) {
        const entries = await keptDeals();
        const deal = entries[0];
        if (!deal || deal.status === "refused") {
          if (deal) {
            refused = true;
            status(text("Refused", { number: deal.number }), { error: true });
          }
          break;
        }
        if (!navigator.onLine && !asked) {
          break;
        }
        const result = await send(deal);
        asked = false;
        if (result.outcome === "network") {
          status(text("StillOffline"), { error: true, retry: true });
          break;
        }
        if (result.outcome === "session" || result.outcome === "server") {
          status(text(result.outcome === "session" ? "Session" : "Server", { status: result.status }), { error: true, retry: true });
          break;
        }
        const answer = result.answer;
        if (result.outcome === "account") {
          status(answer.errors.join(" "), { error: true });
          break;
        }
        await remember({ version: answer.version, next: answer.next });
        if (result.outcome === "refused") {
          Object.assign(deal, { status: "refused", errors: answer.errors, serverVersion: answer.version });
          await store(deal);
          continue; // shown by the next turn, with the number it would have now
        }
        await keyval.del(deal.id, deals);
        const following = entries.slice(1).filter(function (other) { return other.version <= deal.version; });
        for (const other of following) {
          // entered after this one (or before it was sent again as the round is): the change is ours
          other.version = answer.version;
          await store(other);
        }
        sent += 1;
        const sentText = text("Sent", { number: answer.number || deal.number });
        status(answer.replay ? sentText + " " + answer.message : sentText); // replay: it had arrived already
      }
    } finally {
      flushing = false;
      await render();
    }
    toRefresh = toRefresh || sent > 0 || refused;
    if (flushAgain) {
      const again = flushAgain === true;
      flushAgain = false;
      flush(again); // the page is read again at the end of that turn, even if it sends nothing
    } else if (toRefresh) {
      toRefresh = false;
      refreshPage();
    }
  }

  /* Once kept deals are stored or refused, the page shows the round as it now is: its live part
   * read again and put in place, if the form has not been touched before or while it was read
   * (what the secretary is typing is never replaced). */
  async function refreshPage() {
    const form = dealForm();
    const untouched = function () { return !editing && dealForm() === form && !(form && form.dataset.touched); };
    if (!window.htmx || !untouched()) {
      return;
    }
    let html;
    try {
      html = await serial(function () {
        // X-Keep-Page: the service worker keeps this answer as the page's copy for offline use
        return fetch(window.location.pathname, { credentials: "same-origin", headers: { "X-Keep-Page": "1" } })
          .then(function (response) { return response.ok && !response.redirected ? response.text() : null; });
      });
      if (!html) {
        return;
      }
    } catch (_error) {
      return;
    }
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("entry-live");
    const current = document.getElementById("entry-live");
    if (!fresh || !current || !untouched()) {
      return;
    }
    const list = current.querySelector(".pending-deals");
    const freshList = fresh.querySelector(".pending-deals");
    if (list && freshList) {
      freshList.replaceWith(list); // no blink: redrawn from the phone's store just after
    }
    current.replaceWith(fresh);
    status(lastStatus.message, lastStatus.options); // at once: the message shown, in the new place
    window.htmx.process(fresh);
    watch(dealForm());
    await remember();
    await render();
  }

  /* On the first visit, the service worker (just installed) did not see this page come: it is
   * read once more, marked X-Keep-Page, for the worker to keep as its offline copy. */
  async function keepPage() {
    if (!("serviceWorker" in navigator) || !window.caches) {
      return;
    }
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise(function (resolve) {
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
      });
    }
    if (await caches.match(window.location.origin + window.location.pathname)) {
      return;
    }
    await serial(function () {
      return fetch(window.location.pathname, { credentials: "same-origin", headers: { "X-Keep-Page": "1" } })
        .then(function (response) { return response.text(); });
    }).catch(function () { return undefined; });
  }

  /* This page's own requests (a kept deal sent, the page read again or kept) one at a time, in
   * the order asked, each after the htmx requests under way; a save waits for them (never two
   * writes, or a write and a read, crossing: an SQLite database in memory, the tests', refuses
   * it). While any is waiting or running, <html data-offline-busy>. */
  let queue = Promise.resolve();
  let running = 0;
  const whenIdle = [];
  let htmxInFlight = 0; // the page's htmx requests under way: this page's own wait for them
  const whenHtmxDone = [];
  function afterHtmx() {
    return htmxInFlight ? new Promise(function (resolve) { whenHtmxDone.push(resolve); }) : Promise.resolve();
  }
  // Counted on the request itself: htmx dispatches the afterRequest of a failed or aborted request
  // on its element only, which the page may have taken out meanwhile (a preview's, the page read
  // again in place): it would never reach the document, and this page's requests wait forever.
  document.addEventListener("htmx:beforeSend", function (event) {
    htmxInFlight += 1;
    event.detail.xhr.addEventListener("loadend", function () {
      htmxInFlight = Math.max(0, htmxInFlight - 1);
      if (!htmxInFlight) {
        whenHtmxDone.splice(0).forEach(function (then) { then(); });
      }
    }, { once: true });
  });
  function serial(task) {
    running += 1;
    document.documentElement.dataset.offlineBusy = "1";
    const step = function () { return afterHtmx().then(task); };
    const run = queue.then(step, step);
    queue = run.catch(function () { return undefined; }).then(function () {
      running -= 1;
      if (!running) {
        delete document.documentElement.dataset.offlineBusy;
        whenIdle.splice(0).forEach(function (then) { then(); });
      }
    });
    return run;
  }

  function isSave(event) {
    const form = dealForm();
    return form && event.detail.elt === form;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const form = dealForm();
    if (!form || !form.contains(event.detail.elt)) {
      return;
    }
    if (!isSave(event)) {
      if (!navigator.onLine) { // the preview: nothing to ask the server
        event.preventDefault();
        const preview = event.detail.elt;
        preview.textContent = text("NoPreview");
      }
      return;
    }
    if (!navigator.onLine || kept || editing) {
      event.preventDefault(); // offline, or deals kept before this one: kept behind them
      const offline = !navigator.onLine;
      keep(form).then(function (deal) {
        status(text(offline ? "Kept" : "Queued", { number: deal.number }), { error: offline, retry: offline, undo: deal });
        return render();
      }).then(function () { flush(false); });
      return;
    }
    busy(form, true);
    status("");
    if (running) { // sent once this page's own requests are done
      event.preventDefault();
      whenIdle.push(function () {
        busy(form, false);
        form.requestSubmit();
      });
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (isSave(event)) {
      busy(dealForm(), false);
    }
  });

  document.addEventListener("htmx:sendError", function (event) {
    const form = dealForm();
    if (!isSave(event)) {
      return;
    }
    // No answer: the deal may or may not have reached the server; kept with its key, sent again
    // later, it is stored once either way.
    keep(form).then(function (deal) {
      status(text("Kept", { number: deal.number }), { error: true, retry: true, undo: deal });
      return render();
    });
  });

  document.addEventListener("htmx:afterSettle", function () {
    watch(dealForm());
    remember().then(render);
  });

  /* A form the secretary has begun to fill in (a tap, a key) is never replaced by a refresh. */
  function watch(form) {
    if (form && !form.dataset.watched) {
      form.dataset.watched = "1";
      ["input", "pointerdown", "keydown"].forEach(function (type) {
        form.addEventListener(type, function () { form.dataset.touched = "1"; });
      });
    }
  }

  window.addEventListener("online", function () { render(); flush(false); });
  window.addEventListener("offline", render);

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register(root().dataset.sw, { scope: "/" }).then(keepPage).catch(function () { return undefined; });
  }
  freshKey(dealForm());
  watch(dealForm());
  remember().then(render).then(function () { flush(false); });
})();
