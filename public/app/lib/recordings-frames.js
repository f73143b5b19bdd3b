// The recordings screen's data: all frames of one hour (paged through the list endpoint's cursor) and
// the shown frame's image with its neighbours fetched ahead, so stepping frame by frame is immediate.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, imageUrl } from './api.js';

const LIST_LIMIT = 1000;
/** Frames kept fetched on each side of the shown one; farther ones are dropped (aborted or freed). */
const KEEP = 3;

export const snapshotsPath = (camera) => `/v2/cameras/${encodeURIComponent(camera)}/recordings/snapshots`;

/** Every frame between `from` and `to` (inclusive), oldest first. An hour at 60 a minute is 4 pages. */
export async function framesBetween(camera, from, to, signal) {
  const frames = [];
  let cursor = null;
  do {
    const q = new URLSearchParams({ from, to, order: 'asc', limit: String(LIST_LIMIT) });
    if (cursor) q.set('cursor', cursor);
    const page = await get(`${snapshotsPath(camera)}?${q}`, { signal });
    frames.push(...page.data);
    cursor = page.meta.next_cursor;
  } while (cursor);
  return frames;
}

/** The newest (or oldest) frame's time, or null when nothing is recorded. */
export async function edgeFrame(camera, order, signal) {
  const page = await get(`${snapshotsPath(camera)}?order=${order}&limit=1`, { signal });
  return page.data[0]?.created_at ?? null;
}

/**
 * The image of `frames[index]` as { at, src } (src null while loading, error when it failed), the
 * neighbours fetched after it. Object URLs are freed when they leave the window or the screen closes.
 */
export function useFrameImage(camera, frames, index) {
  const cache = useRef(new Map());
  const [shown, setShown] = useState({ at: null, src: null, error: null });
  const shownAt = useRef(null);

  useEffect(() => {
    const map = cache.current;
    return () => {
      for (const entry of map.values()) drop(entry);
      map.clear();
    };
  }, []);

  useEffect(() => {
    const map = cache.current;
    const at = frames[index]?.created_at;
    if (!at) {
      setShown({ at: null, src: null, error: null });
      return undefined;
    }
    const load = (ts) => {
      let entry = map.get(ts);
      if (!entry) {
        const controller = new AbortController();
        entry = { controller, url: null };
        entry.promise = imageUrl(`${snapshotsPath(camera)}/${encodeURIComponent(ts)}`, { signal: controller.signal }).then((url) => {
          entry.url = url;
          return url;
        });
        entry.promise.catch(() => map.get(ts) === entry && map.delete(ts));
        map.set(ts, entry);
      }
      return entry.promise;
    };
    let current = true;
    load(at).then(
      (src) => {
        if (!current) return;
        shownAt.current = at;
        setShown({ at, src, error: null });
        // Neighbours next, nearest first, once the frame asked for is on screen.
        for (const d of [1, -1, 2]) if (frames[index + d]) load(frames[index + d].created_at).catch(() => {});
      },
      (error) => current && error.name !== 'AbortError' && setShown({ at, src: null, error }),
    );
    // Frames far from this one are no longer needed (the one on screen stays until replaced).
    const keep = new Set(frames.slice(Math.max(0, index - KEEP), index + KEEP + 1).map((f) => f.created_at));
    for (const [ts, entry] of map) {
      if (!keep.has(ts) && ts !== shownAt.current) {
        drop(entry);
        map.delete(ts);
      }
    }
    return () => {
      current = false;
    };
  }, [camera, frames, index]);

  return shown;
}

function drop(entry) {
  if (entry.url) URL.revokeObjectURL(entry.url);
  else entry.controller.abort();
}
