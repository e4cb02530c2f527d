-- RFC 8707 resource indicators on the OAuth server (decision 041): the
-- `resource` a client names at /oauth/authorize (MCP clients send the server
-- they want a token for) is kept with the request, and a code exchange that
-- names another resource is refused, as GoTrue does.
alter table auth.oauth_authorizations
  add column resource text check (char_length(resource) <= 2048);
