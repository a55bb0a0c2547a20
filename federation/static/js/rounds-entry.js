/* Entry page of a round, with htmx (loaded after htmx.min.js). Every form works without it.
 *
 * - An answer that htmx must not put into the page (403, 404, 500..., or the login page when the
 *   session has expired and the server redirected): the form is sent again the ordinary way, so
 *   the browser shows that page exactly as it would without JavaScript.
 * - Once a form has been answered in place, the messages of the last full page load are stale:
 *   they are removed (the answer carries its own).
 *
 * The site's Content-Security-Policy allows no inline script or style and no eval, so htmx is told
 * (before it starts, on DOMContentLoaded, this file being deferred after it) not to insert its
 * indicator <style> (site.css has the same rules), never to evaluate code from attributes, and
 * never to run a <script> found in an answer.
 */
(function () {
  "use strict";

  if (window.htmx) {
    window.htmx.config.includeIndicatorStyles = false;
    window.htmx.config.allowEval = false;
    window.htmx.config.allowScriptTags = false;
  }

  function pathOf(url) {
    return new URL(url, window.location.href).pathname;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var form = detail.requestConfig && detail.requestConfig.elt;
    if (!form || form.tagName !== "FORM") {
      return;
    }
    var redirected = detail.xhr.responseURL && pathOf(detail.xhr.responseURL) !== pathOf(detail.requestConfig.path);
    if (detail.isError || redirected) {
      detail.shouldSwap = false;
      form.submit();
    }
  });

  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("main > .messages").forEach(function (list) {
      list.remove();
    });
  });
})();
