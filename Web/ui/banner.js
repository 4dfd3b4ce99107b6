// The one-line message under the toolbar: offline, conflicts, errors.

export function showBanner(text, kind, actions = []) {
  const banner = document.getElementById('banner');
  document.getElementById('banner-text').textContent = text;
  const box = document.getElementById('banner-actions');
  box.innerHTML = '';
  for (const [title, action] of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = title;
    button.addEventListener('click', action);
    box.append(button);
  }
  banner.className = kind || '';
  banner.hidden = false;
}

export function hideBanner() {
  document.getElementById('banner').hidden = true;
}

/** Offers `text` as a file download named `filename`. */
export function download(blob, filename) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}
