// The "Open" list of the ⋯ menu, a page at a time from the server
// (GET /api/drawings?limit=&search=, then each page's Link rel="next"): the
// first page when the menu opens, the next when the list is scrolled to its
// end or "More drawings" is pressed. The search field asks the server, a
// moment after the last keystroke; an answer to an older question is dropped.
// Arrow keys move through the list: up and down from drawing to drawing (and
// from the search field into the list), left and right along a drawing's
// buttons, Home and End to the first and last drawing.

import { api } from '../server/api.js';

/** Drawings a page asks the server for. */
export const PAGE_SIZE = 50;
/** Milliseconds after the last keystroke before the server is asked. */
export const SEARCH_DELAY = 200;

/** The address of the next page in a `Link` header, if it names one of the list's. */
export function nextPage(link) {
  const match = /<([^>]*)>\s*;\s*rel="next"/.exec(link ?? '');
  return match && match[1].startsWith('/api/drawings?') ? match[1] : null;
}

/**
 * Fills `list` with `itemFor(drawing)` elements, a page at a time.
 * `note(text)` makes the element that says there is nothing to show;
 * `onNames(names, fresh)` hears every page's names (fresh: a new listing);
 * `canList()` says whether this page may list the drawings (the admin's).
 */
export function pagedList({ list, filter, scroller, itemFor, note, onNames, canList = () => true }) {
  let generation = 0;
  let next = null;
  let loading = null;
  let searchTimer = 0;
  let controller = null;

  const more = document.createElement('li');
  more.className = 'menu-more';
  const moreButton = document.createElement('button');
  moreButton.type = 'button';
  moreButton.textContent = 'More drawings';
  moreButton.addEventListener('click', () => showMore());
  more.append(moreButton);
  const nearEnd = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) showMore();
  }, { root: scroller, rootMargin: '0px 0px 120px 0px' });
  nearEnd.observe(more);

  /** One page: the drawings, and the next page's address or null. */
  async function fetchPage(url) {
    controller?.abort();
    controller = new AbortController();
    const response = await api.list(url, controller.signal);
    if (!response.ok) throw new Error(response.statusText);
    return { drawings: await response.json(), next: nextPage(response.headers.get('Link')) };
  }

  function firstURL() {
    const search = filter.value.trim();
    return `/api/drawings?limit=${PAGE_SIZE}` + (search ? `&search=${encodeURIComponent(search)}` : '');
  }

  /** Replaces the list with its first page (the menu opened, or the search changed). */
  async function showFirst() {
    clearTimeout(searchTimer);
    const mine = ++generation;
    const search = filter.value.trim();
    next = null;
    list.setAttribute('aria-busy', 'true');
    let page;
    try {
      page = await fetchPage(firstURL());
    } catch (error) {
      if (mine !== generation) return;
      page = null;
    }
    if (mine !== generation) return;
    list.removeAttribute('aria-busy');
    if (!page) return list.replaceChildren(note('The server is unreachable'));
    onNames(page.drawings.map((drawing) => drawing.name), true);
    if (!page.drawings.length) {
      const text = search ? `No drawing named like “${search}”` : 'No saved drawings yet';
      const item = note(text);
      if (search) {
        item.classList.add('filter-note');
        item.setAttribute('role', 'status');
      }
      return list.replaceChildren(item);
    }
    list.replaceChildren(...page.drawings.map(itemFor));
    next = page.next;
    if (next) list.append(more);
  }

  /** Adds the next page, if there is one and none is on its way. */
  function showMore() {
    if (!next || loading) return loading;
    const mine = generation;
    const url = next;
    moreButton.disabled = true;
    moreButton.textContent = 'Loading…';
    loading = fetchPage(url)
      .then((page) => {
        if (mine !== generation) return;
        onNames(page.drawings.map((drawing) => drawing.name), false);
        const hadFocus = more.contains(document.activeElement);
        const items = page.drawings.map(itemFor);
        more.before(...items);
        next = page.next;
        if (!next) more.remove();
        if (hadFocus && items.length) items[0].querySelector('.drawing-link')?.focus();
      })
      .catch(() => {})
      .finally(() => {
        loading = null;
        moreButton.disabled = false;
        moreButton.textContent = 'More drawings';
      });
    return loading;
  }

  filter.addEventListener('input', () => {
    clearTimeout(searchTimer);
    if (canList()) searchTimer = setTimeout(showFirst, SEARCH_DELAY);
  });

  const links = () => [...list.querySelectorAll('.drawing-item .drawing-link')];

  filter.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== 'ArrowDown') return;
    // To the first drawing shown (Enter then opens it).
    const first = links()[0];
    if (!first) return;
    event.preventDefault();
    first.focus();
  });

  list.addEventListener('keydown', (event) => {
    const item = event.target.closest('.drawing-item');
    if (!item) return;
    const all = links();
    const index = all.indexOf(item.querySelector('.drawing-link'));
    const controls = [...item.querySelectorAll('a, button:not(:disabled)')];
    const column = controls.indexOf(event.target);
    let target = null;
    if (event.key === 'ArrowDown') {
      target = all[index + 1] ?? (next ? moreButton : null);
      if (!all[index + 1]) showMore();
    } else if (event.key === 'ArrowUp') {
      target = index > 0 ? all[index - 1] : filter;
    } else if (event.key === 'Home') {
      target = all[0];
    } else if (event.key === 'End') {
      target = all[all.length - 1];
    } else if (event.key === 'ArrowRight') {
      target = controls[column + 1] ?? null;
    } else if (event.key === 'ArrowLeft') {
      target = column > 0 ? controls[column - 1] : null;
    }
    if (!target) return;
    event.preventDefault();
    target.focus();
  });

  more.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowUp') return;
    event.preventDefault();
    links().at(-1)?.focus();
  });

  return {
    showFirst,
    showMore,
    /** Clears the search (Escape) and lists again. */
    clearSearch() {
      filter.value = '';
      if (canList()) showFirst();
    },
  };
}
