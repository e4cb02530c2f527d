import { renderEmail } from './layout';

/** The auth service's messages. Links point at /auth/v1/verify, which signs the visitor in. */

const IGNORE =
  'If you did not ask for this, you can ignore this email: nothing changes until the link is used.';

export const authEmails = {
  confirmSignup: (link: string, code: string) =>
    renderEmail({
      subject: 'Confirm your Cervana account',
      preview: 'One click to finish creating your account.',
      heading: 'Confirm your email address',
      paragraphs: ['Welcome to Cervana. Confirm this address to finish creating your account.'],
      action: { label: 'Confirm my email', url: link },
      code,
      footnote: IGNORE,
    }),
  magicLink: (link: string, code: string) =>
    renderEmail({
      subject: 'Your Cervana sign-in link',
      preview: 'Sign in to Cervana without a password.',
      heading: 'Sign in to Cervana',
      paragraphs: ['Use this link, or the code below, to sign in. It works once.'],
      action: { label: 'Sign in', url: link },
      code,
      footnote: IGNORE,
    }),
  recovery: (link: string, code: string) =>
    renderEmail({
      subject: 'Reset your Cervana password',
      preview: 'Choose a new password for your account.',
      heading: 'Reset your password',
      paragraphs: [
        'Someone asked to reset the password of this account. Use this link to choose a new one.',
      ],
      action: { label: 'Choose a new password', url: link },
      code,
      footnote: 'If it was not you, ignore this email: your password stays as it is.',
    }),
  invite: (link: string) =>
    renderEmail({
      subject: 'You are invited to Cervana',
      preview: 'Accept your invitation and set up your account.',
      heading: 'You are invited to Cervana',
      paragraphs: [
        'You have been invited to join Cervana. Accept the invitation to set up your account.',
      ],
      action: { label: 'Accept the invitation', url: link },
      footnote: 'If you were not expecting this invitation, you can ignore it.',
    }),
  emailChangeNew: (link: string, code: string, email: string) =>
    renderEmail({
      subject: 'Confirm your new email address',
      preview: 'Confirm the new address for your Cervana account.',
      heading: 'Confirm your new email address',
      paragraphs: [`Confirm ${email} as the new address of your Cervana account.`],
      action: { label: 'Confirm this address', url: link },
      code,
      footnote: IGNORE,
    }),
  emailChangeCurrent: (link: string, code: string, newEmail: string) =>
    renderEmail({
      subject: 'Confirm the change of your email address',
      preview: `Your Cervana account will use ${newEmail}.`,
      heading: 'Confirm the change of address',
      paragraphs: [
        `Someone asked to change the email address of your Cervana account to ${newEmail}. Confirm it here too.`,
      ],
      action: { label: 'Confirm the change', url: link },
      code,
      footnote: 'If it was not you, do not confirm, and change your password.',
    }),
  reauthentication: (code: string) =>
    renderEmail({
      subject: 'Your Cervana confirmation code',
      preview: 'Confirm it is you before a sensitive change.',
      heading: 'Confirm it is you',
      paragraphs: ['Enter this code to confirm a change to your account, such as a new password.'],
      code,
      footnote: 'If you did not ask for it, change your password.',
    }),
};

export const authSms = {
  otp: (code: string) => `Your Cervana code is ${code}. It expires soon; do not share it.`,
  phoneChange: (code: string) => `Your Cervana code to confirm this number is ${code}.`,
  mfa: (code: string) => `Your Cervana sign-in code is ${code}.`,
  reauthentication: (code: string) => `Your Cervana confirmation code is ${code}.`,
};
