import { Link } from "react-router";
import { useAppName } from "~/components/public-layout";
import { LegalContents, LegalPage, LegalSection, legalLinkClass, legalMeta } from "~/lib/legal-page";

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-screen";

export const meta = () => legalMeta("Music Partner Terms", "Terms for artists and labels who submit tracks to the Shortbeat music library.");

export default function MusicPartnerTerms() {
  const appName = useAppName();
  return (
    <LegalPage title="Music Partner Terms">
      <p className="mt-4">
        These Music Partner Terms (the “Terms”) are between {appName} (“we”, “us”) and you, the artist, label or other rights holder who signs up as a music
        partner and submits tracks to the {appName} music library (“you”). You accept them when you sign up as a music partner. Our{" "}
        <Link to="/terms-of-service" className={legalLinkClass}>
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link to="/privacy-policy" className={legalLinkClass}>
          Privacy Policy
        </Link>{" "}
        also apply to your account.
      </p>

      <LegalContents
        items={[
          ["submissions", "Submitting tracks"],
          ["rights", "Your rights and warranties"],
          ["licence", `Licence to ${appName}`],
          ["review", "Review and approval"],
          ["reporting", "Revenue and usage reporting"],
          ["takedowns", "Takedown requests"],
          ["termination", "Termination"],
          ["general", "Governing law and contact"],
        ]}
      />

      <LegalSection id="submissions" title="1. Submitting tracks">
        <p>
          You submit tracks through your dashboard, as MP3 or WAV audio files with a cover image and accurate details: title, artist, genre, mood and BPM. With
          every submission you confirm that you hold the rights described in section 2. The details you give are shown to creators in the music library.
        </p>
      </LegalSection>

      <LegalSection id="rights" title="2. Your rights and warranties">
        <p>For every track you submit, you warrant that:</p>
        <ul>
          <li>
            you own or control all rights in the track, including the sound recording, the underlying composition and lyrics, any samples, and the consents of
            every performer and producer involved;
          </li>
          <li>
            you are free to grant the licence in section 3, and doing so does not breach any agreement with a label, publisher, distributor or collecting
            society;
          </li>
          <li>the track and its cover art do not infringe anyone’s rights and are not unlawful; and</li>
          <li>
            you will not, yourself or through anyone else, claim, block or monetize creators’ videos that use the track under a licence from {appName}, except
            through arrangements agreed with us.
          </li>
        </ul>
        <p>
          You will compensate {appName} for losses, including reasonable legal costs, that result from a third-party claim that one of these warranties is
          untrue.
        </p>
      </LegalSection>

      <LegalSection id="licence" title={`3. Licence to ${appName}`}>
        <p>
          3.1 You grant {appName} a non-exclusive, worldwide licence to store, reproduce and distribute your approved tracks to creators on {appName}, to
          sublicense creators to use them in short-form videos on platforms such as YouTube Shorts, and to monetize those tracks, including collecting the
          revenue that platforms pay for the music in those videos.
        </p>
        <p>3.2 You also allow us to show your track details, artist name and cover art in the library, on licence certificates and when promoting {appName}.</p>
        <p>3.3 The licence is non-exclusive: you keep ownership of your tracks and remain free to license them elsewhere.</p>
      </LegalSection>

      <LegalSection id="review" title="4. Review and approval">
        <p>
          Every submission is reviewed by a {appName} administrator before it is published. We may approve a track, which publishes it in the library, or reject
          it with a note explaining why. You are notified either way, and you can follow the status of each submission and any reviewer’s note on your
          submissions page. We are not obliged to publish any track, and we may unpublish a track at any time, for example after a rights claim.
        </p>
      </LegalSection>

      <LegalSection id="reporting" title="5. Revenue and usage reporting">
        <p>5.1 Your submissions page shows, for each published track, how many creators have licensed it.</p>
        <p>
          5.2 Any payment to you for your tracks is set out in a separate written agreement with {appName} or in an offer you accept in your dashboard. Where
          such terms apply, we report the revenue attributable to your tracks with each statement and pay you under those terms, only after we have received the
          funds from the platform concerned.
        </p>
      </LegalSection>

      <LegalSection id="takedowns" title="6. Takedown requests">
        <p>
          6.1 You may ask us at any time to remove one of your tracks from the library. We will remove it within a reasonable time, and no new licences for it
          will be granted after removal.
        </p>
        <p>
          6.2 Licences already granted to creators continue for videos they published before the track was removed, so that creators acting in good faith are
          not harmed.
        </p>
        <p>6.3 If someone else claims rights in one of your tracks, we may remove it from the library while the claim is resolved, and we will tell you.</p>
      </LegalSection>

      <LegalSection id="termination" title="7. Termination">
        <p>
          7.1 Either party may end these Terms by giving the other 30 days’ written notice. Either party may end them with immediate effect if the other
          materially breaches them.
        </p>
        <p>
          7.2 When these Terms end, we remove your tracks from the library. Section 6.2, the warranties in section 2 and any amounts already due to you survive
          termination.
        </p>
      </LegalSection>

      <LegalSection id="general" title="8. Governing law and contact">
        <p>
          These Terms are governed by the laws of England and Wales, and the courts of England and Wales have jurisdiction over any dispute arising from them.
        </p>
        <p>
          Takedown requests, notices and questions about these Terms can be sent to the {appName} team by e-mail from the address registered to your account, by
          replying to any e-mail we have sent you.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
