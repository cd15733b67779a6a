import { Link } from "react-router";
import { Section } from "~/ui/section";
import { BarChart3, Link2, Music2, Wallet } from "~/ui/icons";
import { PublicLayout, useAppName } from "~/components/public-layout";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { CREATOR_SHARE_PERCENT, PAYOUT_DAY_OF_MONTH } from "~/lib/constants";

export const meta = () => [
  { title: "Shortbeat | Empowering creators worldwide" },
  {
    name: "description",
    content: "Licensed music for YouTube Shorts. Keep 70% of the net revenue it brings in your monetized Shorts.",
  },
];

const steps = [
  {
    icon: Music2,
    title: "Browse music",
    text: "Pick from a royalty-free library of licensed tracks made for short-form video.",
  },
  {
    icon: Link2,
    title: "Connect your channel",
    text: "Link your YouTube channel so we can match the music in your Shorts to the revenue it earns.",
  },
  {
    icon: BarChart3,
    title: "Create content",
    text: "Publish monetized Shorts with our music, follow your analytics and grow with campaigns and clippers.",
  },
];

export default function Landing() {
  const appName = useAppName();
  return (
    <PublicLayout>
      <main>
        <section className="bg-gradient-to-b from-brand-50 to-white">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-24">
            <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">{appName}</p>
            <h1 className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">Empowering creators worldwide</h1>
            <p className="mt-5 max-w-2xl text-lg text-slate-700">
              Use licensed music in your YouTube Shorts and earn <strong className="text-slate-900">{CREATOR_SHARE_PERCENT}% of the net revenue</strong> it
              brings in your monetized Shorts. No guesswork, no copyright claims.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/auth?mode=signup" className="rounded-lg bg-brand-600 px-5 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700">
                Sign up as a creator
              </Link>
              <Link to="/auth" className="rounded-lg border border-slate-300 bg-white px-5 py-3 text-base font-semibold text-slate-800 hover:bg-slate-50">
                Sign in
              </Link>
            </div>
          </div>
        </section>

        <Section
          id="how-it-works"
          title="How it works"
          className="mx-auto max-w-6xl px-4 py-16 sm:px-6"
          headingClassName="text-2xl font-bold text-slate-900 sm:text-3xl"
        >
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {steps.map((step, i) => (
              <li key={step.title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <div className="flex items-center gap-3">
                  <span className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-brand-100 text-brand-700">
                    <step.icon aria-hidden="true" className="h-5 w-5" />
                  </span>
                  <span className="text-sm font-semibold text-slate-500">Step {i + 1}</span>
                </div>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 text-slate-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </Section>

        <section aria-labelledby="share" className="bg-slate-900 text-white">
          <div className="mx-auto grid max-w-6xl gap-8 px-4 py-16 sm:px-6 md:grid-cols-2 md:items-center">
            <div>
              <h2 id="share" className="text-2xl font-bold sm:text-3xl">
                You keep {CREATOR_SHARE_PERCENT}%
              </h2>
              <p className="mt-4 text-slate-300">
                Creators earn {CREATOR_SHARE_PERCENT}% of the net revenue from our licensed music in their monetized Shorts: platform revenue less taxes and
                fees. Payouts arrive on or around the {PAYOUT_DAY_OF_MONTH}th of each month, once we have received the funds from the platform.
              </p>
              <p className="mt-4 text-slate-300">
                Invite clippers to cut clips from your footage, join optional paid campaigns, and follow every figure in your dashboard.
              </p>
            </div>
            <div className="rounded-2xl bg-white/5 p-8 ring-1 ring-white/10">
              <div className="flex items-center gap-3 text-slate-300">
                <Wallet aria-hidden="true" className="h-6 w-6" />
                <span>Standard creator share</span>
              </div>
              <p className="mt-3 text-6xl font-extrabold">{CREATOR_SHARE_PERCENT}%</p>
              <p className="mt-2 text-slate-300">of net music revenue, paid monthly</p>
              <Link to="/auth?mode=signup" className="mt-6 inline-block rounded-lg bg-white px-5 py-3 font-semibold text-slate-900 hover:bg-slate-100">
                Create your account
              </Link>
            </div>
          </div>
        </section>
      </main>
    </PublicLayout>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
