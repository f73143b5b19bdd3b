// Tests read JSON from real HTTP answers (fetch) and assert on its shape: there, `json()` answers `any`
// as the DOM's typings have it, instead of Node's `unknown`. Test-only: the build (src alone, at install)
// keeps `unknown` for the server's own code.
export {};

declare global {
  interface Response {
    json(): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  }
}
