-- The service role writes leads directly (operations scripts, the E2E suites'
-- set-up), and every write to leads evaluates the expression index
-- leads_company_key_idx, which calls private.company_key as the writing role.
-- 20261128000200 revoked execute on it from public, so any such write failed
-- with "permission denied for function company_key". The function is pure
-- (a company name reduced to its letters and digits) and reveals nothing.
grant execute on function private.company_key(text) to service_role;
