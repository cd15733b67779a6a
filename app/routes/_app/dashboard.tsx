import { BarChart3, Heart, Link2, Music, Share2, Sparkles, MonitorPlay } from "~/ui/icons";
import { Section } from "~/ui/section";
import { useEffect, useState } from "react";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { readFavoritesCount, subscribeFavorites } from "~/lib/favorites";
import { dashboardCounts } from "~/modules/dashboard/dashboard.server";
import { greetingName, requireApprovedUser } from "~/modules/accounts/guards.server";
import { actorOf } from "~/modules/accounts/accounts.server";
import { startMoneyAtAGlance } from "~/modules/payments/payments.server";
import { MoneyCard } from "~/modules/dashboard/components/money-card";
import type { Route } from "./+types/dashboard";

export const meta = () => [{ title: "Dashboard | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  // Both join the session lookup's batch: one D1 round trip (the money card's statement reads nothing for anyone but an approved creator).
  const counts = dashboardCounts(args);
  const money = startMoneyAtAGlance(args);
  const user = await requireApprovedUser(args);
  return { userId: user.id, name: greetingName(user), ...(await counts), money: await money(actorOf(user)) };
}

function useFavoritesCount(userId: string) {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const refresh = () => setCount(readFavoritesCount(userId));
    refresh();
    return subscribeFavorites(userId, refresh);
  }, [userId]);
  return count;
}

function StatCard({ title, value, text, icon: Icon }: { title: string; value: string | number; text: string; icon: typeof Music }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-label={title}>
      <div className="flex items-center justify-between">
        <h2 className="text-sm font-medium text-slate-600">{title}</h2>
        <Icon className="h-5 w-5 text-slate-400" aria-hidden="true" />
      </div>
      <p className="mt-2 text-3xl font-bold text-slate-900">{value}</p>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
    </section>
  );
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { name, trackCount, connectedChannels, userId, money } = loaderData;
  const favorites = useFavoritesCount(userId);
  // The page's links (cards, steps, the money card's) are plain anchors (a <Link to>'s markup), followed
  // client-side by the shell's one listener (app/ui/in-app-links.ts, 0346).
  return (
    <div className="space-y-8" data-in-app-links="">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Welcome back, {name}!</h1>
        <p className="mt-1 text-slate-600">Here is what is happening with your music and channels.</p>
      </div>

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard title="Music Library" value={trackCount} text={`${trackCount} royalty-free tracks available`} icon={Music} />
        <StatCard
          title="Connected Channels"
          value={connectedChannels}
          text={connectedChannels > 0 ? `${connectedChannels} channel(s) connected` : "Connect your first channel"}
          icon={MonitorPlay}
        />
        <StatCard title="Favorite Tracks" value={favorites} text={favorites > 0 ? `${favorites} tracks saved` : "Start building your library"} icon={Heart} />
        <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-label="Recent Activity">
          <div className="flex items-center justify-between">
            <h2 className="text-sm font-medium text-slate-600">Recent Activity</h2>
            <Sparkles className="h-5 w-5 text-slate-400" aria-hidden="true" />
          </div>
          <p className="mt-2 text-lg font-semibold text-slate-900">Welcome!</p>
          <p className="mt-1 text-sm text-slate-600">Your creator journey starts here.</p>
        </section>
      </div>

      {money ? <MoneyCard money={money} /> : null}

      <Section id="quick-actions" title="Quick actions">
        <div className="mt-3 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <ActionCard to="/music" icon={Music} title="Explore Library" text="Find the right track for your next Short." />
          <ActionCard to="/referrals" icon={Share2} title="Share Your Link" text="Invite creators and grow together." />
          <div aria-disabled="true" className="flex flex-col rounded-xl border border-dashed border-slate-300 bg-slate-50 p-5 text-slate-500">
            <Link2 className="h-6 w-6" aria-hidden="true" />
            <p className="mt-3 font-semibold">Link Channel</p>
            <p className="mt-1 text-sm">Coming Soon</p>
          </div>
          <ActionCard to="/analytics" icon={BarChart3} title="See Analytics" text="Follow your subscribers and views." />
        </div>
      </Section>

      <Section
        id="welcome-hub"
        title="Get started in three steps"
        className="rounded-2xl bg-slate-900 p-6 text-white sm:p-8"
        headingClassName="text-xl font-bold"
      >
        <ol className="mt-5 grid gap-4 md:grid-cols-3">
          {[
            { n: 1, title: "Browse music", text: "Pick licensed tracks from the library.", to: "/music" },
            { n: 2, title: "Connect channel", text: "Link your YouTube channel to track revenue.", to: "/channels" },
            { n: 3, title: "Create content", text: "Publish monetized Shorts with our music.", to: "/analytics" },
          ].map((s) => (
            <li key={s.n} className="rounded-xl bg-white/5 p-4 ring-1 ring-white/10">
              <p className="text-sm font-semibold text-slate-300">Step {s.n}</p>
              <p className="mt-1 text-lg font-semibold">{s.title}</p>
              <p className="mt-1 text-sm text-slate-300">{s.text}</p>
              <a className="mt-3 inline-block text-sm font-semibold text-white underline underline-offset-2" href={s.to} data-discover="true">
                {s.title}
              </a>
            </li>
          ))}
        </ol>
      </Section>
    </div>
  );
}

function ActionCard({ to, icon: Icon, title, text }: { to: string; icon: typeof Music; title: string; text: string }) {
  return (
    <a className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-slate-300 hover:shadow" href={to} data-discover="true">
      <Icon className="h-6 w-6 text-brand-600" aria-hidden="true" />
      <p className="mt-3 font-semibold text-slate-900">{title}</p>
      <p className="mt-1 text-sm text-slate-600">{text}</p>
    </a>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
