// The account dashboard works without this file; with it, "Copy" buttons copy the secret next to them.
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
