// Creating a person: used by `overlook users create`, the demo data and tests.
import type { PlatformDb } from '../database.js';
import { ApiError } from '../../lib/errors.js';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../lib/auth/passwords.js';
import { normaliseEmail, toUserRecord, type UserRecord } from './user-record.js';
import { findUserByEmail, insertUser } from './users-repository.js';
import { newId } from '../../lib/ids.js';

export interface NewUser {
  email: string;
  password: string;
  firstname?: string;
  lastname?: string;
  isAdmin?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Whether a normalised e-mail is one an account can have. */
export const isEmailAddress = (email: string): boolean => EMAIL.test(email) && email.length <= 254;
export const DEFAULT_FEATURES = ['live_view', 'recordings', 'ptz', 'api_keys'];

export function checkPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw new ApiError('VALIDATION_ERROR', `${field}: must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`, {
      details: [{ field, message: 'bad length' }],
    });
  }
}

export async function createUser(db: PlatformDb, input: NewUser): Promise<UserRecord> {
  const email = normaliseEmail(input.email);
  if (!isEmailAddress(email)) throw new ApiError('VALIDATION_ERROR', 'email: is not an e-mail address', { details: [{ field: 'email', message: 'invalid' }] });
  checkPassword(input.password);
  if (await findUserByEmail(db, email)) throw new ApiError('CONFLICT', `A user with e-mail ${email} already exists`);
  const now = new Date().toISOString();
  const row = {
    id: newId(),
    email,
    password_hash: await hashPassword(input.password),
    firstname: input.firstname ?? '',
    lastname: input.lastname ?? '',
    is_admin: input.isAdmin ? 1 : 0,
    features: JSON.stringify(input.isAdmin ? [...DEFAULT_FEATURES, 'admin'] : DEFAULT_FEATURES),
    created_at: now,
    updated_at: now,
  };
  await insertUser(db, row);
  return toUserRecord(row);
}
