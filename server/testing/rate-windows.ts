/**
 * Rate limits count in fixed windows (`hitRateLimit`: the epoch cut into
 * `windowSeconds` slices). A test that counts up to a limit fails by chance
 * when a slice ends in the middle of it, as the count starts again. This waits,
 * when needed, so that at least `needSeconds` of the current slice remain.
 */
export async function withinOneRateWindow(windowSeconds: number, needSeconds: number) {
  const intoWindow = (Date.now() / 1000) % windowSeconds;
  const left = windowSeconds - intoWindow;
  if (left < needSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 250));
}
