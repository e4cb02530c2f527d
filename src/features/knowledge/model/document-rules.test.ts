import { describe, expect, it } from 'vitest';
import {
  acceptAttribute,
  checkFile,
  describeLimits,
  formatSize,
  isRefused,
  kindOfName,
  nameProblem,
  storableName,
  type LibraryLimits,
} from './document-rules';

const LIMITS: LibraryLimits = {
  maxBytes: 25 * 1024 * 1024,
  mimeTypes: [
    'application/pdf',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'text/plain',
    'text/markdown',
  ],
};

/** A File of `size` bytes without allocating them (only `size` is read by the checks). */
function fileOf(name: string, size: number, type = ''): File {
  const file = new File(['x'], name, { type });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('the limits in words', () => {
  it('says what the bucket takes and how much', () => {
    expect(describeLimits(LIMITS)).toBe('PDF, Word (.docx), text or Markdown, up to 25 MB');
    expect(describeLimits({ maxBytes: null, mimeTypes: ['application/pdf', 'text/plain'] })).toBe(
      'PDF or text',
    );
  });

  it('offers the picker every extension and type', () => {
    expect(acceptAttribute(LIMITS).split(',')).toEqual(
      expect.arrayContaining(['.pdf', '.docx', '.txt', '.md', '.markdown', 'text/markdown']),
    );
  });

  it('formats sizes in binary units', () => {
    expect(formatSize(1)).toBe('1 byte');
    expect(formatSize(512)).toBe('512 bytes');
    expect(formatSize(14 * 1024)).toBe('14 KB');
    expect(formatSize(3.25 * 1024 * 1024)).toBe('3.3 MB');
    expect(formatSize(25 * 1024 * 1024)).toBe('25 MB');
  });
});

describe('the type, from the extension', () => {
  it('knows the four kinds whatever the case, and nothing else', () => {
    expect(kindOfName('Guide.PDF')?.label).toBe('PDF');
    expect(kindOfName('handbook.docx')?.mimeType).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(kindOfName('notes.txt')?.mimeType).toBe('text/plain');
    expect(kindOfName('README.md')?.mimeType).toBe('text/markdown');
    expect(kindOfName('README.markdown')?.mimeType).toBe('text/markdown');
    for (const name of ['old.doc', 'contacts.csv', 'page.html', 'pdf', '.md', 'setup.pdf.exe']) {
      expect(kindOfName(name), name).toBeUndefined();
    }
  });
});

describe('checking a chosen file', () => {
  it('accepts a document within the limits, whatever type the browser gave it', () => {
    const checked = checkFile(fileOf('faq.md', 2048, ''), LIMITS);
    expect(isRefused(checked)).toBe(false);
    expect(checked).toMatchObject({ name: 'faq.md', kind: { mimeType: 'text/markdown' } });
  });

  it('refuses a wrong type, an empty file and a file over the limit, with a sentence', () => {
    const wrong = checkFile(fileOf('contacts.csv', 10, 'text/csv'), LIMITS);
    expect(wrong).toMatchObject({
      reason:
        'contacts.csv is not a document the library accepts. Upload PDF, Word (.docx), text or Markdown files.',
    });
    expect(checkFile(fileOf('empty.txt', 0), LIMITS)).toMatchObject({
      reason: 'empty.txt is empty. Choose a file with something in it.',
    });
    const big = checkFile(fileOf('scan.pdf', 25 * 1024 * 1024 + 1), LIMITS);
    expect(big).toMatchObject({
      reason: 'scan.pdf is just over the 25 MB limit. Split or compress it, then upload the parts.',
    });
    expect(checkFile(fileOf('scan.pdf', 40 * 1024 * 1024), LIMITS)).toMatchObject({
      reason:
        'scan.pdf is 40 MB, over the 25 MB limit. Split or compress it, then upload the parts.',
    });
    expect(isRefused(checkFile(fileOf('scan.pdf', 25 * 1024 * 1024), LIMITS))).toBe(false);
  });

  it('follows the bucket when it takes fewer types', () => {
    const pdfOnly = { maxBytes: 1000, mimeTypes: ['application/pdf'] };
    expect(checkFile(fileOf('notes.txt', 10), pdfOnly)).toMatchObject({
      reason: 'notes.txt is not a document the library accepts. Upload PDF files.',
    });
  });
});

describe('names', () => {
  it('makes a chosen name storable: accents, odd signs, folders and leading dots tidied', () => {
    expect(storableName('Préface générale.pdf')).toBe('Preface generale.pdf');
    expect(storableName('Q&A — Preise (2026).docx')).toBe('Q&A - Preise (2026).docx');
    expect(storableName('../../etc/passwd.txt')).toBe('etc-passwd.txt');
    expect(storableName('.hidden.md')).toBe('hidden.md');
    expect(storableName('what?*:.md')).toBe('what-.md');
    expect(storableName('日本語.pdf')).toBe('document.pdf');
    expect(storableName(`${'a'.repeat(300)}.pdf`)).toHaveLength(200);
    expect(storableName(`${'a'.repeat(300)}.pdf`).endsWith('.pdf')).toBe(true);
  });

  it('every storable name passes the rename rules', () => {
    for (const name of ['Préface.pdf', '../x.md', '  spaced   out .txt', '---.docx', '(1) a.md']) {
      expect(nameProblem(storableName(name)), name).toBeNull();
    }
  });

  it('says what is wrong with a typed name', () => {
    expect(nameProblem('Returns policy.pdf')).toBeNull();
    expect(nameProblem(' .pdf')).toBe('Start the name with a letter, a digit or a bracket.');
    expect(nameProblem('.md')).toBe('Start the name with a letter, a digit or a bracket.');
    expect(nameProblem('a/b.pdf')).toBe(
      'A name cannot contain a slash: documents are not kept in folders.',
    );
    expect(nameProblem('../b.pdf')).toMatch(/slash/);
    expect(nameProblem('Café.pdf')).toBe(
      "“é” cannot be used in a document name. Use letters A–Z, digits, spaces, and _ . , ( ) & + ' ! @ $ = ; or -.",
    );
    expect(nameProblem('tab\there.pdf')).toMatch(/^That character cannot be used/);
    expect(nameProblem(`${'a'.repeat(197)}.pdf`)).toMatch(/^Use a name of at most 200 characters/);
    expect(nameProblem('notes.exe')).toBe('The name must end in .pdf, .docx, .txt or .md.');
    expect(nameProblem('')).toBe('Enter a name for the document.');
  });
});
