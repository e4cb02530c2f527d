-- OpenID Connect on the OAuth server (decision 041, "OpenID Connect"): the
-- `nonce` a client sends to /oauth/authorize is kept with the request and
-- echoed in the ID token. At most 255 characters, as GoTrue's
-- oauth_authorizations_nonce_length check says.
alter table auth.oauth_authorizations
  add column nonce text check (char_length(nonce) <= 255);
