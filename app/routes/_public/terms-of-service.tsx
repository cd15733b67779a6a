import { Link } from "react-router";
import { useAppName } from "~/components/public-layout";
import { ClipperAgreement, CreatorAgreement } from "~/lib/agreements";
import { PAYOUT_MESSAGES } from "~/modules/payments/messages";
import { formatCents } from "~/modules/payments/money";
import { getSettings } from "~/platform/settings.server";
import type { Route } from "./+types/terms-of-service";
import { LegalContents, LegalPage, LegalSection, legalLinkClass, legalMeta } from "~/lib/legal-page";

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-screen";

export const meta = () => legalMeta("Terms of Service", "The Creator Agreement, the Clipper Agreement and the general terms for using Shortbeat.");

// The payout minimum is an admin setting, not a term of the fixed agreement text: said beside it (issue 42 §1).
export async function loader() {
  return { minimumCents: (await getSettings()).payoutMinimumUsd * 100 };
}

export default function TermsOfService({ loaderData }: Route.ComponentProps) {
  const appName = useAppName();
  return (
    <LegalPage title="Terms of Service">
      <p className="mt-4">
        These terms govern your use of {appName}. They are made up of the Creator Agreement, which every creator accepts at sign-up, the Clipper Agreement,
        which applies between a clipper and the creator who invited them, and the general terms below. Music partners who submit tracks also accept the{" "}
        <Link to="/music-partner-terms" className={legalLinkClass}>
          Music Partner Terms
        </Link>
        . How we handle personal data is explained in our{" "}
        <Link to="/privacy-policy" className={legalLinkClass}>
          Privacy Policy
        </Link>
        .
      </p>

      <LegalContents
        items={[
          ["creator-agreement", "Creator Agreement & Monetization Terms"],
          ["clipper-agreement", "Clipper Agreement"],
          ["general-terms", "General terms"],
        ]}
      />

      <LegalSection id="creator-agreement" title={"Creator Agreement & Monetization Terms"}>
        <CreatorAgreement appName={appName} />
        <p className="mt-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm" data-testid="payout-minimum">
          Payout minimum (a current setting, not a term of the Agreement): {PAYOUT_MESSAGES.minimumNote(formatCents(loaderData.minimumCents))} They are paid on
          the first payout day they reach it. The Payments page shows the minimum that applies.
        </p>
      </LegalSection>

      <LegalSection id="clipper-agreement" title="Clipper Agreement">
        <ClipperAgreement appName={appName} />
      </LegalSection>

      <LegalSection id="general-terms" title="General terms">
        <h3>Accounts and eligibility</h3>
        <ul>
          <li>You must be at least 18 years old, or the age of majority where you live if that is higher, and able to enter into a binding contract.</li>
          <li>The details you give at sign-up, including your name, e-mail address and channel details, must be true and kept up to date.</li>
          <li>
            You are responsible for keeping your password secret and for everything done with your account. Tell us at once if you think someone else has used
            it.
          </li>
        </ul>

        <h3>Approval by our team</h3>
        <p>
          Every new account is reviewed by a {appName} administrator before it can use most of the dashboard. Until then you will see a page saying your account
          is under review. We may approve or reject an account, and we may suspend or ban an account that breaks these terms, with a reason given to you.
        </p>

        <h3>Acceptable use</h3>
        <p>When you use {appName} you must not:</p>
        <ul>
          <li>inflate views, subscribers or other statistics artificially, or submit channels or videos you do not control;</li>
          <li>use the music library outside the licence granted in the Creator Agreement;</li>
          <li>try to get around our security, rate limits or access controls, or access another person’s account or data;</li>
          <li>upload malicious files, or content that is unlawful or infringes someone else’s rights;</li>
          <li>post abusive, harassing, hateful or spam messages in the community chat.</li>
        </ul>

        <h3>Changes to these terms</h3>
        <p>
          We may update these terms, for example to reflect changes in the law or in the service. We will tell you about material changes in the dashboard or by
          e-mail before they take effect. A change to your revenue share is only ever made with your express acceptance, as the Creator Agreement describes.
        </p>

        <h3>Governing law</h3>
        <p>These terms are governed by the laws of England and Wales.</p>

        <h3>Contact</h3>
        <p>
          Questions about these terms, and written notices under the Creator Agreement or these terms, can be sent to the {appName} team by e-mail from the
          address registered to your account, by replying to any e-mail we have sent you.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
