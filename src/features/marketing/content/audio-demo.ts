import { demoCalls, type DemoCall } from '../audio/demo-calls.generated';

export const audioDemo = {
  eyebrow: 'Hear it',
  heading: 'Listen to Cervana take two real-world calls',
  lead: 'One call resolved on the spot, one handed to a CSM with the whole story. Press play, or read along: the transcript follows the audio.',
  chooseLabel: 'Choose a call',
  outcomeLabels: { resolved: 'Resolved on the call', 'handed-off': 'Handed to a CSM' },
  note: 'Sample calls with synthetic voices, made for this page. Names and companies are fictional.',
} as const;

/** The call the audio demo opens with: a link to the demo describes this one. */
export const featuredDemoCall: DemoCall = demoCalls[0]!;
