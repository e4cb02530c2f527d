import type { Queryable } from '../db/database';
import { errors, AuthError } from './errors';
import { generateUuid } from './tokens';

/** PKCE: a code challenge kept until the link is used, then exchanged once for a session. */

export interface CodeChallenge {
  challenge: string;
  method: 's256' | 'plain';
}

const FLOW_STATE_LIFETIME_SECONDS = 300;

/** Reads `code_challenge`/`code_challenge_method` from a body; undefined for the implicit flow. */
export function readCodeChallenge(body: {
  code_challenge?: string | null;
  code_challenge_method?: string | null;
}): CodeChallenge | undefined {
  const challenge = body.code_challenge ?? undefined;
  const method = body.code_challenge_method?.toLowerCase() ?? undefined;
  if (!challenge && !method) return undefined;
  if (!challenge || !method) {
    throw errors.validation('PKCE flow requires code_challenge_method and code_challenge');
  }
  if (method !== 's256' && method !== 'plain') {
    throw errors.validation(`code challenge method not supported: ${method}`);
  }
  if (challenge.length < 43 || challenge.length > 128) {
    throw errors.validation('code challenge has to be between 43 and 128 characters');
  }
  return { challenge, method };
}

export async function createFlowState(
  db: Queryable,
  userId: string,
  challenge: CodeChallenge,
  authenticationMethod: string,
): Promise<void> {
  await db.query(
    `insert into auth.flow_state (id, user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method, created_at, updated_at)
     values ($1, $2, $3, $4, $5, 'email', $6, now(), now())`,
    [
      generateUuid(),
      userId,
      generateUuid(),
      challenge.method,
      challenge.challenge,
      authenticationMethod,
    ],
  );
}

/** After a verified link: the auth code to send back, if the flow was started with PKCE. */
export async function issueAuthCode(
  db: Queryable,
  userId: string,
  authenticationMethods: string[],
): Promise<string | undefined> {
  const { rows } = await db.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
     where id = (
       select id from auth.flow_state
       where user_id = $1 and authentication_method = any($2::text[]) and auth_code_issued_at is null
       order by created_at desc limit 1
     )
     returning auth_code`,
    [userId, authenticationMethods],
  );
  return rows[0]?.auth_code;
}

export interface ConsumedFlow {
  userId: string;
  authenticationMethod: string;
}

export async function consumeFlowState(
  db: Queryable,
  authCode: string,
  verifier: string,
  matches: (verifier: string, challenge: string, method: 's256' | 'plain') => boolean,
): Promise<ConsumedFlow> {
  const { rows } = await db.query<{
    id: string;
    user_id: string | null;
    code_challenge: string;
    code_challenge_method: 's256' | 'plain';
    authentication_method: string;
    age_seconds: number;
  }>(
    `select id, user_id, code_challenge, code_challenge_method, authentication_method,
            extract(epoch from (now() - coalesce(auth_code_issued_at, created_at)))::float8 as age_seconds
     from auth.flow_state where auth_code = $1 for update`,
    [authCode],
  );
  const flow = rows[0];
  if (!flow || !flow.user_id) {
    throw new AuthError(
      404,
      'flow_state_not_found',
      'invalid flow state, no valid flow state found',
    );
  }
  if (flow.age_seconds > FLOW_STATE_LIFETIME_SECONDS) {
    await db.query(`delete from auth.flow_state where id = $1`, [flow.id]);
    throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired');
  }
  if (!matches(verifier, flow.code_challenge, flow.code_challenge_method)) {
    throw new AuthError(
      400,
      'bad_code_verifier',
      'code challenge does not match previously saved code verifier',
    );
  }
  await db.query(`delete from auth.flow_state where id = $1`, [flow.id]);
  return { userId: flow.user_id, authenticationMethod: flow.authentication_method };
}
