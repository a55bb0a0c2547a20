// The "copy the address" buttons (data-copy = the selector of the field to copy): shown only where
// the clipboard can be written; the field itself stays selectable everywhere.
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("[data-copy]").forEach((button) => {
    const field = document.querySelector(button.dataset.copy);
    if (!field || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(field.value).then(() => {
        button.textContent = button.dataset.copied;
      });
    });
  });
  document.querySelectorAll("[data-copy-source]").forEach((field) => {
    field.addEventListener("focus", () => field.select());
  });
});
