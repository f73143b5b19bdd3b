// Hash routes (`#/cameras/abc/recordings`): every screen has an address a person can bookmark and
// share, and the server needs only one page at `/`.
import { useEffect, useState } from 'preact/hooks';

const current = () => (location.hash.replace(/^#/, '') || '/').split('?')[0];

/** Matches `/cameras/:camera/recordings` against a path; returns the named parts, or null. */
export function match(pattern, path) {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}

export function useRoute() {
  const [path, setPath] = useState(current());
  useEffect(() => {
    const onChange = () => setPath(current());
    window.addEventListener('hashchange', onChange);
    // The address may have changed between the first render and this effect, with no one listening.
    onChange();
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return path;
}

export const href = (...parts) => `#/${parts.map((p) => encodeURIComponent(p)).join('/')}`;
