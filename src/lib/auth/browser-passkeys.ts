/** Whether this browser can create and use passkeys at all (WebAuthn). */
export function browserHasPasskeys(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}
