import { useEffect, useState } from "react";
import { Form, Link, data, useLocation, useNavigation } from "react-router";
import { toast } from "sonner";
import { z } from "zod";
import { uuidSchema } from "~/modules/admin/schema";
import { AGENCY_MESSAGES, DESCRIPTION_MAX, addManagerSchema, agencyProfileSchema } from "~/modules/agencies/schema";
import { fieldErrors } from "~/modules/accounts/schema";
import { ApprovalBadge, Badge, ConfirmDialog, Pagination, buttonClass, formatDate, hrefWith, inputClass } from "~/components/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Card, EmptyState, PageHeader } from "~/components/page";
import { audit } from "~/platform/audit.server";
import { pageUrl, type ActionResult } from "~/modules/admin/admin.server";
import {
  LOGO_MAX_BYTES,
  addManager,
  agencyDashboard,
  canManageAgency,
  createSignupToken,
  manageableAgencies,
  removeManager,
  revokeSignupToken,
  updateAgencyProfile,
  uploadAgencyLogo,
} from "~/modules/agencies/agencies.server";
import { requireAgencyAccess } from "~/modules/accounts/guards.server";
import { redirectWithToast } from "~/platform/toast.server";
import type { Route } from "./+types/agency-dashboard";

// /agency-dashboard: managers of an approved, active agency (and admins, who see every agency
// with a switcher). Every action names its agency by id and is checked against the user's own
// agencies first; another agency's id answers 403 and is audit-logged.

export const meta = () => [{ title: "Agency | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  const user = await requireAgencyAccess(args);
  const url = new URL(args.request.url);
  const origin = url.origin;
  let choices: Awaited<ReturnType<typeof manageableAgencies>>;
  try {
    choices = await manageableAgencies(user);
  } catch (error) {
    console.error("listing agencies failed", error);
    return { kind: "failed" as const, isAdmin: user.isAdmin };
  }
  const requested = url.searchParams.get("agency");
  if (requested && !choices.some((c) => c.id === requested)) {
    // Not one of theirs (or no such agency): the same answer either way.
    throw data("Not Found", { status: 404 });
  }
  const agencyId = requested ?? choices[0]?.id;
  if (!agencyId) return { kind: "empty" as const, isAdmin: user.isAdmin };
  const rosterPage = Math.max(1, Number.parseInt(url.searchParams.get("roster") ?? "1", 10) || 1);
  const dashboard = await agencyDashboard(agencyId, rosterPage);
  if (!dashboard) throw data("Not Found", { status: 404 });
  const confirm = url.searchParams.get("confirm");
  return {
    kind: "dashboard" as const,
    isAdmin: user.isAdmin,
    userId: user.id,
    origin,
    choices,
    ...dashboard,
    confirm: confirm === "revoke_token" || confirm === "remove_manager" ? confirm : null,
    confirmId: url.searchParams.get("id"),
  };
}

type ActionData = { ok: false; errors: Record<string, string>; toast: { title: string; description: string } };

const fail = (status: number, title: string, description: string, errors: Record<string, string> = {}) =>
  data<ActionData>({ ok: false, errors, toast: { title, description } }, { status });

const idOnly = z.object({ id: uuidSchema });

export async function action(args: Route.ActionArgs) {
  const user = await requireAgencyAccess(args);
  const { request } = args;
  const length = Number(request.headers.get("Content-Length") ?? "0");
  if (length > LOGO_MAX_BYTES + 64 * 1024) return fail(413, AGENCY_MESSAGES.update, "The logo must be 2 MB or smaller.");
  const form = await request.formData();
  const agencyId = String(form.get("agencyId") ?? "");
  if (!(await canManageAgency(user, agencyId))) {
    await audit({
      eventType: "agency_access_denied",
      severity: "high",
      userId: user.id,
      request,
      details: { agency_id: agencyId.slice(0, 64), intent: String(form.get("intent") ?? "").slice(0, 32) },
    });
    return fail(403, "Access Denied", "You can only manage your own agency.");
  }
  const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>;
  const intent = fields.intent;
  let result: ActionResult;
  let title: string = AGENCY_MESSAGES.update;
  switch (intent) {
    case "update_profile": {
      const parsed = agencyProfileSchema.safeParse(fields);
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error);
        return fail(400, AGENCY_MESSAGES.update, Object.values(errors)[0], errors);
      }
      result = await updateAgencyProfile(user, agencyId, parsed.data, request);
      break;
    }
    case "upload_logo": {
      const file = form.get("logo");
      result = await uploadAgencyLogo(user, agencyId, file instanceof File ? file : null, request);
      break;
    }
    case "create_token":
      title = AGENCY_MESSAGES.token;
      result = await createSignupToken(user, agencyId, request);
      break;
    case "revoke_token": {
      const parsed = idOnly.safeParse(fields);
      if (!parsed.success) return fail(400, AGENCY_MESSAGES.update, "Unknown token.");
      result = await revokeSignupToken(user, agencyId, parsed.data.id, request);
      break;
    }
    case "add_manager": {
      title = AGENCY_MESSAGES.addUser;
      const parsed = addManagerSchema.safeParse(fields);
      if (!parsed.success) {
        const errors = fieldErrors(parsed.error);
        return fail(400, AGENCY_MESSAGES.addUser, Object.values(errors)[0], errors);
      }
      result = await addManager(user, agencyId, parsed.data.email, request);
      break;
    }
    case "remove_manager": {
      const parsed = idOnly.safeParse(fields);
      if (!parsed.success) return fail(400, AGENCY_MESSAGES.update, "Unknown manager.");
      result = await removeManager(user, agencyId, parsed.data.id, request);
      break;
    }
    default:
      return fail(400, AGENCY_MESSAGES.update, "Unknown action.");
  }
  if (!result.ok) return fail(result.status, title, result.message);
  // Removing oneself may end access: then the guard sends them on from the dashboard.
  return redirectWithToast(request, pageUrl(request, { agency: agencyId, confirm: null, id: null }), {
    type: "success",
    title: result.message,
  });
}

