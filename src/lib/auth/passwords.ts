// Passwords: argon2id (OWASP's recommended parameters: 19 MiB, 2 passes, 1 lane).
import { hash, verify, Algorithm } from '@node-rs/argon2';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 256;

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// A hash of a random password, verified against when the account does not exist, so an unknown
// e-mail takes as long as a wrong password.
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword(`dummy-${Math.random()}`));
