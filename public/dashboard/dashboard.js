// The account dashboard works without this file. With it, "Copy" buttons copy the secret next to
// them, and a form that changes something is sent once: a double click (or a second Enter) while
// its answer is on the way is dropped and its buttons are disabled, so the customer sees the answer
// to the first send (a new key, shown once) and not the refusal of a second.
document.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const field = document.getElementById(button.getAttribute('data-copy'));
  if (!field) return;
  const done = () => {
    button.textContent = 'Copied';
  };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, () => field.select());
  else field.select();
});

const submitButtons = (form) => form.querySelectorAll('button:not([type]), button[type="submit"], input[type="submit"]');

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.method !== 'post' || event.defaultPrevented) return;
  if (form.dataset.sent === 'yes') {
    event.preventDefault();
    return;
  }
  form.dataset.sent = 'yes';
  // After this turn: the send under way already has its fields (a disabled button would leave its own out).
  setTimeout(() => {
    for (const button of submitButtons(form)) button.disabled = true;
  }, 0);
});

// A page the browser kept and shows again (Back): its forms may be sent anew.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const form of document.querySelectorAll('form[data-sent]')) {
    delete form.dataset.sent;
    for (const button of submitButtons(form)) button.disabled = false;
  }
});
