import { Form, useLocation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { formatDate } from "~/lib/dates";
import { hrefWith } from "~/lib/href";
import { pageUrl } from "~/lib/page-url";
import { actorOf, performUserAction, usersConsolePage } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { FilterField, PersonCell, StandingCell } from "~/modules/admin/components/console";
import { ConfirmAction, UserPanel } from "~/modules/admin/components/user-panel";
import { USER_ACTION_LABELS, USER_ACTIONS, USER_STATUS_FILTERS, type UserAction } from "~/modules/admin/messages";
import { userActionSchema, userListQuerySchema, uuidSchema } from "~/modules/admin/schema";
import { linkedChannelsForAdmin } from "~/modules/channels/channels.server";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { useActionFailure } from "~/ui/action-failure";
import { Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { Card } from "~/ui/card";
import { inputClass } from "~/ui/field";
import { PageHeader } from "~/ui/page-header";
import { Pagination } from "~/ui/pagination";
import { TableHead } from "~/ui/table";
import type { Route } from "./+types/users";

export const meta = () => [{ title: "Admin | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  const url = new URL(args.request.url);
  const query = userListQuerySchema.parse(Object.fromEntries(url.searchParams));
  const selectedId = uuidSchema.safeParse(url.searchParams.get("user") ?? "");
  const confirmRaw = url.searchParams.get("confirm");
  const confirm = (USER_ACTIONS as readonly string[]).includes(confirmRaw ?? "") ? (confirmRaw as UserAction) : null;
  const actor = actorOf(admin);
  const [page, channels] = await Promise.all([
    usersConsolePage(actor, query, selectedId.success ? selectedId.data : null),
    selectedId.success ? linkedChannelsForAdmin(actor, selectedId.data) : [],
  ]);
  return { ...page, channels, query, confirm: page.selected ? confirm : null, actorId: admin.id };
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const input = await parseForm(args.request, userActionSchema);
  const message = await performUserAction(actorOf(admin), input, args.request);
  return redirectWithToast(args.request, pageUrl(args.request, { confirm: null, user: input.userId }), {
    type: "success",
    title: USER_ACTION_LABELS[input.intent].label,
    description: message,
  });
}, "Action failed");

export default function AdminUsers({ loaderData, actionData }: Route.ComponentProps) {
  const { users, total, more, page, pageCount, query, selected, confirm, actorId, channels } = loaderData;
  const { pathname, search } = useLocation();
  const failure = useActionFailure(actionData);

  return (
    <>
      <PageHeader title="Admin" description="Users: approvals, bans, roles and sessions." />

      <Form method="get" className="mb-5 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-[1fr_12rem_auto] sm:items-end" role="search">
        <FilterField id="user-search" label="Search by name or e-mail">
          <input
            id="user-search"
            name="q"
            type="search"
            defaultValue={query.q}
            maxLength={100}
            className={inputClass}
            placeholder="e.g. casey or @example.com"
          />
        </FilterField>
        <FilterField id="user-status" label="Status">
          <select id="user-status" name="status" defaultValue={query.status} className={inputClass}>
            {USER_STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {s === "all" ? "All users" : s === "admin" ? "Admins" : s.charAt(0).toUpperCase() + s.slice(1)}
              </option>
            ))}
          </select>
        </FilterField>
        <button type="submit" className={buttonClass.primary}>
          Search
        </button>
      </Form>

      {selected ? <UserPanel user={selected} channels={channels} actorId={actorId} pathname={pathname} search={search} /> : null}

      <section aria-labelledby="users-heading">
        <h2 id="users-heading" className="sr-only">
          Users
        </h2>
        {users.length === 0 ? (
          <Card>
            <p className="text-slate-700">No users match these filters.</p>
          </Card>
        ) : (
          <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <TableHead columns={["User", "Status", "Joined", { key: "actions", label: <span className="sr-only">Actions</span> }]} />
              {/* Each row's 'Manage' is a plain anchor (a <Link to>'s markup), followed client-side by the shell's
                  one listener without scrolling to the top (app/ui/in-app-links.ts, 0346). */}
              <tbody className="divide-y divide-slate-100" data-in-app-links="keep-scroll">
                {users.map((u) => (
                  <tr key={u.id} className={selected?.id === u.id ? "bg-sky-50" : undefined}>
                    <PersonCell name={u.fullName} email={u.email} />
                    <StandingCell person={u}>{!u.emailVerifiedAt ? <Badge>E-mail unverified</Badge> : null}</StandingCell>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-700">{formatDate(u.createdAt)}</td>
                    <td className="px-4 py-3 text-right">
                      <a
                        className={buttonClass.secondary}
                        aria-label={`Manage ${u.fullName || u.email}`}
                        href={hrefWith(pathname, search, { user: u.id, confirm: null })}
                        data-discover="true"
                      >
                        Manage
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination
          page={page}
          pageCount={pageCount}
          total={total}
          more={more}
          label="users"
          hrefFor={(p) => hrefWith(pathname, search, { page: p, confirm: null })}
        />
      </section>

      {selected && confirm ? (
        <ConfirmAction
          user={selected}
          intent={confirm}
          cancelTo={hrefWith(pathname, search, { confirm: null })}
          error={failure ? (failure.errors.reason ?? failure.toast.description) : undefined}
        />
      ) : null}
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
