// The media hub screen's list: the project's items page by page, newest first, with every unfinished
// render (pending or processing) asked about again every POLL_MS until it is completed or failed.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get } from './api.js';

const PAGE_SIZE = 24;
const POLL_MS = 1500;

export const unfinished = (item) => item.status === 'pending' || item.status === 'processing';
export const itemPath = (project, id) => `/v2/projects/${encodeURIComponent(project)}/media-hub/${encodeURIComponent(id)}`;

export function useMediaItems(project) {
  const [state, setState] = useState({ items: undefined, error: undefined, page: 0, pages: 0 });

  const loadPage = async (page) => {
    try {
      const res = await get(`/v2/projects/${encodeURIComponent(project)}/media-hub?page=${page}&page_size=${PAGE_SIZE}`);
      setState((s) => {
        const known = new Set((page === 1 ? [] : (s.items ?? [])).map((i) => i.id));
        const items = [...(page === 1 ? [] : (s.items ?? [])), ...res.data.filter((i) => !known.has(i.id))];
        return { items, error: undefined, page, pages: res.meta.total_pages };
      });
    } catch (error) {
      setState((s) => ({ ...s, error }));
    }
  };
  useEffect(() => {
    loadPage(1);
  }, [project]);

  const replace = (item) => setState((s) => ({ ...s, items: (s.items ?? []).map((i) => (i.id === item.id ? item : i)) }));
  const remove = (id) => setState((s) => ({ ...s, items: (s.items ?? []).filter((i) => i.id !== id) }));
  const add = (item) => setState((s) => ({ ...s, items: [item, ...(s.items ?? []).filter((i) => i.id !== item.id)] }));

  // Renders in progress: each asked about again after a pause, until it ends.
  const waiting = (state.items ?? []).filter(unfinished).map((i) => i.id);
  const key = waiting.join(',');
  useEffect(() => {
    if (!waiting.length) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      for (const id of waiting) {
        try {
          replace(await get(itemPath(project, id), { signal: controller.signal }));
        } catch (e) {
          if (e instanceof ApiError && e.status === 404) remove(id);
          // Anything else (a dropped connection): asked again on the next round.
        }
      }
      // Each round ends in a state change, so an unchanged status still schedules the next round.
      if (!controller.signal.aborted) setState((s) => ({ ...s, rounds: (s.rounds ?? 0) + 1 }));
    }, POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [key, state.rounds]);

  return {
    items: state.items,
    error: state.error,
    more: state.page < state.pages ? () => loadPage(state.page + 1) : null,
    add,
    replace,
    remove,
  };
}
