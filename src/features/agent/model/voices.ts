import calvinSample from '../audio/calvin.mp3';
import harperSample from '../audio/harper.mp3';
import mayaSample from '../audio/maya.mp3';
import oliverSample from '../audio/oliver.mp3';

/** The voice ids a workspace can store. The database checks against this list: never change one. */
export const VOICE_IDS = ['harper', 'calvin', 'maya', 'oliver'] as const;

export type VoiceId = (typeof VOICE_IDS)[number];

export interface Voice {
  id: VoiceId;
  name: string;
  /** One honest line on how it sounds. */
  description: string;
  language: 'en-US' | 'en-GB';
  /** A short greeting in this voice, made offline by scripts/voice-samples/generate.sh. */
  sampleUrl: string;
}

/** The phone agent's voices, in the order the settings page lists them (that of VOICE_IDS). */
export const VOICES = [
  {
    id: 'harper',
    name: 'Harper',
    description: 'Warm, clear US English',
    language: 'en-US',
    sampleUrl: harperSample,
  },
  {
    id: 'calvin',
    name: 'Calvin',
    description: 'Steady US English, a little robotic',
    language: 'en-US',
    sampleUrl: calvinSample,
  },
  {
    id: 'maya',
    name: 'Maya',
    description: 'Synthetic US English, bright',
    language: 'en-US',
    sampleUrl: mayaSample,
  },
  {
    id: 'oliver',
    name: 'Oliver',
    description: 'Synthetic British English, brisk',
    language: 'en-GB',
    sampleUrl: oliverSample,
  },
] as const satisfies readonly Voice[];
