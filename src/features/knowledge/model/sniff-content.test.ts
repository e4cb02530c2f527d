import { describe, expect, it } from 'vitest';
import { kindOfName, type DocumentKind } from './document-rules';
import { contentProblem } from './sniff-content';

const kind = (name: string): DocumentKind => kindOfName(name)!;
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) =>
      typeof part === 'string' ? [...new TextEncoder().encode(part)] : part,
    ),
  );

describe('content that matches its name', () => {
  it('accepts a PDF, a .docx, UTF-8 text and Markdown', () => {
    expect(contentProblem('a.pdf', kind('a.pdf'), bytes('%PDF-1.7\n'))).toBeNull();
    expect(
      contentProblem('a.pdf', kind('a.pdf'), bytes([0xef, 0xbb, 0xbf], '\n%PDF-1.4')),
    ).toBeNull();
    expect(
      contentProblem('a.docx', kind('a.docx'), bytes([0x50, 0x4b, 0x03, 0x04, 0x14])),
    ).toBeNull();
    expect(contentProblem('a.md', kind('a.md'), bytes('# Préface\n'))).toBeNull();
    // A sample that ends inside a character is not an error.
    expect(contentProblem('a.txt', kind('a.txt'), bytes('caf', [0xc3]))).toBeNull();
  });
});

describe('content that does not', () => {
  it('refuses a program renamed to .pdf', () => {
    expect(contentProblem('setup.pdf', kind('setup.pdf'), bytes('MZ', [0x90, 0]))).toBe(
      'setup.pdf is not a PDF inside, whatever its name says. Export it as a PDF again and upload that file.',
    );
  });

  it('names an old .doc renamed to .docx, and anything else', () => {
    const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    expect(contentProblem('old.docx', kind('old.docx'), bytes(ole))).toMatch(
      /^old\.docx is an older Word document \(\.doc\)/,
    );
    expect(contentProblem('x.docx', kind('x.docx'), bytes('%PDF-'))).toMatch(
      /^x\.docx is not a Word \(\.docx\) document inside/,
    );
  });

  it('refuses binary or UTF-16 files named as text', () => {
    const utf16 = [0xff, 0xfe, 0x48, 0x00, 0x69, 0x00];
    expect(contentProblem('notes.txt', kind('notes.txt'), bytes(utf16))).toBe(
      'notes.txt does not look like plain text. Save it as UTF-8 text, then upload it again.',
    );
    expect(contentProblem('x.md', kind('x.md'), bytes([0x89], 'PNG'))).toMatch(
      /not look like plain text/,
    );
  });
});
