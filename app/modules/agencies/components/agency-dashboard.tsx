import type { InputHTMLAttributes } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import type { ActionFailure } from "~/lib/errors";
import { formatDate } from "~/lib/dates";
import { formatCount } from "~/lib/format";
import { hrefWith } from "~/lib/href";
import { ConfirmActions, PersonCell, StandingCell } from "~/modules/admin/components/console";
import { formatCents } from "~/modules/payments/money";
import { Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { Card } from "~/ui/card";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { CopyField } from "~/ui/copy-field";
import { inputClass } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import { Pagination } from "~/ui/pagination";
import { Section } from "~/ui/section";
import { TableHead, TableRegion } from "~/ui/table";
import type { agencyDashboard } from "../agencies.server";
import { DESCRIPTION_MAX } from "../messages";

// /agency-dashboard's screen: the agency switcher, signup links and tokens, the agency's profile,
// its managers and invitations, the roster, and the two confirmations (revoke a token, remove a
// manager). The route (app/routes/agency/agency-dashboard.tsx) loads and acts.

/** What the route's loader answers for one agency: the module's dashboard and who is looking. */
export type AgencyDashboardData = Extract<Awaited<ReturnType<typeof agencyDashboard>>, { kind: "dashboard" }> & {
  isAdmin: boolean;
  userId: string;
  origin: string;
  confirm: string | null;
  confirmId: string | null;
};

export function AgencyDashboard({ data: d, failure }: { data: AgencyDashboardData; failure: ActionFailure | undefined }) {
  const { agency, choices, origin, isAdmin } = d;
  const { pathname, search } = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = failure?.errors ?? {};
  const creatorLink = `${origin}/${agency.slug}/signup`;
  const musicLink = `${origin}/${agency.slug}/music-signup`;
  const confirmToken = d.confirm === "revoke_token" ? d.tokens.find((t) => t.id === d.confirmId) : undefined;
  const confirmManager = d.confirm === "remove_manager" ? d.managers.find((m) => m.userId === d.confirmId) : undefined;
  const cancelTo = hrefWith(pathname, search, { confirm: null, id: null });
  const linksWork = agency.isActive;

  return (
    <>
      <PageHeader
        title={agency.name}
        description={<span className="font-mono text-sm">/{agency.slug}</span>}
        actions={
          isAdmin || choices.length > 1 ? (
            <Form method="get" className="flex items-end gap-2">
              <div>
                <label htmlFor="agency-switcher" className="block text-xs font-medium text-slate-700">
                  {isAdmin ? "Agency (all agencies)" : "Agency"}
                </label>
                <select id="agency-switcher" name="agency" defaultValue={agency.id} className={`${inputClass} mt-0.5 max-w-[14rem]`}>
                  {choices.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                      {c.approvalStatus !== "approved" ? ` (${c.approvalStatus})` : c.status !== "active" ? " (inactive)" : ""}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className={buttonClass.secondary}>
                Switch
              </button>
            </Form>
          ) : null
        }
      />
      {!linksWork ? (
        <p role="note" className="mb-5 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This agency is {agency.approvalStatus !== "approved" ? agency.approvalStatus : "inactive"}: its signup links do not work until it is approved and
          active.
        </p>
      ) : null}

      <div className="grid gap-6 xl:grid-cols-2">
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Signup links</h2>
          <p className="mt-1 text-sm text-slate-600">Creators and music partners who sign up through these links join {agency.name}.</p>
          <div className="mt-4 space-y-4">
            <CopyField label="Creator signup link" value={creatorLink} />
            <CopyField label="Music partner signup link" value={musicLink} />
          </div>
        </Card>

        <Card>
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div>
              <h2 className="text-lg font-semibold text-slate-900">Signup tokens</h2>
              <p className="mt-1 text-sm text-slate-600">A token link attributes each sign-up to it. Revoke one to stop that.</p>
            </div>
            <Form method="post" preventScrollReset>
              <input type="hidden" name="agencyId" value={agency.id} />
              <input type="hidden" name="intent" value="create_token" />
              <button type="submit" className={buttonClass.primary} disabled={busy}>
                Generate token
              </button>
            </Form>
          </div>
          {d.tokens.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600">No tokens yet.</p>
          ) : (
            <ul className="mt-4 space-y-3">
              {d.tokens.map((t) => (
                <li key={t.id} className="rounded-lg border border-slate-200 p-3">
                  {t.revokedAt ? (
                    <p className="font-mono text-xs break-all text-slate-500 line-through">{`${creatorLink}?token=${t.token}`}</p>
                  ) : (
                    <CopyField label={`Token link created ${formatDate(t.createdAt)}`} value={`${creatorLink}?token=${t.token}`} />
                  )}
                  <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                    {t.revokedAt ? <Badge tone="red">Revoked {formatDate(t.revokedAt)}</Badge> : <Badge tone="green">Active</Badge>}
                    <span>
                      {t.uses} sign-up{t.uses === 1 ? "" : "s"}
                    </span>
                    {t.createdByEmail ? <span className="break-all">by {t.createdByEmail}</span> : null}
                    {!t.revokedAt ? (
                      <Link
                        to={hrefWith(pathname, search, { agency: agency.id, confirm: "revoke_token", id: t.id })}
                        preventScrollReset
                        className="ml-auto font-semibold text-red-800 underline"
                      >
                        Revoke<span className="sr-only"> token created {formatDate(t.createdAt)}</span>
                      </Link>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Agency profile</h2>
          <div className="mt-3 flex items-center gap-4">
            {agency.logoUrl ? (
              <img src={agency.logoUrl} alt={`${agency.name} logo`} className="h-16 w-16 rounded-lg border border-slate-200 object-cover" />
            ) : (
              <span aria-hidden="true" className="inline-flex h-16 w-16 items-center justify-center rounded-lg bg-slate-800 text-xl font-bold text-white">
                {agency.name.slice(0, 1).toUpperCase()}
              </span>
            )}
            <Form method="post" encType="multipart/form-data" preventScrollReset className="flex min-w-0 flex-1 flex-wrap items-end gap-2">
              <input type="hidden" name="agencyId" value={agency.id} />
              <input type="hidden" name="intent" value="upload_logo" />
              <div className="min-w-0 flex-1">
                <label htmlFor="agency-logo" className="block text-sm font-medium text-slate-800">
                  Logo (PNG, JPG or WEBP, up to 2 MB)
                </label>
                <input
                  id="agency-logo"
                  name="logo"
                  type="file"
                  accept="image/png,image/jpeg,image/webp"
                  required
                  className="mt-1 block w-full text-sm text-slate-700"
                />
              </div>
              <button type="submit" className={buttonClass.secondary} disabled={busy}>
                Upload
              </button>
            </Form>
          </div>
          <Form method="post" preventScrollReset className="mt-5 space-y-4" key={agency.updatedAt}>
            <input type="hidden" name="agencyId" value={agency.id} />
            <input type="hidden" name="intent" value="update_profile" />
            <CompactField id="agency-name" label="Agency name" error={errors.name} name="name" required maxLength={100} defaultValue={agency.name} />
            <CompactField
              id="agency-contact"
              label="Contact e-mail"
              error={errors.contactEmail}
              name="contactEmail"
              type="email"
              required
              maxLength={254}
              defaultValue={agency.contactEmail}
            />
            <div>
              <label htmlFor="agency-description" className="block text-sm font-medium text-slate-800">
                Description
              </label>
              <textarea
                id="agency-description"
                name="description"
                rows={3}
                maxLength={DESCRIPTION_MAX}
                defaultValue={agency.description ?? ""}
                className={inputClass}
              />
              {errors.description ? <p className="mt-1 text-sm text-red-700">{errors.description}</p> : null}
            </div>
            <p className="text-xs text-slate-600">The slug (/{agency.slug}) cannot change: links already shared would break.</p>
            <button type="submit" className={buttonClass.primary} disabled={busy}>
              Save profile
            </button>
          </Form>
        </Card>

        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Managers</h2>
          <ul className="mt-3 divide-y divide-slate-100">
            {d.managers.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center gap-2 py-2">
                <div className="min-w-0 flex-1">
                  <p className="font-medium text-slate-900">
                    {m.fullName || m.email}
                    {m.userId === d.userId ? <span className="ml-1 text-sm font-normal text-slate-500">(you)</span> : null}
                  </p>
                  <p className="text-sm break-all text-slate-600">{m.email}</p>
                </div>
                {m.isOwner ? <Badge tone="violet">Applicant</Badge> : null}
                {d.managers.length > 1 ? (
                  <Link
                    to={hrefWith(pathname, search, { agency: agency.id, confirm: "remove_manager", id: m.userId })}
                    preventScrollReset
                    className="text-sm font-semibold text-red-800 underline"
                  >
                    Remove<span className="sr-only"> {m.email}</span>
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
          {d.invitations.length > 0 ? (
            <div className="mt-3">
              <h3 className="text-sm font-semibold text-slate-800">Invited</h3>
              <ul className="mt-1 space-y-1 text-sm text-slate-600">
                {d.invitations.map((i) => (
                  <li key={i.id} className="break-all">
                    {i.email} <span className="text-slate-500">· link expires {formatDate(i.expiresAt)}</span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <Form method="post" preventScrollReset className="mt-4 flex flex-wrap items-end gap-2" key={`add-${d.managers.length}-${d.invitations.length}`}>
            <input type="hidden" name="agencyId" value={agency.id} />
            <input type="hidden" name="intent" value="add_manager" />
            <div className="min-w-0 flex-1">
              <label htmlFor="manager-email" className="block text-sm font-medium text-slate-800">
                Add a manager by e-mail
              </label>
              <input
                id="manager-email"
                name="email"
                type="email"
                required
                maxLength={254}
                className={inputClass}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={errors.email ? "manager-email-error manager-email-help" : "manager-email-help"}
              />
              {errors.email ? (
                <p id="manager-email-error" className="mt-1 text-sm text-red-700">
                  {errors.email}
                </p>
              ) : null}
            </div>
            <button type="submit" className={buttonClass.secondary} disabled={busy}>
              Add manager
            </button>
            <p id="manager-email-help" className="w-full text-xs text-slate-600">
              We e-mail them an invitation. They become a manager when they accept it, signed in to an approved account with that address.
            </p>
          </Form>
        </Card>
      </div>

      <Section id="roster-heading" title="Roster" className="mt-6" headingClassName="mb-3 text-lg font-semibold text-slate-900">
        {d.roster.length === 0 ? (
          <Card>
            <p className="text-slate-700">No one has joined through {agency.name} yet. Share your creator signup link to start.</p>
          </Card>
        ) : (
          <TableRegion labelledBy="roster-heading">
            <table className="w-full min-w-[52rem] text-left text-sm">
              <caption className="sr-only">Creators who joined through {agency.name}</caption>
              <TableHead
                columns={[
                  "Creator",
                  "Status",
                  { label: "Channels", className: "text-right" },
                  { label: "Views", className: "text-right" },
                  { label: "Earned this month", className: "text-right" },
                  { label: "Earned in total", className: "text-right" },
                  "Joined",
                ]}
              />
              <tbody className="divide-y divide-slate-100">
                {d.roster.map((r) => (
                  <tr key={r.userId}>
                    <PersonCell name={r.fullName} email={r.email} />
                    <StandingCell person={r}>{r.viaToken ? <Badge>Token</Badge> : null}</StandingCell>
                    <td className="px-4 py-3 text-right tabular-nums">{r.channels}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatCount(Number(r.views))}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatCents(r.earnedThisMonthCents)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatCents(r.earnedTotalCents)}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDate(r.joinedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
        <Pagination
          page={d.rosterPage}
          pageCount={d.rosterPageCount}
          total={d.rosterTotal}
          label="creators"
          hrefFor={(p) => hrefWith(pathname, search, { agency: agency.id, roster: p })}
        />
      </Section>

      {confirmToken ? (
        <DashboardConfirm
          title="Revoke this token?"
          cancelTo={cancelTo}
          fields={{ agencyId: agency.id, intent: "revoke_token", id: confirmToken.id }}
          busy={busy}
          confirm="Confirm revoke"
        >
          Sign-ups that use this token's link will no longer be attributed to the token. People who already joined stay in your roster.
        </DashboardConfirm>
      ) : null}
      {confirmManager ? (
        <DashboardConfirm
          title={`Remove ${confirmManager.fullName || confirmManager.email}?`}
          cancelTo={cancelTo}
          fields={{ agencyId: agency.id, intent: "remove_manager", id: confirmManager.userId }}
          busy={busy}
          confirm="Confirm remove"
        >
          {confirmManager.userId === d.userId
            ? "You will lose access to this agency's dashboard."
            : `${confirmManager.email} will lose access to this agency's dashboard.`}
        </DashboardConfirm>
      ) : null}
    </>
  );
}

/** A destructive dashboard action, confirmed in a dialog: its question, what it does, the form's fields. */
function DashboardConfirm({
  title,
  cancelTo,
  fields,
  busy,
  confirm,
  children,
}: {
  title: string;
  cancelTo: string;
  fields: { agencyId: string; intent: string; id: string };
  busy: boolean;
  confirm: string;
  children: React.ReactNode;
}) {
  return (
    <ConfirmDialog title={title} cancelTo={cancelTo}>
      <Form method="post" preventScrollReset>
        <p className="text-sm text-slate-700">{children}</p>
        <input type="hidden" name="agencyId" value={fields.agencyId} />
        <input type="hidden" name="intent" value={fields.intent} />
        <input type="hidden" name="id" value={fields.id} />
        <ConfirmActions cancelTo={cancelTo} danger disabled={busy}>
          {confirm}
        </ConfirmActions>
      </Form>
    </ConfirmDialog>
  );
}

/** A labelled compact input with its error below (the profile form's fields). */
function CompactField({ id, label, error, ...input }: { id: string; label: string; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} className={inputClass} aria-invalid={error ? true : undefined} {...input} />
      {error ? <p className="mt-1 text-sm text-red-700">{error}</p> : null}
    </div>
  );
}
