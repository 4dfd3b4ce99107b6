// The page's own dialog, in place of prompt() and confirm(): it looks like
// the rest of the page, is labelled for screen readers, traps focus while open
// (showModal) and can say what is wrong with a name before it closes.

const dialog = document.getElementById('dialog');
const form = dialog.querySelector('form');
const input = document.getElementById('dialog-input');
const error = document.getElementById('dialog-error');
const ok = document.getElementById('dialog-ok');
const extra = document.getElementById('dialog-extra');
let check = null;

function open({ title, text = '', label = null, value = '', problem = null, confirm = 'OK', cancel = 'Cancel', other = null, danger = false }) {
  if (dialog.open) dialog.close('cancel');
  document.getElementById('dialog-title').textContent = title;
  document.getElementById('dialog-text').textContent = text;
  document.getElementById('dialog-text').hidden = !text;
  document.getElementById('dialog-field').hidden = label === null;
  document.getElementById('dialog-label').textContent = label ?? '';
  document.getElementById('dialog-cancel').textContent = cancel;
  input.value = value;
  input.removeAttribute('aria-invalid');
  error.textContent = problem ?? '';
  if (problem) input.setAttribute('aria-invalid', 'true');
  error.hidden = label === null; // a question has no field to be wrong about
  ok.textContent = confirm;
  ok.classList.toggle('danger', danger);
  extra.hidden = !other;
  extra.textContent = other ?? '';
  dialog.returnValue = '';
  dialog.showModal();
  if (label !== null) input.select();
  else (danger ? document.getElementById('dialog-cancel') : ok).focus();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue || 'cancel'), { once: true });
  });
}

// A name is checked before the dialog closes: the message stays next to the field.
form.addEventListener('submit', (event) => {
  if (event.submitter?.value !== 'ok' || !check || document.getElementById('dialog-field').hidden) return;
  const problem = check(input.value.trim());
  if (!problem) return;
  event.preventDefault();
  error.textContent = problem;
  input.setAttribute('aria-invalid', 'true');
  input.focus();
});
// Enter in the field is OK: the form's own default would be its first button, Cancel.
input.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.isComposing) return;
  event.preventDefault();
  form.requestSubmit(ok);
});
input.addEventListener('input', () => {
  error.textContent = '';
  input.removeAttribute('aria-invalid');
});

/**
 * Asks for a name; `validate(name)` returns a problem to show, or null;
 * `problem` is shown at once (what the server said of the last try).
 * Resolves to the name, or null.
 */
export async function askName({ title, label, value, confirm, validate, problem = null }) {
  check = validate;
  const answer = await open({ title, label, value, problem, confirm });
  check = null;
  return answer === 'ok' ? input.value.trim() : null;
}

/** Asks a question; resolves to 'ok', 'extra' (the `other` button) or 'cancel'. */
export function ask(options) {
  check = null;
  return open(options);
}

export const dialogOpen = () => dialog.open;
