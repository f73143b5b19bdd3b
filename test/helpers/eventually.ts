// Waiting for a condition instead of sleeping (CONTRIBUTING.md, Test): polls `check` until it returns
// a value (anything but undefined or false) and returns that value, or fails naming `what` once `ms`
// have passed. A test waits only as long as the thing takes, and a slow machine gets more time
// without a slower suite. (For an assertion, vitest's `expect.poll` does the same.)
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, ms = 30_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
