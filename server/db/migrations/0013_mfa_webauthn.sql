-- WebAuthn second factors (security keys) beside TOTP and phone (decision 040).
-- GoTrue's own columns: the factor keeps its credential (public key, sign
-- counter, relying party) and the last challenge it answered; a challenge keeps
-- the options it was issued with (random challenge, relying party id and
-- origins), so verify checks the answer against what this server asked.
alter table auth.mfa_factors
  add column web_authn_credential jsonb,
  add column web_authn_aaguid uuid,
  add column last_webauthn_challenge_data jsonb;

alter table auth.mfa_challenges
  add column web_authn_session_data jsonb;
