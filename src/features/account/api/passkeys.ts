import type { PasskeyListItem } from '@supabase/supabase-js';
import { startAuth } from '@/lib/auth/auth-store';

export type Passkey = PasskeyListItem;

/** Names are the user's own words, trimmed; GoTrue keeps at most 120 characters. */
export const PASSKEY_NAME_MAX = 120;

export async function listPasskeys(): Promise<Passkey[]> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.passkey.list();
  if (error) throw error;
  return [...data].sort((a, b) => a.created_at.localeCompare(b.created_at));
}

/** Runs the browser's passkey ceremony for the signed-in user, then names the new passkey. */
export async function addPasskey(name: string): Promise<Passkey> {
  const supabase = await startAuth();
  const { data, error } = await supabase.auth.registerPasskey();
  if (error) throw error;
  const friendlyName = name.trim();
  if (friendlyName && friendlyName !== data.friendly_name) {
    await renamePasskey(data.id, friendlyName);
    return { ...data, friendly_name: friendlyName };
  }
  return data;
}

export async function renamePasskey(passkeyId: string, friendlyName: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.passkey.update({
    passkeyId,
    friendlyName: friendlyName.trim(),
  });
  if (error) throw error;
}

export async function removePasskey(passkeyId: string): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.passkey.delete({ passkeyId });
  if (error) throw error;
}
