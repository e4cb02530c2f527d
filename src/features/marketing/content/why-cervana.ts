export type ComparisonValue = 'yes' | 'partly' | 'no' | string;

export interface ComparisonRow {
  label: string;
  cervana: ComparisonValue;
  hiring: ComparisonValue;
  ivr: ComparisonValue;
  outsourcing: ComparisonValue;
}

export const whyCervana = {
  eyebrow: 'Why Cervana',
  heading: 'More capacity than hiring, more judgement than a phone menu',
  lead: 'The alternatives each solve part of the problem. Cervana is the only one that answers at once, knows the account and still hands off like a colleague.',
  columns: {
    cervana: 'Cervana',
    hiring: 'Hiring more CSMs',
    ivr: 'IVR phone menu',
    outsourcing: 'Outsourced call centre',
  },
  comparison: [
    {
      label: 'Answers every call at once, day and night',
      cervana: 'yes',
      hiring: 'no',
      ivr: 'partly',
      outsourcing: 'partly',
    },
    {
      label: 'Looks up the account and takes action',
      cervana: 'yes',
      hiring: 'yes',
      ivr: 'no',
      outsourcing: 'partly',
    },
    {
      label: 'Knows your product and playbooks',
      cervana: 'yes',
      hiring: 'yes',
      ivr: 'no',
      outsourcing: 'partly',
    },
    {
      label: 'Hands off with the full context',
      cervana: 'yes',
      hiring: 'partly',
      ivr: 'no',
      outsourcing: 'no',
    },
    {
      label: 'Time to add capacity',
      cervana: 'Days',
      hiring: '2–4 months',
      ivr: 'Weeks',
      outsourcing: '4–8 weeks',
    },
    {
      label: 'Cost grows with',
      cervana: 'Calls resolved',
      hiring: 'Headcount',
      ivr: 'Licences',
      outsourcing: 'Minutes',
    },
  ] satisfies ComparisonRow[],
  trustHeading: 'You stay in control',
  trustPoints: [
    {
      title: 'Hand-off rules you write',
      text: 'Decide which calls Cervana may resolve, which always go to a person, and who that person is for each account.',
    },
    {
      title: 'Recording consent on every call',
      text: 'Callers hear a disclosure you configure before anything is recorded, and can ask for a person at any point.',
    },
    {
      title: 'Retention you choose',
      text: 'Keep recordings from zero to 365 days and transcripts for up to a year. Deleted means deleted, backups included, within 35 days.',
    },
    {
      title: 'Access by account, in the database',
      text: 'Row-level security decides who sees which call. Two-factor sign-in and a full audit log come standard.',
    },
  ],
  faqHeading: 'Questions CS leaders ask us',
  faq: [
    {
      question: 'Do callers know they are talking to an AI?',
      answer:
        'Yes. Cervana introduces itself as your company’s AI assistant, and callers can ask for a person at any time.',
    },
    {
      question: 'What happens when Cervana cannot resolve a call?',
      answer:
        'It follows your hand-off rules: a warm transfer to the account’s CSM, or a booked callback, with a summary, the sentiment and the transcript already in your CRM.',
    },
    {
      question: 'How long does it take to go live?',
      answer:
        'Most teams forward a first number within two business days, starting with a narrow set of call types and widening it as they review the results.',
    },
    {
      question: 'Where is our data kept?',
      answer:
        'Cervana runs on our infrastructure or yours. Access is decided per account in the database, and you choose how long recordings and transcripts are kept.',
    },
  ],
};
