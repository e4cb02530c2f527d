import { labelFromKey } from '../model/call-labels';

type Primitive = string | number | boolean | null | undefined;

const isPrimitive = (value: unknown): value is Primitive =>
  value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function formatPrimitive(value: Primitive): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return value.toLocaleString();
  return value;
}

/** One value: text, a list, or (for an object) a nested definition list. */
function ExtractedValue({ value, depth }: { value: unknown; depth: number }) {
  if (isPrimitive(value)) return <>{formatPrimitive(value)}</>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <>—</>;
    if (value.every(isPrimitive)) return <>{value.map(formatPrimitive).join(', ')}</>;
    return (
      <ul className="grid gap-2">
        {value.map((item, index) => (
          <li key={index} className="rounded-lg bg-sand-50 px-3 py-2">
            <ExtractedValue value={item} depth={depth + 1} />
          </li>
        ))}
      </ul>
    );
  }
  if (isPlainObject(value)) return <ExtractedList fields={value} depth={depth + 1} />;
  return <>{String(value)}</>;
}

function ExtractedList({ fields, depth }: { fields: Record<string, unknown>; depth: number }) {
  const entries = Object.entries(fields);
  if (entries.length === 0) return <>—</>;
  return (
    <dl className={depth === 0 ? 'grid gap-4' : 'grid gap-2 border-l-2 border-sand-200 pl-3'}>
      {entries.map(([key, value]) => (
        <div key={key} className="grid gap-0.5">
          <dt className="text-sm text-ink-600">{labelFromKey(key)}</dt>
          <dd className="font-medium break-words text-ink-900">
            <ExtractedValue value={value} depth={depth} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What the agent took down on the call (the provider's `extracted` object), field by field. */
export function CallDetailExtracted({ extracted }: { extracted: Record<string, unknown> }) {
  return (
    <section
      aria-labelledby="extracted-heading"
      className="rounded-2xl border border-sand-200 bg-white p-5 sm:p-6"
    >
      <h2 id="extracted-heading" className="text-lg font-semibold text-ink-900">
        Extracted fields
      </h2>
      <div className="mt-4">
        {Object.keys(extracted).length === 0 ? (
          <p className="text-ink-600">Nothing was extracted from this call.</p>
        ) : (
          <ExtractedList fields={extracted} depth={0} />
        )}
      </div>
    </section>
  );
}
