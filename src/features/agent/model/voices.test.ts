import { describe, expect, it } from 'vitest';
import { VOICE_IDS, VOICES } from './voices';

// Each sample file's bytes, as a base64 data URL (the test environment has no Node types).
const samples = import.meta.glob<string>('../audio/*.mp3', {
  query: '?inline',
  import: 'default',
  eager: true,
});

function byteLength(dataUrl: string): number {
  const base64 = dataUrl.slice(dataUrl.indexOf(',') + 1);
  return atob(base64).length;
}

describe('agent voices', () => {
  it('are exactly the four stored ids, each once', () => {
    expect(VOICE_IDS).toEqual(['harper', 'calvin', 'maya', 'oliver']);
    expect(new Set(VOICE_IDS).size).toBe(VOICE_IDS.length);
    expect(VOICES.map((voice) => voice.id)).toEqual(VOICE_IDS);
    expect(VOICES.map((voice) => voice.name)).toEqual(['Harper', 'Calvin', 'Maya', 'Oliver']);
  });

  it('each have a small MP3 sample named after the id', () => {
    expect(Object.keys(samples).sort()).toEqual(VOICE_IDS.map((id) => `../audio/${id}.mp3`).sort());
    for (const voice of VOICES) {
      expect(voice.sampleUrl).toMatch(new RegExp(`${voice.id}\\.mp3$`));
      const sample = samples[`../audio/${voice.id}.mp3`];
      expect(sample).toMatch(/^data:audio\/mpeg;base64,/);
      const bytes = byteLength(sample ?? '');
      expect(bytes).toBeGreaterThan(10 * 1024);
      expect(bytes).toBeLessThan(60 * 1024);
    }
  });
});
