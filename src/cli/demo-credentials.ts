// Where `overlook up` keeps the demo sign-in for the next start: the banner shows the password once,
// so it is written to a file only the owner can read, next to the database.
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const demoCredentialsFile = (dataDir: string): string => join(dataDir, 'demo-credentials.txt');

/** Writes (or rewrites) the file, owner-only. */
export function writeDemoCredentials(dataDir: string, email: string, password: string): string {
  const file = demoCredentialsFile(dataDir);
  writeFileSync(file, `e-mail:   ${email}\npassword: ${password}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above applies only to a file it creates
  return file;
}

/** After a password reset of the demo person: the file, if there is one, says the new password. */
export function refreshDemoCredentials(dataDir: string, email: string, password: string): string | null {
  return existsSync(demoCredentialsFile(dataDir)) ? writeDemoCredentials(dataDir, email, password) : null;
}
