import { describe, expect, it } from 'vitest';
import { assetFileName, assetKind, formatBytes } from './assets';

describe('assetKind', () => {
  it('reads the stored content type first', () => {
    expect(assetKind('deck', 'application/pdf')).toBe('pdf');
    expect(assetKind('logo', 'image/png')).toBe('image');
    expect(assetKind('intro', 'video/mp4')).toBe('video');
  });

  it('falls back to the extension', () => {
    expect(assetKind('one-pager.PDF')).toBe('pdf');
    expect(assetKind('logo.svg', null)).toBe('image');
    expect(assetKind('notes.txt')).toBe('file');
  });
});

describe('formatBytes', () => {
  it('says sizes the way file managers do', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(250 * 1024)).toBe('250 KB');
    expect(formatBytes(3.2 * 1024 * 1024)).toBe('3.2 MB');
  });
});

describe('assetFileName', () => {
  it('keeps the last part of the path', () => {
    expect(assetFileName('logos/cervana.png')).toBe('cervana.png');
    expect(assetFileName('deck.pdf')).toBe('deck.pdf');
  });
});
