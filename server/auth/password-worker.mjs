// Runs in the password pool's worker threads (see passwords.ts): bcrypt's
// synchronous calls occupy this low-priority thread, never the event loop or
// libuv's thread pool, which file access and WebCrypto share.
import bcrypt from 'bcrypt';

export function hash({ password, cost }) {
  return bcrypt.hashSync(password, cost);
}

export function compare({ password, hash: stored }) {
  return bcrypt.compareSync(password, stored);
}
