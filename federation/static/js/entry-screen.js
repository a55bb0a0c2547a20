/* One deal on one phone screen (the entry page and a deal's correction; docs/utiliser.md).
 * Loaded after htmx.min.js; the page works without it.
 *
 * - The points are typed on the page's own keypad on a touch screen (no system keyboard jumping
 *   up over the form): its keys write into the points box, « ,5 » adds a half point, « ⌫ »
 *   removes the last figure. A laptop types in the box as before.
 * - On a touch screen the rows of a played deal have no « — » button: a chosen button tapped
 *   again clears its row (the buttons then fit one line each). Not the contract's: « Prise » lit
 *   by default and tapped out of habit stays lit.
 * - « Chelem annoncé » lights « L'attaque » as the chelem's maker (an announced chelem is most
 *   often made): « Personne » tapped if it fell.
 * - « Comme la précédente » chooses the previous played deal's taker, partner and contract in
 *   place (without JavaScript, the link asks the server for a form so filled).
 * - The folded dealer line names the dealer chosen, and folds again once one is tapped.
 * - « Annonces » (poignées, misères…) opens by itself on a laptop, where Tab reaches the poignées;
 *   opened on a phone, it comes to the top of the screen (the rows above it are answered).
 * - On a phone the form is brought to the top of the screen when the page opens (on a tablet, the
 *   grid and the form side by side); after a deal is saved htmx does the same (the server's
 *   `show:#saisie:top`).
 * - « Annuler la donne N » stays 10 seconds, or until the next deal is begun.
 */
