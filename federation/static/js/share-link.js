// « Partager » (data-share = the selector of the field holding the address): the phone's own
// sharing sheet (navigator.share), shown only where the browser has one.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("[data-share]").forEach((button) => {
    const field = document.querySelector(button.dataset.share);
    if (!field || !navigator.share) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.share({ title: button.dataset.shareTitle, url: field.value }).catch(() => {});
    });
  });
});
