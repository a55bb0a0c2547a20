// A member's private link, /moi/lien/#SECRET (federation/private_links.py): the secret is in the
// fragment, which the browser never sends. Put it in the form, take it out of the address bar and
// the history, and post it at once. Without this script, the member pastes it in the field.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-private-link]");
  const secret = decodeURIComponent(window.location.hash.slice(1)).trim();
  if (!form || !secret) return;
  history.replaceState(null, "", window.location.pathname + window.location.search);
  form.elements.secret.value = secret;
  const opening = document.querySelector(".link-opening");
  if (opening) opening.hidden = false;
  form.submit();
});
