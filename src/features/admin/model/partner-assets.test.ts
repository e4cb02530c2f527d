import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ASSET_LIMITS,
  assetName,
  assetPath,
  assetProblem,
  describeAssetLimits,
  formatBytes,
  typeAllowed,
} from './partner-assets';

describe('partner assets', () => {
  it('matches types against the bucket’s patterns', () => {
    const allowed = DEFAULT_ASSET_LIMITS.mimeTypes;
    expect(typeAllowed('image/png', allowed)).toBe(true);
    expect(typeAllowed('image/svg+xml', allowed)).toBe(true);
    expect(typeAllowed('application/pdf', allowed)).toBe(true);
    expect(typeAllowed('video/mp4', allowed)).toBe(true);
    expect(typeAllowed('video/quicktime', allowed)).toBe(false);
    expect(typeAllowed('', allowed)).toBe(false);
    expect(typeAllowed('text/plain', null)).toBe(true);
  });

  it('says why a file is refused before uploading it', () => {
    const limits = DEFAULT_ASSET_LIMITS;
    expect(assetProblem({ name: 'logo.png', size: 2000, type: 'image/png' }, limits)).toBeNull();
    expect(assetProblem({ name: 'a.zip', size: 2000, type: 'application/zip' }, limits)).toBe(
      'a.zip is not a type partners can use here: upload images, PDFs and MP4 videos.',
    );
    expect(assetProblem({ name: 'big.mp4', size: 25_000_000, type: 'video/mp4' }, limits)).toBe(
      'big.mp4 is 25 MB, over the 20 MB limit.',
    );
    expect(assetProblem({ name: 'e.pdf', size: 0, type: 'application/pdf' }, limits)).toBe(
      'e.pdf is empty.',
    );
  });

  it('words the limits and sizes', () => {
    expect(describeAssetLimits(DEFAULT_ASSET_LIMITS)).toBe(
      'images, PDFs and MP4 videos up to 20 MB',
    );
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(14_200)).toBe('14 KB');
    expect(formatBytes(3_250_000)).toBe('3.3 MB');
  });

  it('makes storable names and paths', () => {
    expect(assetName('Cervana Logo (dark).png')).toBe('Cervana-Logo-dark.png');
    expect(assetName('Café brochure.pdf')).toBe('Cafe-brochure.pdf');
    expect(assetName('???')).toBe('file');
    expect(assetPath('logos', 'a.png')).toBe('logos/a.png');
    expect(assetPath('', 'a.png')).toBe('a.png');
  });
});
