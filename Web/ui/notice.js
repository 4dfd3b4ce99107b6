// A short notice at the bottom ("Cleared — Undo"): it says what just
// happened and offers to take it back, then hides by itself. It waits while
// the pointer is over it or a button in it has the keyboard's focus, so
// nobody loses the button while reaching for it.

const region = document.getElementById('notice');
const box = region.querySelector('.notice-box');
const SHOWN_MS = 6000;
let timer = 0;
let hideWhenFree = false;

/** Shows `text` with `actions` ([title, handler] pairs); a handler runs once, then the notice hides. */
export function showNotice(text, actions = []) {
  document.getElementById('notice-text').textContent = text;
  const buttons = document.getElementById('notice-actions');
  buttons.replaceChildren(
    ...actions.map(([title, action]) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = title;
      button.addEventListener('click', () => {
        hideNotice();
        action();
      });
      return button;
    }),
  );
  box.hidden = false;
  restartTimer();
}

export function hideNotice() {
  clearTimeout(timer);
  hideWhenFree = false;
  if (box.contains(document.activeElement)) document.activeElement.blur();
  box.hidden = true;
}

export const noticeText = () => (box.hidden ? '' : box.textContent.trim());

function restartTimer() {
  clearTimeout(timer);
  hideWhenFree = false;
  timer = setTimeout(() => {
    if (box.matches(':hover') || box.contains(document.activeElement)) hideWhenFree = true;
    else hideNotice();
  }, SHOWN_MS);
}

const hideIfDue = () => hideWhenFree && setTimeout(() => !box.matches(':hover') && !box.contains(document.activeElement) && hideNotice(), 1500);
box.addEventListener('pointerleave', hideIfDue);
box.addEventListener('focusout', hideIfDue);
