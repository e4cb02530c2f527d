/** The answers the forms offer, as the database accepts them (migrations' check constraints). */

export const teamSizes = [
  { value: '1-5', label: '1–5 people' },
  { value: '6-20', label: '6–20 people' },
  { value: '21-50', label: '21–50 people' },
  { value: '51-200', label: '51–200 people' },
  { value: '200+', label: 'More than 200' },
] as const;

export type TeamSize = (typeof teamSizes)[number]['value'];
export const teamSizeValues = teamSizes.map((size) => size.value) as [TeamSize, ...TeamSize[]];

export const callVolumes = [
  { value: 'under-500', label: 'Fewer than 500 calls' },
  { value: '500-2000', label: '500–2,000 calls' },
  { value: '2000-10000', label: '2,000–10,000 calls' },
  { value: '10000+', label: 'More than 10,000 calls' },
] as const;

export type CallVolume = (typeof callVolumes)[number]['value'];
export const callVolumeValues = callVolumes.map((volume) => volume.value) as [
  CallVolume,
  ...CallVolume[],
];

/** A plain email check, the same the database makes (it has the last word). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[A-Za-z]{2,}$/;

/** Single-line answers may not carry control characters (the database refuses them). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
