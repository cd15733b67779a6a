// The Creator Agreement and the Clipper Agreement of spec section 1 ("Agreement terms"),
// shown at sign-up (in a dialog) and on /terms-of-service (in the page). Plain elements only,
// headings start at h3 because the page or dialog supplies the h1/h2 above them. The explicit
// classes make the text readable inside a dialog; on the legal pages `.prose-legal` restyles it.

export const AGREEMENT_EFFECTIVE_DATE = "31 August 2025";

function Heading({ children }: { children: React.ReactNode }) {
  return <h3 className="mt-6 mb-2 text-base font-semibold text-slate-900">{children}</h3>;
}

function Para({ children }: { children: React.ReactNode }) {
  return <p className="mt-2 leading-relaxed text-slate-700">{children}</p>;
}

function List({ children }: { children: React.ReactNode }) {
  return <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-700">{children}</ul>;
}

function Item({ children }: { children: React.ReactNode }) {
  return <li className="leading-relaxed text-slate-700">{children}</li>;
}

function EffectiveDate() {
  return <p className="mt-2 text-sm font-medium text-slate-600">Effective date: {AGREEMENT_EFFECTIVE_DATE}</p>;
}

/** The full Creator Agreement (creator ↔ the product), every term of spec section 1. */
export function CreatorAgreement({ appName }: { appName: string }) {
  return (
    <div className="text-slate-700">
      <EffectiveDate />
      <Para>
        This Creator Agreement (the “Agreement”) is between {appName} (“{appName}”, “we”, “us”) and you, the creator who signs up for and uses the {appName}{" "}
        creator dashboard (“you”). It sets out how you may use the music that {appName} supplies in your short-form videos on YouTube (YouTube Shorts) and how
        the revenue from that music is shared. You accept this Agreement when you create your account.
      </Para>

      <Heading>1. Definitions</Heading>
      <List>
        <Item>
          <strong className="font-semibold text-slate-900">Platform</strong> means YouTube, including YouTube Shorts.
        </Item>
        <Item>
          <strong className="font-semibold text-slate-900">Licensed Music</strong> means the tracks in the {appName} music library that you use under this
          Agreement.
        </Item>
        <Item>
          <strong className="font-semibold text-slate-900">Short Videos</strong> means the short-form videos you publish on YouTube Shorts on a channel linked
          to your {appName} account.
        </Item>
        <Item>
          <strong className="font-semibold text-slate-900">Net Revenue</strong> means the revenue the Platform pays for the Licensed Music in your monetized
          Short Videos, less taxes and fees.
        </Item>
        <Item>
          <strong className="font-semibold text-slate-900">Term</strong> has the meaning given in section 2.
        </Item>
      </List>

      <Heading>2. Term</Heading>
      <Para>2.1 The Term starts on the date you first link a channel to your {appName} account and lasts 12 months.</Para>
      <Para>
        2.2 At the end of each 12-month period the Term renews automatically for a further 12 months, and so on for successive 12-month periods, unless this
        Agreement is terminated under section 9.
      </Para>

      <Heading>3. Licence to use the music</Heading>
      <Para>
        3.1 During the Term we grant you a non-exclusive, non-transferable licence to use Licensed Music in Short Videos published on your linked channels. Each
        time you use a track through the dashboard, we record the licence so that you can show it to the Platform if asked.
      </Para>
      <Para>3.2 You may not resell, redistribute or register Licensed Music as your own.</Para>

      <Heading>4. Revenue share</Heading>
      <Para>
        4.1 Your standard share is <strong className="font-semibold text-slate-900">70% of Net Revenue</strong> from the Licensed Music in your monetized Short
        Videos. Net Revenue is the Platform’s revenue less taxes and fees. {appName} keeps the remainder.
      </Para>
      <Para>
        4.2 We may offer you a revised share through your dashboard. A revised share applies only if you expressly accept it there; until you do, your current
        share continues to apply.
      </Para>
      <Para>
        4.3 Accepting a revised share starts a new 12-month lock-in period from the date you accept it. That period then renews automatically as described in
        section 2.
      </Para>

      <Heading>5. Payouts</Heading>
      <Para>5.1 We pay your share on or around the 18th of each month.</Para>
      <Para>
        5.2 We pay a share only after {appName} has received the corresponding funds from the Platform. Amounts that the Platform has not yet paid to us are
        carried forward and paid in the next payout after we receive them.
      </Para>
      <Para>5.3 Your statements, balances and payout history are shown on the Payments page of your dashboard.</Para>

      <Heading>6. Exclusivity</Heading>
      <Para>6.1 During the Term you may not use any other third-party licensed-music service to earn revenue on short videos.</Para>
      <Para>6.2 This does not restrict:</Para>
      <List>
        <Item>videos that contain no third-party music;</Item>
        <Item>music from YouTube’s own library (the Platform’s own audio library);</Item>
        <Item>other royalty-free music libraries with which you have no revenue-share arrangement; and</Item>
        <Item>your other brand work, such as sponsorships and brand deals.</Item>
      </List>

      <Heading>7. Campaigns</Heading>
      <Para>
        7.1 Campaigns are optional paid promotions. They are shown in the Campaigns tab of your dashboard, and you take part only if you opt in to a campaign.
      </Para>
      <Para>7.2 Campaigns are usually paid per 1,000 views. Each campaign states its own rate and terms when you opt in.</Para>
      <Para>7.3 Campaign earnings are paid up to 60 days after the campaign ends.</Para>
      <Para>7.4 Choosing not to join a campaign does not affect your revenue share under section 4.</Para>

      <Heading>8. Your warranties</Heading>
      <Para>You warrant that:</Para>
      <List>
        <Item>you own, or have all the rights needed to use, the content you publish in your Short Videos; and</Item>
        <Item>you will follow the law and YouTube’s terms and policies.</Item>
      </List>

      <Heading>9. Termination</Heading>
      <Para>
        9.1 <strong className="font-semibold text-slate-900">For cause.</strong> Either party may terminate this Agreement with immediate effect by written
        notice if the other party materially breaches it.
      </Para>
      <Para>
        9.2 <strong className="font-semibold text-slate-900">For convenience.</strong> You may terminate this Agreement by giving us 90 days’ written notice.
        Termination for convenience takes effect only at the end of the current 12-month term. If fewer than 90 days of the current term remain when you give
        notice, the Agreement ends at the end of the following 12-month term.
      </Para>
      <Para>9.3 Shares earned before termination remain payable under section 5, once {appName} has received the funds from the Platform.</Para>

      <Heading>10. Governing law</Heading>
      <Para>
        This Agreement is governed by the laws of England and Wales, and the courts of England and Wales have jurisdiction over any dispute arising from it.
      </Para>
    </div>
  );
}

