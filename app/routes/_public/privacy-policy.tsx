import { Link } from "react-router";
import { useAppName } from "~/components/public-layout";
import { LegalContents, LegalPage, LegalSection, legalLinkClass, legalMeta } from "~/lib/legal-page";

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-screen";

/** The policy's date: its words changed with the code that keeps them (issue 28, docs/privacy.md). */
const PRIVACY_POLICY_EFFECTIVE_DATE = "6 December 2026";

export const meta = () => legalMeta("Privacy Policy", "What personal data Shortbeat collects, why, who processes it, how long it is kept and your rights.");

export default function PrivacyPolicy() {
  const appName = useAppName();
  return (
    <LegalPage title="Privacy Policy" effective={PRIVACY_POLICY_EFFECTIVE_DATE}>
      <p className="mt-4">
        This policy explains what personal data {appName} collects when you use our website and creator dashboard, why we collect it, who helps us process it,
        how long we keep it and the rights you have. It applies to creators, clippers, agency managers and music partners, and to visitors of our public pages.
      </p>

      <LegalContents
        items={[
          ["who-we-are", "Who we are"],
          ["data-we-collect", "Data we collect"],
          ["how-we-use", "How and why we use it"],
          ["cookies", "Cookies and local storage"],
          ["sharing", "Who we share it with"],
          ["retention", "How long we keep it"],
          ["security", "Security"],
          ["your-rights", "Your rights"],
          ["contact", "Changes and contact"],
        ]}
      />

      <LegalSection id="who-we-are" title="1. Who we are">
        <p>
          {appName} operates the {appName} platform and is the controller of the personal data described in this policy. Our terms are governed by the laws of
          England and Wales, and we handle personal data in line with the UK General Data Protection Regulation (UK GDPR) and the Data Protection Act 2018.
        </p>
      </LegalSection>

      <LegalSection id="data-we-collect" title="2. Data we collect">
        <h3>Account data</h3>
        <ul>
          <li>Your name and e-mail address, and whether you have verified the e-mail address.</li>
          <li>Your phone number, if you add one to sign in with, and whether you have verified it.</li>
          <li>Your password, stored only as an argon2id hash. We never store or see your password in readable form.</li>
          <li>If you sign in with Google: your Google account identifier and the e-mail address Google shares with us.</li>
          <li>Your profile picture, if you upload one, and your account status (for example pending or approved).</li>
        </ul>

        <h3>Sign-up details</h3>
        <p>
          The details you give when you sign up: your YouTube channel URL, subscriber count and monthly views, the referral code you used, the agency you joined
          through, and, for clippers, your acceptance of the Clipper Agreement. Music partners also give an artist name and a link to their catalogue.
        </p>

        <h3>Linked YouTube channel data</h3>
        <ul>
          <li>
            When you link a YouTube channel, we store the channel’s identifier, title and public statistics (subscribers, views and video count), and dated
            snapshots of those statistics.
          </li>
          <li>
            The OAuth access and refresh tokens Google issues are kept only on our servers, encrypted at rest, and are used only to read your channel’s
            statistics. We never upload, edit or delete anything on your channel.
          </li>
          <li>Channels you submit manually for verification, with their status.</li>
        </ul>

        <h3>Payout and earnings data</h3>
        <p>
          Your revenue-share term, monthly statements and earnings (music share, campaign earnings and clip splits), payout status and payout references, and
          the payout details you give us so that we can pay you.
        </p>

        <h3>Content you provide</h3>
        <p>
          Tracks and cover art submitted by music partners, source videos uploaded for clippers, links to clips and campaign videos you submit, community chat
          messages, and the music licences recorded when you use a track.
        </p>

        <h3>Security logs</h3>
        <p>
          Your IP address and browser user agent, recorded with your sessions and with security events such as sign-ins, failed sign-in attempts, password
          changes and administrator actions. We use them to prevent abuse and fraud, to enforce rate limits, and to show you your active sessions in Settings.
        </p>
      </LegalSection>

      <LegalSection id="how-we-use" title="3. How and why we use your data">
        <ul>
          <li>
            <strong>To provide the service and perform our agreements with you</strong> (contract): creating and approving your account, licensing music,
            reading channel statistics, calculating revenue shares and splits, paying you and sending account e-mails and notifications.
          </li>
          <li>
            <strong>To keep {appName} secure</strong> (legitimate interests): preventing abuse, fraud and unauthorised access, and keeping security logs.
          </li>
          <li>
            <strong>To meet legal obligations</strong> (legal obligation): keeping financial and tax records and responding to lawful requests.
          </li>
        </ul>
        <p>We do not sell your personal data and we do not use it for advertising.</p>
      </LegalSection>

      <LegalSection id="cookies" title="4. Cookies and local storage">
        <p>We use only the cookies needed to run the service:</p>
        <ul>
          <li>
            <strong>Session cookie</strong>: keeps you signed in. It holds a random token; our servers store only a hash of it. It expires after a period of
            inactivity or when you sign out.
          </li>
          <li>
            <strong>Sidebar-state cookie</strong>: remembers whether you collapsed the dashboard sidebar, for 7 days.
          </li>
          <li>
            <strong>Flash-message cookie</strong>: carries a one-off status message (such as “Signed out”) to the next page, and expires within a minute.
          </li>
        </ul>
        <p>
          Your favorite tracks are kept in your browser’s local storage, not on our servers. Clearing your browser data removes them. Our hosting provider,
          Cloudflare, may also set strictly necessary security cookies to protect the site from automated attacks. We do not use advertising or third-party
          analytics cookies.
        </p>
      </LegalSection>

      <LegalSection id="sharing" title="5. Who we share it with">
        <h3>Processors</h3>
        <ul>
          <li>
            <strong>Cloudflare</strong> hosts {appName}: our application, database, file storage and live chat and notifications run on Cloudflare’s network.
          </li>
          <li>
            <strong>Cloudflare Email Service</strong> delivers the e-mails we send you, and <strong>Twilio</strong> delivers the verification codes we text to
            your phone number.
          </li>
          <li>
            <strong>Google</strong> handles Google sign-in and provides the YouTube API Services we use to read channel statistics. By linking a YouTube channel
            you also agree to the{" "}
            <a href="https://www.youtube.com/t/terms" className={legalLinkClass} rel="noreferrer">
              YouTube Terms of Service
            </a>
            , and Google’s use of data is covered by the{" "}
            <a href="https://policies.google.com/privacy" className={legalLinkClass} rel="noreferrer">
              Google Privacy Policy
            </a>
            . You can remove our access at any time from your{" "}
            <a href="https://myaccount.google.com/permissions" className={legalLinkClass} rel="noreferrer">
              Google account permissions page
            </a>{" "}
            or by disconnecting the channel in {appName}.
          </li>
        </ul>
        <h3>Other people on {appName}</h3>
        <ul>
          <li>{appName} administrators see account, channel, payout and security data to run the service.</li>
          <li>The creator who referred you sees your name, status and join date.</li>
          <li>If you joined through an agency, that agency’s managers see your profile, channels and status.</li>
          <li>A creator you clip for sees your clips, their views and your split, and you see theirs.</li>
          <li>
            Other members see your name and messages in the community chat. If you delete your account, your messages stay in their rooms, shown as from
            “Deleted user”.
          </li>
          <li>
            Anyone who opens a campaign’s public page sees its leaderboard: for each creator whose video the campaign approved, the first name and the initial
            of the last name, the number of approved videos and their verified views. Never your e-mail address, your video links or your earnings.
          </li>
        </ul>
        <p>
          We may also disclose data where the law requires it, or to protect the rights and safety of our users and of {appName}. Cloudflare and Google may
          process data outside the UK; where they do, the transfer is protected by safeguards recognised under UK law, such as the UK International Data
          Transfer Addendum.
        </p>
      </LegalSection>

      <LegalSection id="retention" title="6. How long we keep it">
        <ul>
          <li>Account, profile and sign-up data: while your account exists.</li>
          <li>YouTube tokens and channel data: until you disconnect the channel or delete your account, when they are deleted.</li>
          <li>Sessions: until they expire or you sign out or end them in Settings; expired sessions are deleted every day.</li>
          <li>Security logs: 12 months.</li>
          <li>Technical reports of blocked content from administrators’ browsers: 90 days.</li>
          <li>The e-mails we send you: their text for 30 days; after that only the date, subject and whether it was delivered, while your account exists.</li>
          <li>Uploads you started but did not finish: 24 hours.</li>
          <li>
            Earnings, statements and payout records: at least six years after the end of the financial year they relate to, as UK tax law requires. If you
            delete your account they are kept without your name or contact details. Money you have earned stays yours: it is paid to your connected Stripe
            account on the usual payout days, also after the deletion, and we send no e-mail about it. If no payout account is connected, contact us before the
            deletion date so that we can arrange payment.
          </li>
        </ul>
        <p>
          You can delete your account in Settings, or ask us to. Every session ends at once and your account is frozen for 30 days, during which you can sign in
          to keep it or to download a copy of your data. Then, within a day, we delete or anonymise your personal data, except for records we must keep by law:
          your profile, channels and their YouTube access, uploaded files and notifications are deleted, and your e-mail address is removed so that it can be
          used for a new account.
        </p>
      </LegalSection>

      <LegalSection id="security" title="7. Security">
        <p>
          All traffic is encrypted with HTTPS. Passwords are stored only as argon2id hashes, session and one-time tokens only as hashes, and YouTube OAuth
          tokens are encrypted at rest. Access to personal data is limited to the administrators who need it, and administrator actions are logged.
        </p>
      </LegalSection>

      <LegalSection id="your-rights" title="8. Your rights">
        <p>Under the UK GDPR you have the right to:</p>
        <ul>
          <li>access the personal data we hold about you and receive a copy of it;</li>
          <li>have inaccurate data corrected;</li>
          <li>have your data deleted;</li>
          <li>restrict or object to our use of your data, and to data portability, where the law allows.</li>
        </ul>
        <p>
          You can correct much of your data yourself in Profile and Settings, download a copy of your data at any time (Settings, “Download my data”), turn off
          optional e-mails (Settings, or the unsubscribe link in them) and delete your account (Settings, “Delete account”). For anything else, contact us as
          described below; we will reply within one month. You also have the right to complain to the Information Commissioner’s Office (
          <a href="https://ico.org.uk" className={legalLinkClass} rel="noreferrer">
            ico.org.uk
          </a>
          ).
        </p>
        <p>{appName} is not intended for anyone under 18, and we do not knowingly collect their data.</p>
      </LegalSection>

      <LegalSection id="contact" title="9. Changes and contact">
        <p>
          We will post any changes to this policy on this page with a new effective date, and tell you about important changes in the dashboard or by e-mail.
        </p>
        <p>
          To exercise your rights or ask about this policy, e-mail the {appName} team from the address registered to your account, by replying to any e-mail we
          have sent you. See also our{" "}
          <Link to="/terms-of-service" className={legalLinkClass}>
            Terms of Service
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
