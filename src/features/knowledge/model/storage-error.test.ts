import { describe, expect, it } from 'vitest';
import { DocumentError, documentErrorMessage, statusOf } from './storage-error';

const limits = { size: '25 MB', kinds: 'PDF, Word (.docx), text or Markdown' };

describe('storage errors in words', () => {
  it('reads the logical status of supabase-js and upload errors', () => {
    expect(statusOf({ name: 'StorageApiError', statusCode: '409', status: 400 })).toBe('409');
    expect(statusOf({ name: 'StorageUnknownError' })).toBe('network');
    expect(statusOf(new TypeError('Failed to fetch'))).toBe('network');
    expect(statusOf(null)).toBe('unknown');
  });

  it('has a sentence for each refusal', () => {
    const say = (statusCode: string, action: 'upload' | 'rename' = 'upload') =>
      documentErrorMessage({ statusCode }, action, 'faq.pdf', limits);
    expect(say('409')).toBe(
      'A document named faq.pdf is already in the library. Choose another name, or delete that one first.',
    );
    expect(say('413')).toBe('faq.pdf is larger than the library’s 25 MB limit.');
    expect(say('415')).toBe(
      'faq.pdf is not a type the library accepts: upload PDF, Word (.docx), text or Markdown files.',
    );
    expect(say('403')).toMatch(/^You don’t have permission to change the knowledge library/);
    expect(say('404', 'rename')).toMatch(/^faq\.pdf is no longer in the library/);
    expect(documentErrorMessage({ name: 'StorageUnknownError' }, 'upload', 'faq.pdf')).toBe(
      'The connection to Cervana was lost while uploading faq.pdf. Check your connection and try again.',
    );
    expect(say('500')).toMatch(/^Something went wrong on our side while uploading faq\.pdf\./);
    expect(documentErrorMessage(new DocumentError('Worded.'), 'delete', 'x')).toBe('Worded.');
  });
});