/** The full Clipper Agreement (clipper ↔ the referring creator), every term of spec section 1. */
export function ClipperAgreement({ appName }: { appName: string }) {
  return (
    <div className="text-slate-700">
      <EffectiveDate />
      <Para>
        This Clipper Agreement (the “Agreement”) is between you, the clipper (“you”), and the creator who invited you to {appName} (the “Creator”). {appName}{" "}
        provides the tools that share the Creator’s source videos with you and tracks your clips and splits; it is not a party to this Agreement. You accept
        this Agreement when you sign up as a clipper through the Creator’s invite.
      </Para>

      <Heading>1. Licence</Heading>
      <Para>1.1 The Creator grants you a limited, revocable licence to use the source videos in the folder the Creator shares with you through {appName}.</Para>
      <Para>1.2 You may use the source videos only to make short clips for short-video platforms, such as YouTube Shorts, TikTok and Instagram Reels.</Para>

      <Heading>2. Ownership</Heading>
      <Para>The Creator keeps ownership of the source videos and of every clip you make from them. This Agreement does not transfer any ownership to you.</Para>

      <Heading>3. Content rules</Heading>
      <Para>You must not:</Para>
      <List>
        <Item>post defamatory, harassing or hateful content; or</Item>
        <Item>add third-party music to clips, unless the Creator or {appName} supplies it.</Item>
      </List>

      <Heading>4. Revenue split</Heading>
      <Para>
        4.1 By default, revenue from your clips is split <strong className="font-semibold text-slate-900">70% to you and 30% to the Creator</strong>.
      </Para>
      <Para>
        4.2 The split is drawn only from the music monetization pool revenue, that is, the revenue from the licensed music in the clips. No other revenue of the
        Creator is shared with you.
      </Para>
      <Para>
        4.3 You may ask the Creator for a higher split through {appName}. An increase needs the Creator’s approval and applies only to revenue after the Creator
        confirms it.
      </Para>

      <Heading>5. Payment</Heading>
      <Para>
        The duty of final payment lies between you and the Creator. {appName} tracks your clips, their views and the agreed split, and shows the resulting
        amounts to both of you.
      </Para>

      <Heading>6. Revocation</Heading>
      <Para>6.1 The Creator can revoke your access to the source folder at any time, without notice.</Para>
      <Para>6.2 When access is revoked you must stop making clips from the source videos and, if the Creator asks, remove the clips you have published.</Para>
    </div>
  );
}
