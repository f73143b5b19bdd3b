// Whether the platform sends e-mail, for the screens that depend on it (docs/email.md): undefined
// while asking, then true or false.
import { useEffect, useState } from 'preact/hooks';
import { mailStatus } from './api.js';

export function useMailStatus() {
  const [enabled, setEnabled] = useState(undefined);
  useEffect(() => {
    let live = true;
    mailStatus().then((on) => live && setEnabled(on));
    return () => {
      live = false;
    };
  }, []);
  return enabled;
}
