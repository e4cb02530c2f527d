import { randomInt } from 'node:crypto';
import { paths } from '../../src/config/paths';
import { DatabaseError, type Database } from '../db/database';
import type { AuthConfig } from './auth-config';
import { createUser } from './create-user';
import { checkPasswordStrength, hashPassword } from './passwords';

/**
 * Three confirmed accounts to explore the product with, created on a
 * database's first start (main.ts decides when; `SEED_DEMO=false` turns it
 * off). Passwords are random, stored only as hashes, and returned once for the
 * operator to see: they cannot be shown again.
 */

export interface DemoAccount {
  label: 'customer' | 'partner' | 'admin';
  email: string;
  password: string;
  role: string | undefined;
}

interface DemoAccountSpec {
  label: DemoAccount['label'];
  email: string;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
}

export const DEMO_ACCOUNTS: readonly DemoAccountSpec[] = [
  {
    label: 'customer',
    email: 'customer@demo.cervana.ai',
    userMetadata: { full_name: 'Casey Customer', company: 'Northwind Logistics' },
    appMetadata: {},
  },
  {
    label: 'partner',
    email: 'partner@demo.cervana.ai',
    userMetadata: { full_name: 'Parker Partner', company: 'Brightpath Advisors' },
    appMetadata: { role: 'partner' },
  },
  {
    label: 'admin',
    email: 'admin@demo.cervana.ai',
    userMetadata: { full_name: 'Alex Admin', company: 'Cervana' },
    appMetadata: { role: 'admin' },
  },
];

export interface SeedLog {
  info(message: string): void;
}

// No look-alike characters (0/O, 1/l/I), so a password read off a terminal types correctly.
const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function randomCharacter(set: string): string {
  return [...set][randomInt(0, [...set].length)]!;
}

/** 20 random characters in groups of five (about 116 bits), meeting the configured rules. */
export function generateDemoPassword(rules: AuthConfig['password']): string {
  const groups = Array.from({ length: 4 }, () =>
    Array.from({ length: 5 }, () => randomCharacter(ALPHABET)).join(''),
  );
  let password = groups.join('-');
  // PASSWORD_REQUIRED_CHARACTERS may ask for sets the alphabet lacks (symbols, say).
  for (const set of rules.requiredCharacterSets) {
    if (![...password].some((character) => set.includes(character))) {
      password += randomCharacter(set);
    }
  }
  checkPasswordStrength(rules, password);
  return password;
}

async function existingEmails(db: Database): Promise<Set<string>> {
  const { rows } = await db.query<{ email: string }>(
    `select lower(email) as email from auth.users where lower(email) = any($1::text[])`,
    [DEMO_ACCOUNTS.map((account) => account.email)],
  );
  return new Set(rows.map((row) => row.email));
}

/**
 * Creates the demo accounts that do not exist yet, in one transaction, and
 * returns their credentials (none when they all exist or seeding is off).
 */
export async function seedDemoAccounts(
  db: Database,
  authConfig: AuthConfig,
  log: SeedLog,
): Promise<DemoAccount[]> {
  if (!authConfig.seedDemoAccounts) return [];
  const existing = await existingEmails(db);
  const missing = DEMO_ACCOUNTS.filter((account) => !existing.has(account.email));
  if (missing.length === 0) return [];

  // Hashing runs on the thread pool: all three at once, before the transaction.
  const prepared = await Promise.all(
    missing.map(async (spec) => {
      const password = generateDemoPassword(authConfig.password);
      return { spec, password, hash: await hashPassword(password) };
    }),
  );
  try {
    const created = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ email: string }>(
        `select lower(email) as email from auth.users where lower(email) = any($1::text[])`,
        [missing.map((account) => account.email)],
      );
      const taken = new Set(rows.map((row) => row.email));
      const accounts: DemoAccount[] = [];
      for (const { spec, password, hash } of prepared) {
        if (taken.has(spec.email)) continue;
        await createUser(tx, {
          email: spec.email,
          encryptedPassword: hash,
          emailConfirmed: true,
          userMetadata: spec.userMetadata,
          appMetadata: spec.appMetadata,
          role: authConfig.defaultRole,
          aud: authConfig.audience,
        });
        accounts.push({
          label: spec.label,
          email: spec.email,
          password,
          role: typeof spec.appMetadata.role === 'string' ? spec.appMetadata.role : undefined,
        });
      }
      return accounts;
    });
    if (created.length > 0) {
      log.info(`created demo accounts: ${created.map((account) => account.email).join(', ')}`);
    }
    const partner = created.find((account) => account.label === 'partner');
    if (partner) await seedSamplePartnerActivity(db, partner.email);
    return created;
  } catch (error) {
    // Another server seeding the same database at the same moment won the race.
    if (error instanceof DatabaseError && error.code === '23505') return [];
    throw error;
  }
}

/**
 * The demo partner's portal opens on sample referrals, leads and commissions
 * (each labelled "(sample)"), written once by SQL after the account's partner
 * record exists (a trigger makes it when the account's transaction commits).
 */
async function seedSamplePartnerActivity(db: Database, email: string): Promise<void> {
  await db.query(
    `select private.seed_sample_partner_activity(p.id)
     from public.partners p join auth.users u on u.id = p.user_id
     where lower(u.email) = $1`,
    [email],
  );
}

/** The credentials box main.ts prints once, to stdout. */
export function formatDemoAccounts(accounts: readonly DemoAccount[], siteUrl: string): string {
  const lines = [
    'Demo accounts (created on this first start)',
    '',
    `Sign in at ${siteUrl}${paths.auth}`,
    '',
    ...accounts.flatMap((account) => [
      `${account.label.padEnd(9)} ${account.email}`,
      `${''.padEnd(9)} password: ${account.password}`,
    ]),
    '',
    'These passwords are shown ONCE and are not stored anywhere readable.',
    'Copy them now, or reset them later. SEED_DEMO=false turns this off.',
  ];
  const width = Math.max(...lines.map((line) => line.length));
  const border = `+${'-'.repeat(width + 2)}+`;
  return [border, ...lines.map((line) => `| ${line.padEnd(width)} |`), border].join('\n');
}
