-- The assurance level of the session that approved an OAuth request (decision
-- 041): the app's session starts at it, so a person who allowed the app after
-- both sign-in steps gives it aal2, and the "Second factor required once
-- enrolled" policies do not hide their data from it. Null: aal1.
alter table auth.oauth_authorizations
  add column approved_aal text check (approved_aal in ('aal1', 'aal2'));
