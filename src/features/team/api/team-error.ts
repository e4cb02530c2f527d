import { rpcErrorMessage, type RpcError } from '@/lib/forms/rpc-error';

/**
 * The team's refusals come from three places: the team-invite function
 * (`{error, field, message}` with an HTTP status), the SQL functions (a
 * sentence with a SQLSTATE) and table writes that row-level security turned
 * down. All become an RpcError whose message is a sentence for people, with
 * `details` naming the field and code 22023 when it is about one field.
 */
export class TeamError extends Error implements RpcError {
  constructor(
    message: string,
    readonly code?: string,
    readonly details?: string | null,
  ) {
    super(message);
    this.name = 'TeamError';
  }
}

/** Database answers whose message was written for people. */
const SENTENCE_CODES = new Set(['22023', '42501', '23514', 'PT404', 'PT409', 'PT429']);

/** The sentence to show for any error of the team's API calls. */
export function teamErrorMessage(error: unknown): string {
  if (error instanceof TeamError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const message = (error as { message?: unknown } | null)?.message;
  if (
    typeof code === 'string' &&
    SENTENCE_CODES.has(code) &&
    typeof message === 'string' &&
    /^[A-Z].*[.!?]$/.test(message)
  ) {
    return message;
  }
  return rpcErrorMessage(error);
}

/** Throws the error of a SQL function call as a TeamError carrying its sentence. */
export function throwTeamError(error: {
  code?: string;
  message: string;
  details?: string | null;
}): never {
  throw new TeamError(teamErrorMessage(error), error.code, error.details);
}
