import { formatSize, kindOfMimeType, kindOfName } from './document-rules';

/** 'PDF', 'Word', 'Text', 'Markdown' (from the stored type, else the name), or 'File'. */
export function kindLabel(name: string, mimeType: string | null): string {
  return (kindOfMimeType(mimeType ?? undefined) ?? kindOfName(name))?.label ?? 'File';
}

export function sizeLabel(size: number | null): string {
  return size === null ? 'Size unknown' : formatSize(size);
}

// Made when used, so it follows the browser's time zone of the moment.
const dateTime = () =>
  new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/** 'Nov 27, 2026, 3:05 PM', in the browser's time zone. */
export function updatedLabel(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateTime().format(date);
}

/** The name without its extension, and the extension with its dot: ['faq', '.pdf']. */
export function splitName(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot)];
}
