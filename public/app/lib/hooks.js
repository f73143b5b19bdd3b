// Small hooks the screens share: data from the API with loading and error states, and API images.
import { useEffect, useState } from 'preact/hooks';
import { get, imageUrl } from './api.js';

/**
 * Loads `path` (or anything `load` returns) when `deps` change; `reload()` fetches again.
 * Returns { data, error, loading, reload }.
 */
export function useApi(path, deps = [path]) {
  const [state, setState] = useState({ data: undefined, error: undefined, loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) return undefined;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    const load = typeof path === 'function' ? path(controller.signal) : get(path, { signal: controller.signal });
    load.then(
      (data) => controller.signal.aborted || setState({ data, error: undefined, loading: false }),
      (error) => controller.signal.aborted || setState({ data: undefined, error, loading: false }),
    );
    return () => controller.abort();
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((t) => t + 1) };
}

/** An API image as an object URL, refreshed every `everyMs` if given; null until loaded or on error. */
export function useImage(path, everyMs = 0) {
  const [src, setSrc] = useState(null);
  useEffect(() => {
    if (!path) return undefined;
    let url = null;
    let stop = false;
    const controller = new AbortController();
    const load = () =>
      imageUrl(path, { signal: controller.signal }).then(
        (next) => {
          if (stop) return URL.revokeObjectURL(next);
          if (url) URL.revokeObjectURL(url);
          url = next;
          setSrc(next);
        },
        () => stop || setSrc(null),
      );
    load();
    const timer = everyMs ? setInterval(load, everyMs) : undefined;
    return () => {
      stop = true;
      controller.abort();
      clearInterval(timer);
      if (url) URL.revokeObjectURL(url);
    };
  }, [path, everyMs]);
  return src;
}
