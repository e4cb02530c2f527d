import type { RealtimeChannel, RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { showToast } from '@/components/ui/toaster';
import { getSupabase } from '@/lib/supabase';
import { leadsKeys } from './leads-keys';

export type LeadsLiveState = 'connecting' | 'live' | 'reconnecting';

/** Changes are gathered this long before the lists reload… */
export const LEADS_LIVE_DEBOUNCE_MS = 400;
/** …but a steady stream reloads them at least this often. */
export const LEADS_LIVE_MAX_WAIT_MS = 2000;

/** Each subscription its own topic: a closing channel of the same name cannot be joined. */
let subscriptions = 0;

type LeadChange = RealtimePostgresChangesPayload<{ company?: unknown }>;

/**
 * One subscription to the leads while a leads page is open: an insert or an
 * update reloads every leads query (debounced), and an insert says so in a
 * toast. The first SUBSCRIBED (and any reconnect) reloads too, for a lead
 * stored before the subscription was live.
 */
export function useLeadsLive(): LeadsLiveState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LeadsLiveState>('connecting');

  useEffect(() => {
    let isClosed = false;
    let channel: RealtimeChannel | undefined;
    let debounce: ReturnType<typeof setTimeout> | undefined;
    let firstPendingAt: number | null = null;

    const reload = () => {
      debounce = undefined;
      firstPendingAt = null;
      void queryClient.invalidateQueries({ queryKey: leadsKeys.all });
    };
    const scheduleReload = () => {
      const now = Date.now();
      firstPendingAt ??= now;
      if (debounce) clearTimeout(debounce);
      const wait = Math.min(
        LEADS_LIVE_DEBOUNCE_MS,
        Math.max(0, firstPendingAt + LEADS_LIVE_MAX_WAIT_MS - now),
      );
      debounce = setTimeout(reload, wait);
    };
    const handleChange = (payload: LeadChange) => {
      if (payload.eventType === 'INSERT') {
        const company = typeof payload.new.company === 'string' ? payload.new.company : 'a company';
        void showToast('message', `New lead: ${company}`);
      }
      scheduleReload();
    };

    void getSupabase()
      .then((supabase) => {
        if (isClosed) return;
        const topic = `leads:${(subscriptions += 1)}`;
        channel = supabase
          .channel(topic)
          .on(
            'postgres_changes',
            { event: 'INSERT', schema: 'public', table: 'leads' },
            handleChange,
          )
          .on(
            'postgres_changes',
            { event: 'UPDATE', schema: 'public', table: 'leads' },
            handleChange,
          )
          .subscribe((status) => {
            if (isClosed) return;
            if (status === 'SUBSCRIBED') {
              scheduleReload();
              setState('live');
            } else {
              setState((current) => (current === 'connecting' ? 'connecting' : 'reconnecting'));
            }
          });
      })
      .catch(() => {
        if (!isClosed) setState('reconnecting');
      });

    return () => {
      isClosed = true;
      if (debounce) clearTimeout(debounce);
      if (channel) {
        const closing = channel;
        void getSupabase().then((supabase) => supabase.removeChannel(closing));
      }
    };
  }, [queryClient]);

  return state;
}
