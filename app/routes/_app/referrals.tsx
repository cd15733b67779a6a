import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { referralsPage } from "~/modules/growth/growth.server";
import { GROWTH_MESSAGES as M, STAGE_LABELS } from "~/modules/growth/messages";
import type { ReferralStage } from "~/modules/growth/types";
import { NOTIFICATION_PUSHED_EVENT, type NotificationItem } from "~/modules/notifications/protocol";
import { formatCents } from "~/modules/payments/money";
import { formatBp } from "~/lib/split";
import { domainLoader } from "~/platform/http.server";
import { Badge, type Tone } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { CopyField } from "~/ui/copy-field";
import { EmptyState } from "~/ui/empty-state";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import { DataTable, Td } from "~/ui/table";
import type { Route } from "./+types/referrals";
import { formatCount } from "~/lib/format";

// /referrals (issue 18): the approved user's referral link and QR code, who joined through it and
// how far they got (never their e-mail or earnings), and the referral bonus in total.

export const meta = () => [{ title: "Referrals | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  return referralsPage(actorOf(user), user.creatorId);
});

const STAGE_TONE: Record<ReferralStage, Tone> = {
  pending: "amber",
  approved: "blue",
  rejected: "red",
  inactive: "slate",
  channel_linked: "violet",
  earning: "green",
};

export default function Referrals({ loaderData }: Route.ComponentProps) {
  const { code, link, counts, people, more, bonus } = loaderData;
  // A referral notification pushed live (someone signed up with the link or was approved): the counts and list follow, no reload.
  const revalidator = useRevalidator();
  useEffect(() => {
    const onPushed = (e: Event) => {
      if ((e as CustomEvent<NotificationItem>).detail?.kind === "referral") void revalidator.revalidate();
    };
    window.addEventListener(NOTIFICATION_PUSHED_EVENT, onPushed);
    return () => window.removeEventListener(NOTIFICATION_PUSHED_EVENT, onPushed);
  }, [revalidator]);
  const cards: [string, number][] = [
    ["Signed up", counts.signedUp],
    ["Approved", counts.approved],
    ["Channel linked", counts.channelLinked],
    ["Earning", counts.earning],
  ];
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Referrals" description="Invite creators with your link. Your code is fixed and never changes." />

      <Section id="share-heading" title="Share your link">
        <div className="mt-3 grid gap-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5 md:grid-cols-[1fr_auto]">
          <div className="min-w-0 space-y-4">
            <p className="text-sm text-slate-700">
              Your referral code: <span className="font-mono font-semibold text-slate-900">{code}</span>
            </p>
            <CopyField label="Referral link" id="referral-link" value={link} primary copied={{ title: M.copied, description: M.copiedText }} />
            <p className="text-sm text-slate-600">
              People who sign up with this link count as your referrals. Clipper invites are not referrals, and your own accounts never count.
            </p>
          </div>
          <div className="flex flex-col items-center gap-2">
            <img
              src="/referrals/qr.svg"
              alt={`QR code of your referral link ${link}`}
              width={176}
              height={176}
              className="h-44 w-44 rounded-md border border-slate-200 bg-white"
            />
            <div className="flex flex-wrap justify-center gap-2">
              <a href="/referrals/qr.png" download={`shortbeat-referral-${code}.png`} className={buttonClass.secondary}>
                Download QR code (PNG)
              </a>
              <a href="/referrals/qr.svg?download=1" download={`shortbeat-referral-${code}.svg`} className={buttonClass.secondary}>
                Download QR code (SVG)
              </a>
            </div>
          </div>
        </div>
      </Section>

      <Section id="counts-heading" title="Your referrals" className="mt-8">
        <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
          {cards.map(([label, value]) => (
            <div key={label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <dt className="text-sm text-slate-600">{label}</dt>
              <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums" data-testid={`count-${label.toLowerCase().replace(/ /g, "-")}`}>
                {formatCount(value)}
              </dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section id="bonus-heading" title="Referral bonus" className="mt-8">
        {bonus.bp > 0 ? (
          <p className="mt-2 text-sm text-slate-700">
            You earn {formatBp(bonus.bp)} of what each creator you referred earns from music in the first 12 months after they link their first channel. It is
            paid by Shortbeat, never from their share.
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-700">No referral bonus is offered at the moment.</p>
        )}
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:max-w-md">
          <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">Earned</dt>
            <dd className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{formatCents(bonus.earnedCents)}</dd>
          </div>
          <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">Upcoming</dt>
            <dd className="mt-1 text-xl font-semibold text-slate-900 tabular-nums">{formatCents(bonus.upcomingCents)}</dd>
          </div>
        </dl>
        <p className="mt-2 text-xs text-slate-600">Totals only: what one person earned is theirs to know.</p>
      </Section>

      <Section id="people-heading" title="People you referred" className="mt-8">
        {people.length === 0 ? (
          <EmptyState title="No referrals yet">Share your link: the people who sign up with it appear here.</EmptyState>
        ) : (
          <>
            {/* Narrow screens: one card per person with its labels (the table would scroll sideways). */}
            <ul
              className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white sm:hidden"
              aria-labelledby="people-heading"
              data-testid="referred-list"
            >
              {people.map((p) => (
                <li key={p.id} className="px-4 py-3">
                  <p className="font-medium break-words text-slate-900">{p.name}</p>
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                    <dt className="text-slate-600">Status</dt>
                    <dd>
                      <Badge tone={STAGE_TONE[p.stage]}>{STAGE_LABELS[p.stage]}</Badge>
                    </dd>
                    <dt className="text-slate-600">Joined</dt>
                    <dd className="text-slate-900">
                      <LocalTime iso={p.joinedAt} />
                    </dd>
                  </dl>
                </li>
              ))}
            </ul>
            <DataTable labelledBy="people-heading" className="mt-3 hidden sm:block" columns={["Name", "Status", "Joined"]} rows={people} rowKey={(p) => p.id}>
              {(p) => (
                <>
                  <Td className="font-medium text-slate-900">{p.name}</Td>
                  <Td>
                    <Badge tone={STAGE_TONE[p.stage]}>{STAGE_LABELS[p.stage]}</Badge>
                  </Td>
                  <Td className="whitespace-nowrap">
                    <LocalTime iso={p.joinedAt} />
                  </Td>
                </>
              )}
            </DataTable>
          </>
        )}
        {more > 0 ? <p className="mt-2 text-sm text-slate-600">{`and ${more} more (the newest are listed).`}</p> : null}
      </Section>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
