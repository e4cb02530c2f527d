/**
 * Cervana's privacy policy as plain, typed content. The page component in
 * `./components/privacy-policy.tsx` renders it; keep the words here.
 *
 * A list item that starts with a short term and a colon ("Access: ...") shows
 * the term in bold.
 *
 * Keep the numbers consistent: retention periods appear in the summary, the
 * data-flow steps and the sections. Update `lastUpdated` on every change.
 */

/** One step of a data-flow overview, drawn as a connected step. */
export interface DataFlowStep {
  label: string;
  description: string;
}

/** A path personal data takes, from where it starts to where it ends. */
export interface DataFlow {
  title: string;
  steps: DataFlowStep[];
}

/** One section of the policy; `id` is its kebab-case anchor. */
export interface PolicySection {
  id: string;
  heading: string;
  /** Paragraphs before the list. */
  paragraphs: string[];
  list?: string[];
  /** Paragraphs after the list. */
  afterList?: string[];
}

export interface PolicyContact {
  email: string;
  /** Postal address, one line per `\n`. */
  postal: string;
}

export interface PrivacyPolicyContent {
  title: string;
  /** One sentence under the title saying what the page is. */
  intro: string;
  /** ISO date (YYYY-MM-DD). */
  lastUpdated: string;
  /** The "in short" bullets: 3 to 6 plain sentences. */
  summary: string[];
  /** What happens to callers' data. */
  dataFlow: DataFlow;
  /** What happens to website visitors' data. */
  websiteDataFlow: DataFlow;
  sections: PolicySection[];
  contact: PolicyContact;
}

