import type { RealtimeChannel, RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getSupabase } from '@/lib/supabase';
import { callsKeys } from './query-keys';

export type LiveState = 'connecting' | 'live' | 'reconnecting';

export interface CallsLive {
  state: LiveState;
  /** Calls that arrived while the page was open, newest first, for a while. */
  newCallIds: readonly string[];
}

/** Changes are gathered this long before the numbers and lists reload… */
export const LIVE_DEBOUNCE_MS = 500;
/** …but a steady stream reloads them at least this often. */
export const LIVE_MAX_WAIT_MS = 2000;
/** How long a new call stays highlighted. */
export const NEW_CALL_HIGHLIGHT_MS = 15_000;
/** The subscription waits for the page's first numbers, at most this long. */
export const LIVE_START_WAIT_MS = 3000;

/**
 * Each subscription gets its own topic: the client hands back a channel of the
 * same name while that one is still closing (leaving a page for another that
 * subscribes too), and a closing channel cannot be joined again.
 */
let subscriptions = 0;

function insertedId(payload: RealtimePostgresChangesPayload<{ id?: unknown }>): string | null {
  if (payload.eventType !== 'INSERT') return null;
  const id = payload.new.id;
  return typeof id === 'string' ? id : null;
}

/**
 * One subscription to the workspace's calls while the page is open: any
 * insert, update or delete reloads the KPIs, trends and lists (debounced), and
 * an inserted call is flagged as new. Unsubscribes when the page closes.
 */
export function useCallsLive(workspaceId: string | undefined): CallsLive {
  const queryClient = useQueryClient();
  // Kept with the workspace it is about: another workspace starts as 'connecting'.
  const [connection, setConnection] = useState<{ workspaceId: string; state: LiveState } | null>(
    null,
  );
  const [newCallIds, setNewCallIds] = useState<readonly string[]>([]);

  useEffect(() => {
    if (!workspaceId) return;
    let isClosed = false;
    let channel: RealtimeChannel | undefined;
    let debounce: ReturnType<typeof setTimeout> | undefined;
    let firstPendingAt: number | null = null;
    let wasConnected = false;
    const highlightTimers = new Set<ReturnType<typeof setTimeout>>();

    const reload = () => {
      debounce = undefined;
      firstPendingAt = null;
      void queryClient.invalidateQueries({ queryKey: callsKeys.workspace(workspaceId) });
    };
    const scheduleReload = () => {
      const now = Date.now();
      firstPendingAt ??= now;
      if (debounce) clearTimeout(debounce);
      const wait = Math.min(LIVE_DEBOUNCE_MS, Math.max(0, firstPendingAt + LIVE_MAX_WAIT_MS - now));
      debounce = setTimeout(reload, wait);
    };
    const flagNew = (id: string) => {
      setNewCallIds((ids) => [id, ...ids.filter((known) => known !== id)].slice(0, 20));
      const timer = setTimeout(() => {
        highlightTimers.delete(timer);
        setNewCallIds((ids) => ids.filter((known) => known !== id));
      }, NEW_CALL_HIGHLIGHT_MS);
      highlightTimers.add(timer);
    };

    const setState = (state: LiveState) => setConnection({ workspaceId, state });
    const key = callsKeys.workspace(workspaceId);
    // The numbers on the page were read before the subscription was live: a call stored
    // in between was not pushed, so the first SUBSCRIBED reloads them as a reconnect does.
    const hasData = () =>
      queryClient.getQueriesData({ queryKey: key }).some(([, data]) => data !== undefined);

    const subscribe = () => {
      void getSupabase()
        .then((supabase) => {
          if (isClosed) return;
          channel = supabase
            .channel(`calls:${workspaceId}:${(subscriptions += 1)}`)
            .on(
              'postgres_changes',
              {
                event: '*',
                schema: 'public',
                table: 'calls',
                filter: `workspace_id=eq.${workspaceId}`,
              },
              (payload: RealtimePostgresChangesPayload<{ id?: unknown }>) => {
                const id = insertedId(payload);
                if (id) flagNew(id);
                scheduleReload();
              },
            )
            .subscribe((status) => {
              if (isClosed) return;
              if (status === 'SUBSCRIBED') {
                // Back after a break, or joined after the page read its numbers: what
                // arrived meanwhile was not pushed, so reload.
                if (wasConnected || hasData()) scheduleReload();
                wasConnected = true;
                setState('live');
              } else {
                setState(wasConnected ? 'reconnecting' : 'connecting');
              }
            });
        })
        .catch(() => {
          if (!isClosed) setState('reconnecting');
        });
    };

    // Join once the page's first requests are answered: a socket joining meanwhile
    // (its token check and its row-level security plan) competes with them for the
    // server, and the numbers are what the visitor came for.
    let isStarted = false;
    let stopWaiting: (() => void) | undefined;
    const start = () => {
      if (isStarted || isClosed) return;
      isStarted = true;
      stopWaiting?.();
      clearTimeout(waitLimit);
      subscribe();
    };
    const isSettled = () => queryClient.isFetching({ queryKey: key }) === 0;
    const waitLimit = setTimeout(start, LIVE_START_WAIT_MS);
    if (isSettled()) start();
    else {
      stopWaiting = queryClient.getQueryCache().subscribe(() => {
        if (isSettled()) start();
      });
    }

    return () => {
      isClosed = true;
      stopWaiting?.();
      clearTimeout(waitLimit);
      if (debounce) clearTimeout(debounce);
      for (const timer of highlightTimers) clearTimeout(timer);
      if (channel) {
        const closing = channel;
        void getSupabase().then((supabase) => supabase.removeChannel(closing));
      }
    };
  }, [workspaceId, queryClient]);

  const state =
    connection && connection.workspaceId === workspaceId ? connection.state : 'connecting';
  return { state, newCallIds };
}
