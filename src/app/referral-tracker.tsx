import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { rememberReferral } from '@/lib/referral';
import { getSupabase } from '@/lib/supabase';

/** Remembers a partner's `?ref=` on any page and counts the visit (no personal data). */
export function ReferralTracker() {
  const { search } = useLocation();
  useEffect(() => {
    const code = rememberReferral(search);
    if (!code) return;
    void getSupabase()
      .then((supabase) => supabase.rpc('record_referral_click', { code }))
      .catch(() => undefined); // a lost count never bothers the visitor
  }, [search]);
  return null;
}
