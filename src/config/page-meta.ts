import { partnerTerms } from './partner-program';
import { paths } from './paths';

/**
 * Title, description and indexing of every page: written into the prerendered
 * HTML at build time and kept in sync on client-side navigation.
 */
export interface PageMeta {
  title: string;
  description: string;
  /** Canonical path of the page. */
  path: string;
  isIndexed: boolean;
  /** Social card image, a path on this site. */
  image?: string;
}

export const SITE_URL_PLACEHOLDER = '__SITE_URL__';
export const DEFAULT_SOCIAL_IMAGE = '/og-image.png';

const page = (path: string, title: string, description: string, isIndexed = true): PageMeta => ({
  path,
  title,
  description,
  isIndexed,
});

export const pageMeta = {
  home: page(
    paths.home,
    'Cervana — the AI phone agent for customer success teams',
    'Cervana answers every customer call, resolves the issue on the spot, and hands off to your CSMs with full context when it cannot. Book a 15-minute demo.',
  ),
  partner: page(
    paths.partner,
    'Partner program — Cervana',
    `Refer customer success teams to Cervana and earn ${partnerTerms.earn}.`,
  ),
  partnerPortal: page(
    paths.partnerPortal,
    'Partner portal — Cervana',
    'Your referral link, referred leads, commissions and marketing assets.',
    false,
  ),
  partnerReferrals: page(
    paths.partnerReferrals,
    'Referrals — Cervana partner portal',
    'The leads and demo bookings you referred, and where each stands.',
    false,
  ),
  partnerRegistrations: page(
    paths.partnerRegistrations,
    'Deal registration — Cervana partner portal',
    'Register the prospects you are working with, and follow each registration.',
    false,
  ),
  partnerCommissions: page(
    paths.partnerCommissions,
    'Commissions and payouts — Cervana partner portal',
    'Every commission you earned, its state, your payouts and monthly statements.',
    false,
  ),
  partnerAssets: page(
    paths.partnerAssets,
    'Marketing assets — Cervana partner portal',
    'Logos, the one-pager and the deck, ready to download.',
    false,
  ),
  auth: page(paths.auth, 'Sign in — Cervana', 'Sign in to Cervana or create an account.', false),
  oauthConsent: page(
    paths.oauthConsent,
    'Allow access — Cervana',
    'An app asks to use your Cervana account.',
    false,
  ),
  dashboard: page(
    paths.dashboard,
    'Dashboard — Cervana',
    'What your phone agent did: calls, resolutions and hand-offs.',
    false,
  ),
  calls: page(
    paths.calls,
    'Calls — Cervana',
    'Every call your phone agent took: search, filter and export.',
    false,
  ),
  callDetail: page(
    paths.callDetail,
    'Call — Cervana',
    'One call: its recording, transcript, summary and outcome.',
    false,
  ),
  connectPhone: page(
    paths.connectPhone,
    'Connect your phone system — Cervana',
    'Send your phone system’s calls to Cervana.',
    false,
  ),
  agent: page(
    paths.agent,
    'Agent settings — Cervana',
    'How your phone agent answers: greeting, voice, languages, hours and hand-offs.',
    false,
  ),
  phoneNumbers: page(
    paths.phoneNumbers,
    'Phone numbers — Cervana',
    'The numbers your phone agent answers, and which agent answers each.',
    false,
  ),
  knowledge: page(
    paths.knowledge,
    'Knowledge — Cervana',
    'The documents your phone agent answers from.',
    false,
  ),
  team: page(
    paths.team,
    'Team and workspace — Cervana',
    'Who in your team can see your calls, and your workspace’s name and time zone.',
    false,
  ),
  accountSettings: page(
    paths.accountSettings,
    'Account settings — Cervana',
    'Your profile, email, password and two-factor authentication.',
    false,
  ),
  admin: page(paths.admin, 'Admin — Cervana', 'Cervana administration.', false),
  adminLeads: page(
    paths.adminLeads,
    'Leads — Cervana admin',
    'Every sales inquiry and where it stands in the pipeline.',
    false,
  ),
  adminLead: page(
    paths.adminLead,
    'Lead — Cervana admin',
    'One lead: its details, status and notes.',
    false,
  ),
  adminUsers: page(
    paths.adminUsers,
    'Users — Cervana admin',
    'Every account: search, roles, bans, invitations and password resets.',
    false,
  ),
  adminUser: page(
    paths.adminUser,
    'User — Cervana admin',
    'One account: profile, role, workspaces, sign-in methods and actions.',
    false,
  ),
  adminAudit: page(
    paths.adminAudit,
    'Audit log — Cervana admin',
    'Who changed what, when and from where.',
    false,
  ),
  adminPartners: page(
    paths.adminPartners,
    'Partners — Cervana admin',
    'Partner applications to review, and every partner’s tier, commission and status.',
    false,
  ),
  adminEmails: page(
    paths.adminEmails,
    'Email log — Cervana admin',
    'Every email and text message the product queued, and how its delivery went.',
    false,
  ),
  adminEmail: page(
    paths.adminEmail,
    'Email — Cervana admin',
    'One message: its text, HTML, attachments and delivery.',
    false,
  ),
  adminBookings: page(
    paths.adminBookings,
    'Demo bookings — Cervana admin',
    'Every demo booked through /demo: upcoming and past, moved and cancelled.',
    false,
  ),
  adminBooking: page(
    paths.adminBooking,
    'Demo booking — Cervana admin',
    'One demo booking: the visitor’s answers, its lead and history; move or cancel it.',
    false,
  ),
  adminAvailability: page(
    paths.adminAvailability,
    'Demo availability — Cervana admin',
    'When visitors can book a demo: weekly hours, days off and the scheduler’s settings.',
    false,
  ),
  adminCommissions: page(
    paths.adminCommissions,
    'Commissions and payouts — Cervana admin',
    'Partner commissions to approve or decline, what each partner is owed, and payouts.',
    false,
  ),
  demo: page(
    paths.demo,
    'Book a demo — Cervana',
    'Pick a 30-minute slot in your time zone and see Cervana answer real customer success calls.',
  ),
  talkToSales: page(
    paths.talkToSales,
    'Talk to Sales — Cervana',
    'Tell us about your customer success team; we answer within one business day.',
  ),
  privacyPolicy: page(
    paths.privacyPolicy,
    'Privacy policy — Cervana',
    'How Cervana handles call recordings, transcripts and personal data: what we collect, why, for how long, and your rights.',
  ),
  notFound: page(
    '/404',
    'Page not found — Cervana',
    'The page you were looking for does not exist.',
    false,
  ),
} satisfies Record<string, PageMeta>;

const metaByPath = new Map<string, PageMeta>(
  Object.values(pageMeta)
    .filter((meta) => meta !== pageMeta.notFound)
    .map((meta) => [meta.path, meta]),
);

/** Pages whose path has a `:name` segment, as patterns ('/dashboard/calls/:callId'). */
const patternMetas = Object.values(pageMeta)
  .filter((meta) => meta.path.includes('/:'))
  .map((meta) => ({
    meta,
    pattern: new RegExp(`^${meta.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`),
  }));

/** The metadata of the page at `pathname`; the not-found page's for any other path. */
export function metaForPath(pathname: string): PageMeta {
  return (
    metaByPath.get(pathname) ??
    patternMetas.find((entry) => entry.pattern.test(pathname))?.meta ??
    pageMeta.notFound
  );
}
