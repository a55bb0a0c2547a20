/* Keyboard entry of a deal on a laptop (the entry page; loaded after htmx.min.js and rounds-entry.js).
 *
 * Every button of the deal form that has a key (`data-key`, set by the form: a player's initial
 * or seat number, a contract's letter, a suit's letter, the bouts) is chosen by typing that key
 * while the focus is on its row; the focus then moves to the next row (`data-stop`), or to
 * « Enregistrer » once a deal that is not played is chosen. A key that the row does not know, on
 * a row already answered (the kind, an optional suit), is tried on the next row: « b » on the
 * kind row chooses Bruno as taker. Enter saves the deal from anywhere in the form. After a deal is
 * saved (htmx swaps the page part), the focus returns to the first row of the next deal.
 *
 * The poignées (one row of buttons per seat, after the points: Tab reaches them): a player's key
 * gives that player a simple poignée and moves the focus to his row, where `s` `d` `t` choose the
 * size and `0` none; the focus stays on the poignées until Enter saves.
 *
 * Nothing here scores a deal: the preview comes from the server (htmx, the scoring engine). The
 * page works without this file (and on a phone, where it only moves the focus).
 */
(function () {
  "use strict";

  function stops(form) {
    return Array.prototype.filter.call(
      form.querySelectorAll("fieldset[data-stop], .field-points input, button.save"),
      function (element) {
        return element.offsetParent !== null; // shown (a passed deal hides the played-only rows)
      }
    );
  }

  function focusStop(stop) {
    if (!stop) {
      return;
    }
    var target = stop;
    if (stop.tagName === "FIELDSET") {
      target = stop.querySelector("input:checked") || stop.querySelector("input");
    }
    target.focus();
  }

  function keyed(row, key) {
    return Array.prototype.find.call(row.querySelectorAll("input[data-key]"), function (input) {
      return input.dataset.key.split(" ").indexOf(key) !== -1;
    });
  }

  function answered(row) {
    return row.querySelector("input:checked") !== null;
  }

  function choose(form, row, input) {
    input.checked = true;
    input.dispatchEvent(new Event("change", { bubbles: true }));
    var list = stops(form);
    var index = list.indexOf(row);
    focusStop(list[index + 1]);
  }

  function poignee(rows, row, key) {
    var input = row && keyed(row, key);
    if (!input) {
      row = Array.prototype.find.call(rows.querySelectorAll(".poignee-row[data-seat-key]"), function (other) {
        return other.dataset.seatKey.split(" ").indexOf(key) !== -1;
      });
      if (!row) {
        return false;
      }
      var chosen = row.querySelector("input:checked");
      input = chosen && chosen.value ? chosen : keyed(row, "s") || row.querySelector("input");
    }
    if (!input.checked) {
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
    input.focus();
    return true;
  }

  function onKey(event) {
    var form = event.target.closest && event.target.closest("form.deal-form");
    if (!form || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    if (event.key === "Enter") {
      var tag = event.target.tagName;
      if (tag === "TEXTAREA" || tag === "BUTTON" || tag === "SUMMARY" || tag === "A") {
        return;
      }
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    if (event.target.type !== "radio" || event.key.length !== 1) {
      return;
    }
    var key = event.key.toLowerCase();
    var rows = event.target.closest("[data-poignees]");
    if (rows) {
      if (poignee(rows, event.target.closest(".poignee-row"), key)) {
        event.preventDefault();
      }
      return;
    }
    var row = event.target.closest("fieldset");
    if (!row) {
      return;
    }
    var input = keyed(row, key);
    if (!input && row.hasAttribute("data-stop") && answered(row)) {
      var list = stops(form);
      var next = list[list.indexOf(row) + 1];
      if (next && next.tagName === "FIELDSET") {
        input = keyed(next, key);
        row = input ? next : row;
      }
    }
    if (input) {
      event.preventDefault();
      choose(form, row, input);
    }
  }

  function focusNextDeal() {
    var form = document.querySelector("#saisie form.deal-form");
    if (form && window.matchMedia("(hover: hover) and (min-width: 700px)").matches) {
      focusStop(stops(form)[0]);
    }
  }

  document.addEventListener("keydown", onKey);
  document.addEventListener("htmx:afterSettle", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!source || !source.classList || !source.classList.contains("deal-form")) {
      return; // the preview, a bonus: the focus stays where it is
    }
    var refused = document.querySelector("#saisie .has-error input");
    if (refused) {
      refused.focus();
    } else {
      focusNextDeal();
    }
  });
  document.addEventListener("DOMContentLoaded", focusNextDeal);
})();
