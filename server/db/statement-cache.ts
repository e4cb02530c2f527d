/**
 * Named prepared statements for pipelines, one cache per connection: a
 * statement text seen before is bound to its prepared name instead of being
 * parsed and planned again (on PGlite that halved the database time of a
 * read). Names are never reused, so a statement whose Parse may or may not have
 * run before an error is simply closed and forgotten; after any error every
 * statement of the pipeline is closed and prepared afresh next time (a cached
 * plan that no longer fits its tables fails once, then works). The least
 * recently used statements are closed beyond `capacity`.
 */
export class StatementCache {
  private readonly names = new Map<string, string>();
  private readonly toClose: string[] = [];
  private static counter = 0;

  constructor(private readonly capacity = 256) {}

  /** Plans a pipeline: for each statement its name and whether it must be parsed first. */
  plan(texts: readonly string[]): StatementPlan {
    const steps: { name: string; parse: boolean }[] = [];
    const fresh = new Map<string, string>();
    for (const text of texts) {
      const known = this.names.get(text) ?? fresh.get(text);
      if (known) {
        steps.push({ name: known, parse: false });
        // Most recently used last.
        if (this.names.delete(text)) this.names.set(text, known);
        continue;
      }
      const name = `cervana_${(StatementCache.counter += 1)}`;
      fresh.set(text, name);
      steps.push({ name, parse: true });
    }
    const close = this.toClose.splice(0);
    return {
      steps,
      close,
      succeeded: () => {
        for (const [text, name] of fresh) this.names.set(text, name);
        while (this.names.size > this.capacity) {
          const [oldest, name] = this.names.entries().next().value as [string, string];
          this.names.delete(oldest);
          this.toClose.push(name);
        }
      },
      // The statements parsed here may exist on the server or not: close them all (closing
      // a statement that does not exist is no error), and forget those that were cached.
      failed: () => {
        for (const text of texts) this.names.delete(text);
        return [...new Set(steps.map((step) => step.name))];
      },
    };
  }

  /** Statements to close before the next pipeline, e.g. after a failed close. */
  closeLater(names: readonly string[]): void {
    this.toClose.push(...names);
  }
}

export interface StatementPlan {
  steps: { name: string; parse: boolean }[];
  /** Evicted statements to close at the start of this pipeline. */
  close: string[];
  succeeded(): void;
  /** Forgets the pipeline's statements; the names to close after the failure. */
  failed(): string[];
}
