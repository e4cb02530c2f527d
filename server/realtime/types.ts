import type { ApiRole } from '../db/request-context';

/**
 * Shapes shared by the realtime service's parts (contract §5): the socket
 * server, channels, broadcast, presence and database changes.
 */

/** Who a channel acts for: the verified access token's role and claims. */
export interface ChannelAuth {
  role: ApiRole;
  /** The verified JWT claims, `role` included. */
  claims: Record<string, unknown>;
}

/** A `postgres_changes` binding as the client sends it in `phx_join` (contract §5.3). */
export interface PostgresChangeParams {
  event: string;
  schema: string;
  table?: string;
  filter?: string;
}

/** The binding as the join reply returns it, with the id later `postgres_changes` pushes name. */
export interface ResolvedBinding extends PostgresChangeParams {
  id: number;
}

/** The payload of a `postgres_changes` push (contract §5.6). */
export interface PostgresChangesPayload {
  ids: number[];
  data: {
    schema: string;
    table: string;
    commit_timestamp: string;
    type: 'INSERT' | 'UPDATE' | 'DELETE';
    columns: { name: string; type: string }[];
    record?: Record<string, unknown>;
    old_record?: Record<string, unknown>;
    errors: null | string[];
  };
}

/** A `system` push: `{extension, status, message, channel}`. */
export interface SystemMessage {
  extension: string;
  status: 'ok' | 'error';
  message: string;
}

export interface ChangeSubscription {
  /** The bindings in the order requested, each with its id. */
  readonly bindings: ResolvedBinding[];
  /** Sent to the channel once joined ("Subscribed to PostgreSQL", or why not). */
  readonly system: SystemMessage;
  /** Stops deliveries; idempotent. */
  close(): void;
}

export interface PostgresChangesService {
  /**
   * Registers a channel's bindings. `auth()` is read at each delivery (the
   * token may be refreshed on an open channel); `deliver` is called once per
   * change with every binding id of this channel that matched it.
   */
  subscribe(options: {
    topic: string;
    params: PostgresChangeParams[];
    auth: () => ChannelAuth;
    deliver: (payload: PostgresChangesPayload) => void;
  }): Promise<ChangeSubscription>;
  /** Stops listening; pending deliveries are dropped. */
  stop(): Promise<void>;
}
