-- Nobody joins a workspace without agreeing to. The policy "Owners and
-- workspace admins add members" let an owner (or workspace admin) add any user
-- at all, who then shared a workspace with them and so had their profile read.
-- Until invitations exist (an invitation the invited person accepts), members
-- are added only by server-side code: the service role, and security definer
-- functions such as the sign-up trigger that makes a new customer the owner of
-- their workspace. Changing roles, removing members and leaving are unchanged.

drop policy if exists "Owners and workspace admins add members" on public.workspace_members;

revoke insert on public.workspace_members from anon, authenticated;