export default function AgencyDashboardPage({ loaderData, actionData }: Route.ComponentProps) {
  useEffect(() => {
    if (loaderData.kind === "failed") toast.error(AGENCY_MESSAGES.fetch);
  }, [loaderData.kind]);
  useEffect(() => {
    if (actionData && !actionData.ok) toast.error(actionData.toast.title, { description: actionData.toast.description });
  }, [actionData]);

  if (loaderData.kind === "failed") {
    return (
      <>
        <PageHeader title="Agency" />
        <Card>
          <p role="alert" className="text-red-800">
            {AGENCY_MESSAGES.fetch}
          </p>
        </Card>
      </>
    );
  }
  if (loaderData.kind === "empty") {
    return (
      <>
        <PageHeader title="Agency" />
        <EmptyState title="No agencies yet" action={loaderData.isAdmin ? { to: "/admin/agencies", label: "Review applications" } : undefined}>
          <p>Agencies appear here once they apply.</p>
        </EmptyState>
      </>
    );
  }
  return <Dashboard data={loaderData} actionData={actionData} />;
}

type DashboardData = Extract<Route.ComponentProps["loaderData"], { kind: "dashboard" }>;

function Dashboard({ data: d, actionData }: { data: DashboardData; actionData: ActionData | undefined }) {
  const { agency, choices, origin, isAdmin } = d;
  const { pathname, search } = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors = actionData && !actionData.ok ? actionData.errors : {};
  const creatorLink = `${origin}/${agency.slug}/signup`;
  const musicLink = `${origin}/${agency.slug}/music-signup`;
  const confirmToken = d.confirm === "revoke_token" ? d.tokens.find((t) => t.id === d.confirmId) : undefined;
  const confirmManager = d.confirm === "remove_manager" ? d.managers.find((m) => m.user_id === d.confirmId) : undefined;
  const cancelTo = hrefWith(pathname, search, { confirm: null, id: null });
  const linksWork = agency.approval_status === "approved" && agency.status === "active";

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
                      {c.approval_status !== "approved" ? ` (${c.approval_status})` : c.status !== "active" ? " (inactive)" : ""}
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
          This agency is {agency.approval_status !== "approved" ? agency.approval_status : "inactive"}: its signup links do not work until it is
          approved and active.
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
                  {t.revoked_at ? (
                    <p className="font-mono text-xs break-all text-slate-500 line-through">{`${creatorLink}?token=${t.token}`}</p>
                  ) : (
                    <CopyField label={`Token link created ${formatDate(t.created_at)}`} value={`${creatorLink}?token=${t.token}`} />
                  )}
                  <div className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                    {t.revoked_at ? <Badge tone="red">Revoked {formatDate(t.revoked_at)}</Badge> : <Badge tone="green">Active</Badge>}
                    <span>
                      {t.uses} sign-up{t.uses === 1 ? "" : "s"}
                    </span>
                    {t.created_by_email ? <span className="break-all">by {t.created_by_email}</span> : null}
                    {!t.revoked_at ? (
                      <Link
                        to={hrefWith(pathname, search, { agency: agency.id, confirm: "revoke_token", id: t.id })}
                        preventScrollReset
                        className="ml-auto font-semibold text-red-800 underline"
                      >
                        Revoke<span className="sr-only"> token created {formatDate(t.created_at)}</span>
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
            {agency.logo_url ? (
              <img src={agency.logo_url} alt={`${agency.name} logo`} className="h-16 w-16 rounded-lg border border-slate-200 object-cover" />
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
                <input id="agency-logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" required className="mt-1 block w-full text-sm text-slate-700" />
              </div>
              <button type="submit" className={buttonClass.secondary} disabled={busy}>
                Upload
              </button>
            </Form>
          </div>
          <Form method="post" preventScrollReset className="mt-5 space-y-4" key={agency.updated_at}>
            <input type="hidden" name="agencyId" value={agency.id} />
            <input type="hidden" name="intent" value="update_profile" />
            <div>
              <label htmlFor="agency-name" className="block text-sm font-medium text-slate-800">
                Agency name
              </label>
              <input id="agency-name" name="name" required maxLength={100} defaultValue={agency.name} className={inputClass} aria-invalid={errors.name ? true : undefined} />
              {errors.name ? <p className="mt-1 text-sm text-red-700">{errors.name}</p> : null}
            </div>
            <div>
              <label htmlFor="agency-contact" className="block text-sm font-medium text-slate-800">
                Contact e-mail
              </label>
              <input
                id="agency-contact"
                name="contactEmail"
                type="email"
                required
                maxLength={254}
                defaultValue={agency.contact_email}
                className={inputClass}
                aria-invalid={errors.contactEmail ? true : undefined}
              />
              {errors.contactEmail ? <p className="mt-1 text-sm text-red-700">{errors.contactEmail}</p> : null}
            </div>
            <div>
              <label htmlFor="agency-description" className="block text-sm font-medium text-slate-800">
                Description
              </label>
              <textarea id="agency-description" name="description" rows={3} maxLength={DESCRIPTION_MAX} defaultValue={agency.description ?? ""} className={inputClass} />
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
                    {m.full_name || m.email}
                    {m.user_id === d.userId ? <span className="ml-1 text-sm font-normal text-slate-500">(you)</span> : null}
                  </p>
                  <p className="text-sm break-all text-slate-600">{m.email}</p>
                </div>
                {m.is_owner ? <Badge tone="violet">Applicant</Badge> : null}
                {d.managers.length > 1 ? (
                  <Link
                    to={hrefWith(pathname, search, { agency: agency.id, confirm: "remove_manager", id: m.user_id })}
                    preventScrollReset
                    className="text-sm font-semibold text-red-800 underline"
                  >
                    Remove<span className="sr-only"> {m.email}</span>
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
          <Form method="post" preventScrollReset className="mt-4 flex flex-wrap items-end gap-2" key={`add-${d.managers.length}`}>
            <input type="hidden" name="agencyId" value={agency.id} />
            <input type="hidden" name="intent" value="add_manager" />
            <div className="min-w-0 flex-1">
              <label htmlFor="manager-email" className="block text-sm font-medium text-slate-800">
                Add a manager (existing account e-mail)
              </label>
              <input id="manager-email" name="email" type="email" required maxLength={254} className={inputClass} aria-invalid={errors.email ? true : undefined} />
              {errors.email ? <p className="mt-1 text-sm text-red-700">{errors.email}</p> : null}
            </div>
            <button type="submit" className={buttonClass.secondary} disabled={busy}>
              Add manager
            </button>
          </Form>
        </Card>
      </div>

      <section aria-labelledby="roster-heading" className="mt-6">
        <h2 id="roster-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Roster
        </h2>
        {d.roster.length === 0 ? (
          <Card>
            <p className="text-slate-700">No one has joined through {agency.name} yet. Share your creator signup link to start.</p>
          </Card>
        ) : (
          <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Creators who joined through {agency.name}</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3">Creator</th>
                  <th scope="col" className="px-4 py-3">Status</th>
                  <th scope="col" className="px-4 py-3 text-right">Channels</th>
                  <th scope="col" className="px-4 py-3 text-right">Views</th>
                  <th scope="col" className="px-4 py-3">Joined</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {d.roster.map((r) => (
                  <tr key={r.user_id}>
                    <td className="px-4 py-3">
                      <p className="font-medium text-slate-900">{r.full_name || "—"}</p>
                      <p className="break-all text-slate-600">{r.email}</p>
                    </td>
                    <td className="px-4 py-3">
                      <div className="flex flex-wrap gap-1">
                        <ApprovalBadge status={r.approval_status} />
                        {r.is_banned ? <Badge tone="red">Banned</Badge> : null}
                        {r.is_music_partner ? <Badge tone="blue">Music partner</Badge> : null}
                        {r.via_token ? <Badge>Token</Badge> : null}
                      </div>
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{r.channels}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{Number(r.views).toLocaleString("en-US")}</td>
                    <td className="px-4 py-3 whitespace-nowrap">{formatDate(r.joined_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={d.rosterPage}
          pageCount={d.rosterPageCount}
          total={d.rosterTotal}
          label="creators"
          hrefFor={(p) => hrefWith(pathname, search, { agency: agency.id, roster: p })}
        />
      </section>

      {confirmToken ? (
        <ConfirmDialog title="Revoke this token?" cancelTo={cancelTo}>
          <Form method="post" preventScrollReset>
            <p className="text-sm text-slate-700">
              Sign-ups that use this token's link will no longer be attributed to the token. People who already joined stay in your roster.
            </p>
            <input type="hidden" name="agencyId" value={agency.id} />
            <input type="hidden" name="intent" value="revoke_token" />
            <input type="hidden" name="id" value={confirmToken.id} />
            <div className="mt-5 flex justify-end gap-2">
              <Link to={cancelTo} replace preventScrollReset className={buttonClass.secondary}>
                Cancel
              </Link>
              <button type="submit" className={buttonClass.danger} disabled={busy}>
                Confirm revoke
              </button>
            </div>
          </Form>
        </ConfirmDialog>
      ) : null}
      {confirmManager ? (
        <ConfirmDialog title={`Remove ${confirmManager.full_name || confirmManager.email}?`} cancelTo={cancelTo}>
          <Form method="post" preventScrollReset>
            <p className="text-sm text-slate-700">
              {confirmManager.user_id === d.userId
                ? "You will lose access to this agency's dashboard."
                : `${confirmManager.email} will lose access to this agency's dashboard.`}
            </p>
            <input type="hidden" name="agencyId" value={agency.id} />
            <input type="hidden" name="intent" value="remove_manager" />
            <input type="hidden" name="id" value={confirmManager.user_id} />
            <div className="mt-5 flex justify-end gap-2">
              <Link to={cancelTo} replace preventScrollReset className={buttonClass.secondary}>
                Cancel
              </Link>
              <button type="submit" className={buttonClass.danger} disabled={busy}>
                Confirm remove
              </button>
            </div>
          </Form>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** A link in a read-only field (selectable without JavaScript) with a copy button. */
function CopyField({ label, value }: { label: string; value: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setHydrated(true), []);
  const id = `copy-${value.replace(/[^a-z0-9]/gi, "").slice(-24)}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success("Link copied", { description: value });
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      toast.error("Could not copy", { description: "Select the link and copy it by hand." });
    }
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} className={`${inputClass} mt-0 font-mono text-xs`} />
        {hydrated ? (
          <button type="button" onClick={copy} className={`${buttonClass.secondary} shrink-0`} aria-label={`Copy ${label.toLowerCase()}`}>
            {copied ? "Copied!" : "Copy"}
          </button>
        ) : null}
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
