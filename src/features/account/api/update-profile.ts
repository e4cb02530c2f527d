import { startAuth } from '@/lib/auth/auth-store';

/** Saves name and company into the user's metadata (USER_UPDATED follows). */
export async function updateProfile(profile: { fullName: string; company: string }): Promise<void> {
  const supabase = await startAuth();
  const { error } = await supabase.auth.updateUser({
    data: { full_name: profile.fullName, company: profile.company },
  });
  if (error) throw error;
}