export const privacyPolicy: PrivacyPolicyContent = {
  title: 'Privacy policy',
  intro:
    'What personal data Cervana collects, why, who sees it, how long we keep it, and what you can do about it.',
  lastUpdated: '2026-11-21',

  summary: [
    'We never sell personal data. Our website uses no analytics or advertising cookies and loads nothing from other companies unless you click to book a demo.',
    'When someone calls a business that uses Cervana, that business controls the call data. We process it only on its instructions.',
    'Call recordings are deleted after 90 days by default; each business can choose 0 to 365 days. Transcripts are kept for 12 months.',
    'We don’t train general AI models on customer data unless the customer opts in.',
    'You can ask to see, correct, export or delete your data by emailing privacy@cervana.ai. If you called a business, ask that business first. We’ll help it answer.',
  ],

  dataFlow: {
    title: 'When someone calls a business that uses Cervana',
    steps: [
      {
        label: 'Caller',
        description:
          'You phone a business that uses Cervana. Your phone number comes through with the call.',
      },
      {
        label: 'Phone agent',
        description:
          'Cervana plays the business’s recording notice, helps you, and hands you to a person when needed.',
      },
      {
        label: 'Recording and transcript',
        description:
          'The call is recorded and transcribed. We write a summary and pick out key details, such as an order number.',
      },
      {
        label: 'The business’s workspace',
        description: 'Everything is stored in that business’s workspace. Only its team can see it.',
      },
      {
        label: 'Retention and deletion',
        description:
          'Recordings are deleted after 90 days by default (the business chooses 0 to 365). Transcripts after 12 months.',
      },
    ],
  },

  websiteDataFlow: {
    title: 'When you use our website',
    steps: [
      {
        label: 'Website visitor',
        description:
          'You read our pages. No tracking cookies, and nothing loads from other companies’ servers.',
      },
      {
        label: 'Forms',
        description: 'You book a demo, ask our sales team a question, or apply to be a partner.',
      },
      {
        label: 'Our database',
        description:
          'We store what you typed, plus a partner’s referral code if you came through one. Kept for 24 months.',
      },
      {
        label: 'Email outbox',
        description:
          'Our replies and confirmations wait in an outbox and go out through our email provider. Kept for 90 days.',
      },
    ],
  },

  sections: [
    {
      id: 'who-we-are',
      heading: 'Who we are and what this policy covers',
      paragraphs: [
        'Cervana, Inc. makes an AI phone agent for customer success teams. It answers phone calls for businesses, resolves what it can, and hands the rest to a human customer success manager (CSM) with the full context.',
        'This policy covers our website, the accounts people use to sign in (the customer dashboard, the partner portal and our admin area), our partner program, and the calls our phone agent handles.',
        'We play one of two roles, depending on the data:',
      ],
      list: [
        'Controller of website, account and partner data: we decide why and how it is used, and this policy is our commitment about it.',
        'Processor of call data: when you phone a business that uses Cervana, that business (our customer) is the controller. We handle recordings, transcripts and caller details only on its instructions, under a data processing agreement (DPA) with it.',
      ],
      afterList: [
        'If you called a business that uses Cervana, that business’s own privacy notice explains how it uses your call. This policy explains what we do as its provider.',
        'Many businesses run Cervana on their own servers. Their call data then stays on their infrastructure and never reaches us, unless they give us access for support.',
      ],
    },
    {
      id: 'what-we-collect',
      heading: 'What we collect',
      paragraphs: [
        'We collect only what each purpose needs. Here is all of it, grouped by who you are.',
      ],
      list: [
        'Website visitors: your IP address and browser type, which our server needs to send each page back to you. Our request logs keep the page address, the response status and the timing, not your IP address. If you arrive through a partner link, we also get that partner’s referral code.',
        'Form submissions (demo booking, talk to sales, partner applications): what you type into the form. Usually that is your name, work email, company and message, plus your phone number, job title or team size if you choose to give them.',
        'Account holders: your email address or phone number, your name, your password (stored only as a salted hash, never as plain text), your two-factor secret if you turn on two-factor authentication, your workspace and role, and sign-in events such as the time of your last sign-in.',
        'Partners: your contact details, your referral code, a daily count of clicks on your links (with nothing about the people who clicked), the leads and customers you referred, and the payout and tax details we need to pay your commission.',
        'Callers, on behalf of our customers: your phone number, the number you called, the time and length of the call, the recording, the transcript, a summary, and the details the agent picks out of the conversation (extracted fields), such as your name, an account or order number, why you called and how the call ended. If a person took over the call, we also record who.',
      ],
      afterList: [
        'Callers sometimes share more than they need to, such as health details or card numbers. Anything said on a call ends up in the recording and transcript. Businesses can delete any call from their workspace at any time, and should not set up the agent to ask for card numbers or other sensitive information.',
        'We don’t buy personal data, and we don’t combine what we hold with data from data brokers.',
      ],
    },
    {
      id: 'call-recordings',
      heading: 'Call recordings and consent',
      paragraphs: [
        'Recording laws differ from place to place. Some places, such as California and many countries, require everyone on a call to agree to being recorded. Each business that uses Cervana decides whether its calls are recorded. It is responsible for giving callers the notice, and getting the consent, that its law requires.',
        'To help, Cervana plays a short disclosure at the start of every call. The default wording is: “This call is answered by Cervana, an AI assistant, and is recorded and transcribed so we can help you.” Each business can change the wording and the language.',
        'If you don’t want to be recorded, tell the agent, ask for a person, or contact the business another way. What happens next is up to the business you called.',
        'A business can set recording retention to 0 days. The audio is then deleted as soon as the transcript is made.',
      ],
    },
    {
      id: 'how-we-use-data',
      heading: 'How we use data, and our legal bases',
      paragraphs: [
        'We use personal data only for the purposes below. Privacy laws such as the GDPR require a legal basis for each use, so we name it next to each one.',
      ],
      list: [
        'Providing the service to our customers: answering calls, storing recordings and transcripts, and showing them in the workspace. Basis: our contract with the customer. For callers, the business you called decides its own legal basis.',
        'Running your account: signing you in, two-factor authentication, password resets and service emails. Basis: our contract with you.',
        'Answering your inquiries: replying to a demo request, sales question or partner application. Basis: steps you asked us to take before a contract, and our legitimate interest in replying to people who contact us.',
        'Crediting partners for referrals: remembering a referral code and counting clicks. Basis: our legitimate interest in running our partner program.',
        'Keeping the service secure and working: logs, abuse prevention, backups and fixing bugs. Basis: our legitimate interest, and our customers’, in a safe and reliable service.',
        'Paying partners: paying commissions and keeping tax and accounting records. Basis: our contract with the partner, and legal obligation.',
        'Booking a demo: loading the scheduling widget when you click “Book a 15-min demo”. Basis: your consent, which you give by clicking. Until you click, nothing is loaded.',
        'Legal requests: answering valid requests from courts and authorities. Basis: legal obligation.',
      ],
      afterList: [
        'We don’t use personal data for advertising, we don’t build profiles to sell, and we don’t make decisions with legal or similarly significant effects about you by automated means alone.',
        'Where we rely on legitimate interest, you can object at any time. See “Your rights” below.',
      ],
    },
    {
      id: 'ai-processing',
      heading: 'How we use AI',
      paragraphs: [
        'Our phone agent uses speech recognition and language models. They turn speech into text, work out what the caller needs, answer, write a summary, and pick out fields such as an order number.',
        'We don’t train general AI models on customer data, including calls, recordings, transcripts and workspace content, unless the customer opts in. The opt-in is off by default, and the customer can withdraw it at any time. We then stop using its data for training.',
        'If an outside provider runs part of the agent, our contract forbids it from training on the data or keeping it longer than it needs to return a result.',
        'The agent hands the call to a human CSM when it can’t resolve the issue, when the caller asks for a person, or when the business’s rules say so. The CSM gets the transcript, the summary and the extracted fields, so the caller doesn’t have to repeat themselves.',
        'AI can make mistakes. A summary or an extracted field may be wrong or incomplete, so the full transcript and recording stay available for the team to check. If something recorded about you is wrong, ask the business you called to correct it.',
      ],
    },
    {
      id: 'cookies-and-local-storage',
      heading: 'Cookies and local storage',
      paragraphs: [
        'Our site sets no cookies of its own, and we use no analytics, advertising or tracking cookies, pixels or fingerprinting. Our fonts and every other file a page needs come from our own server, so no request leaves our site to show you a page.',
        'We do use your browser’s local storage, a small store on your device that only our site can read. It holds at most these two entries:',
      ],
      list: [
        'sb-…-auth-token: keeps you signed in. The middle part of the name depends on our server’s address, for example sb-cervana-auth-token. It holds your session: an access token that expires after one hour, and a refresh token that gets a new one. It is written only when you sign in and removed when you sign out.',
        'cervana.ref: remembers a partner’s referral code for 90 days. It is written only when you arrive through a partner link (a link containing ?ref=). It holds the code and its expiry date, nothing about you. If you send us a form within those 90 days, we attach the code so the partner gets credit. After 90 days it is deleted.',
      ],
      afterList: [
        'Clicks on partner links are counted on our server. We store the partner’s code and a daily total, not who clicked.',
        'The scheduling widget (Calendly) is the only code from another company our site can load, and it loads only when you click “Book a 15-min demo”. Calendly then receives your IP address and what you type into it, and may set its own cookies. Calendly’s own privacy and cookie policies apply to that.',
        'To remove our entries, sign out, or clear this site’s data in your browser settings.',
      ],
    },
    {
      id: 'sharing-and-sub-processors',
      heading: 'Who we share data with',
      paragraphs: [
        'We don’t sell personal data, and we don’t share it for advertising. We share it only with the service providers below (our sub-processors). They work for us under contract and get only what they need.',
      ],
      list: [
        'Hosting: on our hosted service, the database, sign-in and file storage run on a managed Supabase project and the cloud infrastructure under it. Customers who host Cervana themselves use their own infrastructure.',
        'Email delivery: an SMTP email provider sends the messages in our outbox. It receives the recipient’s address and the message.',
        'Telephone network: a telephone carrier connects calls to our phone agent and carries the audio.',
        'AI providers: if an outside speech or language model provider runs part of the agent, it receives only the audio or text it needs to return a result.',
        'Scheduling: Calendly, only after you click to book a demo. For what you enter there, Calendly is responsible under its own policy.',
      ],
      afterList: [
        'We keep a current list of sub-processors, with what each does and where, and send it on request. We tell customers at least 30 days before we add or replace one, so they can object.',
        'If you were referred by a partner, that partner sees your company name and the status of your inquiry, so we can pay their commission. Partners never see your messages or any call data.',
        'We also share data when the law requires it, such as a valid court order, or to protect someone’s safety. Unless the law forbids it, we tell the affected customer first. If Cervana is merged or sold, the buyer must keep the promises in this policy.',
      ],
    },
    {
      id: 'international-transfers',
      heading: 'International transfers',
      paragraphs: [
        'Cervana, Inc. is based in the United States, and so are some of our providers. If you are in the European Economic Area, the UK or Switzerland, your data may be transferred to the US or another country.',
        'When it is, we protect it with the European Commission’s Standard Contractual Clauses (SCCs), the UK International Data Transfer Addendum and the Swiss equivalent, together with the safeguards in this policy. Ask us for a copy.',
        'A hosted workspace is stored in the region set in the customer’s contract. A self-hosted workspace stays wherever the customer runs it.',
      ],
    },
    {
      id: 'retention',
      heading: 'How long we keep data',
      paragraphs: [
        'We keep data only as long as we need it, then delete it. These are our retention periods:',
      ],
      list: [
        'Call recordings: 90 days by default. Each business can choose anything from 0 to 365 days. At 0 days, the audio is deleted as soon as the transcript is made.',
        'Transcripts, summaries, extracted fields and call details such as the caller’s number: 12 months by default. A business can choose a shorter period.',
        'Demo, sales and partner inquiries (leads): 24 months after our last contact with you.',
        'Account data: as long as the account exists, and 30 days after it is closed.',
        'Partner payout and tax records: 7 years after the payment, as tax law requires.',
        'Emails in our outbox, sent or not: 90 days.',
        'Server request logs: 30 days.',
        'Backups: 35 days, after which each backup is deleted.',
        'The referral code in your browser: 90 days. Partner click counts are daily totals with no personal data in them.',
      ],
      afterList: [
        'When a business deletes a call, it leaves the workspace at once and our backups within 35 days. When a customer’s contract ends, we delete its workspace within 30 days, after giving it the chance to export its data. Backups follow within 35 days.',
        'Businesses that host Cervana themselves set the retention periods and keep the backups on their own infrastructure.',
      ],
    },
    {
      id: 'security',
      heading: 'How we keep data safe',
      paragraphs: ['We protect data with these measures:'],
      list: [
        'Encryption in transit: every connection to our website and API uses HTTPS (TLS), and browsers are told to always use it. Data on our hosted service is also encrypted at rest.',
        'Row-level access control: the database itself checks every request against the signed-in person’s workspace and role, so one customer’s team can never read another customer’s calls.',
        'Least privilege: our staff get only the access their job needs. We open a customer’s call data only when the customer asks us to, for example for support.',
        'Strong sign-in: passwords are stored only as salted hashes. You can turn on two-factor authentication with an authenticator app (TOTP), and all Cervana staff must use it. Sign-in tokens expire after one hour.',
        'A strict browser security policy: our pages may only run scripts from our own site, plus the scheduling widget after you click to book a demo.',
      ],
      afterList: [
        'No system is perfectly secure. If a breach affects personal data, we tell the affected customers without undue delay, and within 72 hours of confirming it. We also tell regulators and affected people when the law requires it.',
      ],
    },
    {
      id: 'your-rights',
      heading: 'Your rights',
      paragraphs: ['Depending on where you live, you have these rights over your personal data:'],
      list: [
        'Access: get a copy of the personal data we hold about you.',
        'Correction: have wrong or incomplete data fixed.',
        'Deletion: have your data deleted.',
        'Portability: get your data in a common, machine-readable format, such as CSV or JSON, or have it sent to another provider.',
        'Objection: object to a use based on legitimate interest. We will stop unless we have a compelling reason that outweighs yours.',
        'Restriction: have us pause using your data while a question about it is settled.',
        'Withdrawing consent: where we rely on your consent, withdraw it at any time. This doesn’t affect what we did before.',
        'Complaint: complain to a data protection supervisory authority, for example the one where you live or work. We’d appreciate the chance to put things right first.',
      ],
      afterList: [
        'To use any of them, email privacy@cervana.ai. It’s free, and we reply within 30 days. We may ask you to confirm who you are first, so we never hand your data to someone else. If you have an account, you can also update your details and turn on two-factor authentication in your account settings.',
        'If you called a business that uses Cervana, contact that business first. It controls your call data and decides on your request. If you don’t know which business it was, or it doesn’t answer, write to us. We’ll pass your request on and help the business respond.',
        'If you live in California or another US state with a privacy law, you can also ask what personal information we collect and why, and have it corrected or deleted. We won’t treat you differently for asking. We don’t sell personal information or share it for cross-context behavioral advertising, so there is nothing to opt out of. You can also ask through an authorized agent.',
      ],
    },
    {
      id: 'children',
      heading: 'Children',
      paragraphs: [
        'Our website and accounts are for businesses. They are not meant for anyone under 16, and we don’t knowingly collect children’s data through them. If you think a child has given us personal data, email privacy@cervana.ai and we will delete it.',
        'Anyone can phone a business, including a child. Our phone agent does not try to work out a caller’s age. The business that uses Cervana decides how to handle calls from children under its own policies.',
      ],
    },
    {
      id: 'changes',
      heading: 'Changes to this policy',
      paragraphs: [
        'We update this policy when our product or the law changes. The date at the top of this page shows when it last changed.',
        'If a change is significant, such as a new use of your data or a new kind of sub-processor, we email account holders and tell customers at least 30 days before it takes effect.',
        'We keep every past version. Ask us if you’d like a copy.',
      ],
    },
    {
      id: 'contact',
      heading: 'Contact us',
      paragraphs: [
        'Send questions, requests and complaints about privacy to our privacy team. A person reads every message, and we reply within 30 days.',
        'Customers can also ask at the same address for our data processing agreement (DPA), our sub-processor list or a copy of the Standard Contractual Clauses.',
      ],
    },
  ],

  contact: {
    email: 'privacy@cervana.ai',
    postal: 'Cervana, Inc.\n548 Market Street, Suite 91720\nSan Francisco, CA 94104\nUSA',
  },
};
