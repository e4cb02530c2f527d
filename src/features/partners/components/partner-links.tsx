import { CopyField } from './copy-field';

/** The links a partner shares: `/?ref=CODE` anywhere, `/demo?ref=CODE` for the co-branded demo page. */
export function partnerLinks(code: string, origin = window.location.origin) {
  const ref = encodeURIComponent(code);
  return { referral: `${origin}/?ref=${ref}`, demo: `${origin}/demo?ref=${ref}` };
}

/** The referral link, the co-branded demo link and the bare code, each with its copy button. */
export function PartnerLinks({ code }: { code: string }) {
  const links = partnerLinks(code);
  return (
    <div className="grid gap-5">
      <CopyField
        label="Your referral link"
        value={links.referral}
        copyLabel="referral link"
        hint="Anyone who arrives through it is credited to you for 90 days."
      />
      <CopyField
        label="Your co-branded demo link"
        value={links.demo}
        copyLabel="demo link"
        hint="Opens our demo booking page with “Recommended by” your company at the top."
      />
      <div className="max-w-sm">
        <CopyField label="Your referral code" value={code} copyLabel="referral code" />
      </div>
    </div>
  );
}
