/**
 * What the knowledge library accepts, checked in the browser before a byte is
 * sent. The bucket (size, types) and its write policy (names) have the last
 * word; these rules are the same ones, so a person hears about a refusal
 * before waiting for an upload. See supabase/migrations/…_knowledge_documents.sql.
 */

export const KNOWLEDGE_BUCKET = 'knowledge';

export interface DocumentKind {
  /** What a person calls it: 'PDF', 'Word'. */
  label: string;
  mimeType: string;
  extensions: readonly string[];
}

export const DOCUMENT_KINDS: readonly DocumentKind[] = [
  { label: 'PDF', mimeType: 'application/pdf', extensions: ['pdf'] },
  {
    label: 'Word',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extensions: ['docx'],
  },
  { label: 'Text', mimeType: 'text/plain', extensions: ['txt'] },
  { label: 'Markdown', mimeType: 'text/markdown', extensions: ['md', 'markdown'] },
];

/** The bucket's limits, as storage.buckets gives them. */
export interface LibraryLimits {
  /** Bytes, or null for none. */
  maxBytes: number | null;
  /** MIME types, or null for any. */
  mimeTypes: readonly string[] | null;
}

/** The kinds the bucket takes now (all four unless it says otherwise). */
export function acceptedKinds(limits: LibraryLimits): DocumentKind[] {
  return DOCUMENT_KINDS.filter(
    (kind) => limits.mimeTypes === null || limits.mimeTypes.includes(kind.mimeType),
  );
}

/** For the file picker's `accept`: '.pdf,.docx,…,application/pdf,…'. */
export function acceptAttribute(limits: LibraryLimits): string {
  const kinds = acceptedKinds(limits);
  return [
    ...kinds.flatMap((kind) => kind.extensions.map((extension) => `.${extension}`)),
    ...kinds.map((kind) => kind.mimeType),
  ].join(',');
}

const KIND_WORDS: Record<string, string> = {
  PDF: 'PDF',
  Word: 'Word (.docx)',
  Text: 'text',
  Markdown: 'Markdown',
};

/** 'PDF, Word (.docx), text or Markdown'. */
export function describeKinds(limits: LibraryLimits): string {
  const words = acceptedKinds(limits).map((kind) => KIND_WORDS[kind.label] ?? kind.label);
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** 'PDF, Word (.docx), text or Markdown, up to 25 MB'. */
export function describeLimits(limits: LibraryLimits): string {
  const kinds = describeKinds(limits);
  return limits.maxBytes === null ? kinds : `${kinds}, up to ${formatSize(limits.maxBytes)}`;
}

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * Sizes in binary units, as Windows and our limit count them ('25 MB' is
 * 26,214,400 bytes): '512 bytes', '14 KB', '3.2 MB'.
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${oneDecimal.format(bytes / (1024 * 1024))} MB`;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind a file name says it is, from its extension (browsers give `.md` no type at all). */
export function kindOfName(name: string): DocumentKind | undefined {
  const extension = extensionOf(name);
  return DOCUMENT_KINDS.find((kind) => kind.extensions.includes(extension));
}

export function kindOfMimeType(mimeType: string | undefined): DocumentKind | undefined {
  const type = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  return DOCUMENT_KINDS.find((kind) => kind.mimeType === type);
}

// ── Names ──────────────────────────────────────────────────────────────────────────────────

export const MAX_NAME_LENGTH = 200;
/** The characters the write policy allows in a file name (besides letters and digits). */
const NAME_SIGNS = " _.,()&+'!@$=;-";
const NAME_PATTERN = /^[A-Za-z0-9_(][A-Za-z0-9 _.,()&+'!@$=;-]*$/;
const SIGNS_IN_WORDS = "_ . , ( ) & + ' ! @ $ = ; or -";

/**
 * A chosen file's name as the library can store it: accents dropped
 * ('Préface' → 'Preface'), other characters the library cannot keep turned
 * into '-', spaces tidied, and nothing before the first letter, digit or
 * bracket. The extension is kept; a name too long is shortened before it.
 */
export function storableName(name: string): string {
  const extension = extensionOf(name);
  const base = extension ? name.slice(0, -(extension.length + 1)) : name;
  let tidy = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 _.,()&+'!@$=;-]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/-{2,}/g, '-')
    .replace(/^[^A-Za-z0-9_(]+/, '')
    .trim();
  const suffix = extension ? `.${extension}` : '';
  tidy = tidy.slice(0, MAX_NAME_LENGTH - suffix.length).trim();
  return `${tidy || 'document'}${suffix}`;
}

/**
 * Why a name cannot be a document's name, in a sentence, or null when it can.
 * Used for renaming, where we say what is wrong rather than change what was typed.
 */
export function nameProblem(name: string): string | null {
  if (name.trim() === '') return 'Enter a name for the document.';
  if (name.length > MAX_NAME_LENGTH)
    return `Use a name of at most ${MAX_NAME_LENGTH} characters (this one has ${name.length}).`;
  if (name.includes('/') || name.includes('\\'))
    return 'A name cannot contain a slash: documents are not kept in folders.';
  const unusable = [...name].find((ch) => !/[A-Za-z0-9]/.test(ch) && !NAME_SIGNS.includes(ch));
  if (unusable !== undefined) {
    const shown = /[\p{L}\p{N}\p{P}\p{S}]/u.test(unusable) ? `“${unusable}”` : 'That character';
    return `${shown} cannot be used in a document name. Use letters A–Z, digits, spaces, and ${SIGNS_IN_WORDS}.`;
  }
  if (!NAME_PATTERN.test(name)) return 'Start the name with a letter, a digit or a bracket.';
  if (!kindOfName(name)) return 'The name must end in .pdf, .docx, .txt or .md.';
  return null;
}

// ── Files ──────────────────────────────────────────────────────────────────────────────────

export interface CheckedFile {
  file: File;
  /** The name it will have in the library. */
  name: string;
  kind: DocumentKind;
}

/** A file that cannot be uploaded, and why, in a sentence that names it. */
export interface RefusedFile {
  file: File;
  reason: string;
}

/**
 * The checks that need no reading: type from the extension (and, when the
 * browser knows one, a type that does not contradict it), size, emptiness.
 */
export function checkFile(file: File, limits: LibraryLimits): CheckedFile | RefusedFile {
  const kinds = acceptedKinds(limits);
  const kind = kindOfName(file.name);
  if (!kind || !kinds.includes(kind)) {
    return {
      file,
      reason: `${file.name} is not a document the library accepts. Upload ${describeKinds(limits)} files.`,
    };
  }
  if (file.size === 0) {
    return { file, reason: `${file.name} is empty. Choose a file with something in it.` };
  }
  if (limits.maxBytes !== null && file.size > limits.maxBytes) {
    const size = formatSize(file.size);
    const limit = formatSize(limits.maxBytes);
    return {
      file,
      reason: `${file.name} is ${size === limit ? 'just over' : `${size}, over`} the ${limit} limit. Split or compress it, then upload the parts.`,
    };
  }
  return { file, name: storableName(file.name), kind };
}

export function isRefused(result: CheckedFile | RefusedFile): result is RefusedFile {
  return 'reason' in result;
}