(function () {
  "use strict";

  var UNDO_SECONDS = 10;
  var laptop = window.matchMedia("(hover: hover) and (min-width: 700px)");
  var touch = window.matchMedia("(pointer: coarse)");
  var phone = window.matchMedia("(max-width: 759px)");

  function dealForm(from) {
    return from && from.closest ? from.closest("form.deal-form") : null;
  }

  function changed(input) {
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function check(form, name, value) {
    var radio = Array.prototype.find.call(form.querySelectorAll('input[type="radio"][name="' + name + '"]'), function (item) {
      return item.value === value;
    });
    if (radio && !radio.checked) {
      radio.checked = true;
      changed(radio);
    }
    return radio;
  }

  function type(box, key) {
    var value = box.value.trim();
    var half = value.indexOf(",") !== -1 || value.indexOf(".") !== -1;
    if (key === "back") {
      value = /[,.]5$/.test(value) ? value.slice(0, -2) : value.slice(0, -1);
    } else if (key === ",") {
      value = value && !half ? value + ",5" : value;
    } else if (!half && value.replace(/^0/, "").length < 2) {
      value = value === "0" ? key : value + key;
    }
    if (value !== box.value) {
      box.value = value;
      box.dispatchEvent(new Event("input", { bubbles: true }));
      changed(box);
    }
  }

  function likePrevious(form, link) {
    check(form, "kind", "played");
    check(form, "taker", link.dataset.taker);
    if (link.dataset.partner) {
      check(form, "partner", link.dataset.partner);
    }
    check(form, "contract", link.dataset.contract);
  }

  function showDealer(form) {
    var fold = form.querySelector(".dealer-fold");
    var chosen = fold && fold.querySelector("input:checked");
    var label = chosen && chosen.closest("label");
    if (label) {
      var name = label.querySelector("span").cloneNode(true);
      name.querySelectorAll("kbd").forEach(function (key) { key.remove(); });
      fold.querySelector(".dealer-name").textContent = name.textContent.trim();
    }
  }

  function removeUndo(undo) {
    if (!undo || !undo.isConnected) {
      return;
    }
    var form = document.getElementById(undo.getAttribute("form") || "");
    undo.closest(".undo").remove();
    if (form) {
      form.remove();
    }
  }

  function startUndo() {
    var undo = document.querySelector("#saisie .undo-button");
    if (!undo || undo.dataset.started) {
      return;
    }
    undo.dataset.started = "1";
    var left = Number(undo.dataset.seconds || UNDO_SECONDS);
    var counter = document.createElement("span");
    counter.className = "undo-left";
    counter.setAttribute("aria-hidden", "true");
    counter.textContent = " (" + left + " s)";
    undo.append(counter);
    var timer = window.setInterval(function () {
      left -= 1;
      counter.textContent = " (" + left + " s)";
      if (left <= 0) {
        window.clearInterval(timer);
        removeUndo(undo);
      }
    }, 1000);
    var form = dealForm(undo);
    var begun = function (event) {
      if (!event.target.closest(".save-bar")) { // the next deal begun: too late to undo this one
        window.clearInterval(timer);
        removeUndo(undo);
        form.removeEventListener("pointerdown", begun);
        form.removeEventListener("keydown", begun);
      }
    };
    if (form) {
      form.addEventListener("pointerdown", begun);
      form.addEventListener("keydown", begun);
    }
  }

  function prepare() {
    document.querySelectorAll("form.deal-form").forEach(function (form) {
      var keypad = form.querySelector(".keypad");
      var box = form.querySelector(".field-points input");
      if (keypad && box && touch.matches) {
        keypad.hidden = false;
        box.setAttribute("inputmode", "none"); // the page's keypad, not the phone's keyboard
      }
      if (touch.matches) {
        form.classList.add("tap-to-clear"); // no « — » buttons: a chosen button tapped again clears its row
      }
      var extras = form.querySelector("details.announces");
      if (extras && laptop.matches) {
        extras.open = true;
        extras.querySelector("summary").tabIndex = -1; // Tab goes from the points to the poignées
      }
      if (extras && phone.matches && !extras.dataset.placed) {
        extras.dataset.placed = "1";
        extras.addEventListener("toggle", function () {
          if (extras.open) { // the rows above are answered: the extras take the screen
            extras.scrollIntoView({ block: "start" });
          }
        });
      }
      showDealer(form);
      partnerRow(form);
    });
    startUndo();
  }

  /* A chosen button of the played deal's rows tapped again: its row back to « — » (hidden). */
  function clear(event) {
    if (event.target.tagName === "INPUT") {
      return false; // the radio's own click, that the label's sends once checked: not a second tap
    }
    var label = event.target.closest && event.target.closest(".tap-to-clear .played-only > .segmented-field label, .tap-to-clear .petit-line label");
    var radio = label && label.querySelector('input[type="radio"]');
    if (!radio || !radio.checked || radio.value === "" || radio.name === "contract") {
      return false;
    }
    event.preventDefault();
    check(label.closest("form"), radio.name, "");
    return true;
  }

  document.addEventListener("click", function (event) {
    if (clear(event)) {
      return;
    }
    var key = event.target.closest && event.target.closest(".keypad button");
    var form = dealForm(event.target);
    if (key && form) {
      type(form.querySelector(".field-points input"), key.dataset.digit);
      return;
    }
    var like = event.target.closest && event.target.closest("a.like-previous");
    if (like && form) {
      event.preventDefault();
      likePrevious(form, like);
    }
  });

  /* On a touch screen the taker is not offered as his own partner (the row then fits one line). */
  function partnerRow(form) {
    var taker = form.querySelector('input[name="taker"]:checked');
    if (!form.classList.contains("tap-to-clear")) {
      return;
    }
    form.querySelectorAll('input[type="radio"][name="partner"]').forEach(function (radio) {
      var label = radio.closest("label.seat");
      if (label) {
        label.hidden = Boolean(taker && taker.value && radio.value === taker.value);
        if (label.hidden && radio.checked) {
          check(form, "partner", "");
        }
      }
    });
  }

  document.addEventListener("change", function (event) {
    var form = dealForm(event.target);
    if (form && event.target.name === "taker") {
      partnerRow(form);
    }
    if (form && event.target.name === "chelem_announced" && event.target.checked) {
      var maker = form.querySelector('input[name="chelem_made_by"]:checked');
      if (!maker || maker.value === "") {
        check(form, "chelem_made_by", "attack");
      }
    }
    if (form && event.target.name === "dealer") {
      showDealer(form);
      var fold = event.target.closest(".dealer-fold");
      if (fold && event.isTrusted) {
        fold.open = false;
      }
    }
  });

  document.addEventListener("reset", function (event) { // a deal kept offline empties the form
    var form = dealForm(event.target);
    if (form) {
      window.setTimeout(function () { partnerRow(form); showDealer(form); }, 0);
    }
  }, true);
  document.addEventListener("htmx:afterSettle", prepare);
  document.addEventListener("DOMContentLoaded", function () {
    prepare();
    var entry = document.getElementById("saisie");
    if (entry && (phone.matches || touch.matches) && !window.location.hash && entry.querySelector("form.deal-form")) {
      // a phone: the form on the whole screen; a tablet: the grid and the form side by side
      (phone.matches ? entry : entry.closest(".entry-columns") || entry).scrollIntoView({ block: "start" });
    }
  });
})();
